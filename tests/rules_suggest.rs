//! `thresher rules suggest` on the invented site of `fixtures/suggest/`: the draft passes
//! `rules check` and `rules test` as written, names the text by class words rather than
//! positions or generated names, cuts the template box inside the text, gives each layout
//! its own rule (by directory, `path_prefix`, or by path pattern, `path_glob`), and refuses
//! (writing nothing) when it has too few pages. Smaller invented sites of their own
//! (`fixtures/suggest-*/`) hold one case each: a lead outside the body's element, a
//! labelled read-also line inside it, a caption among the paragraphs it selects, a
//! headline the answers keep on some pages only.

mod common;
use common::*;

use std::path::{Path, PathBuf};

fn suggest_dir() -> PathBuf {
    root().join("fixtures/suggest")
}

fn manifest() -> String {
    suggest_dir().join("manifest.jsonl").display().to_string()
}

/// Suggest from the manifest into `dir/suggest.example.yaml`; the file's text.
fn suggest_into(dir: &Path, extra: &[&str]) -> (std::process::Output, PathBuf) {
    let file = dir.join("suggest.example.yaml");
    let mut args = vec![
        "rules".to_string(),
        "suggest".into(),
        "--manifest".into(),
        manifest(),
        "-o".into(),
        file.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    (run(&args), file)
}

/// Suggest from `fixtures/<fixture>/manifest.jsonl` into `dir/<file>`, which must
/// succeed: the manifest's path and the drafted file's text.
fn drafted(fixture: &str, dir: &Path, file: &str) -> (String, String) {
    let manifest = root()
        .join("fixtures")
        .join(fixture)
        .join("manifest.jsonl")
        .display()
        .to_string();
    let file = dir.join(file);
    let out = run(&[
        "rules",
        "suggest",
        "--manifest",
        &manifest,
        "-o",
        &file.display().to_string(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    (manifest, std::fs::read_to_string(&file).unwrap())
}

/// Run the drafted rules' embedded tests (which must pass), then `extract --rules` on
/// the manifest: every record answered by a rule; their texts.
fn rule_texts(rules: &str, manifest: &str, yaml: &str) -> Vec<String> {
    let test = run(&["rules", "test", rules]);
    let stdout = String::from_utf8_lossy(&test.stdout);
    assert_eq!(test.status.code(), Some(0), "{stdout}\n{yaml}");
    let extracted = run(&["extract", "--rules", rules, "--manifest", manifest]);
    String::from_utf8_lossy(&extracted.stdout)
        .lines()
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(
                record["method"].as_str().unwrap().starts_with("rule"),
                "{record}"
            );
            record["text"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn the_draft_passes_check_and_test_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let (out, file) = suggest_into(dir.path(), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let yaml = std::fs::read_to_string(&file).unwrap();
    let rules = dir.path().display().to_string();
    let check = run(&["rules", "check", &rules]);
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{stdout}\n{yaml}");
    assert!(stdout.contains("0 problem(s)"), "{stdout}");
    let test = run(&["rules", "test", &rules]);
    let stdout = String::from_utf8_lossy(&test.stdout);
    assert_eq!(test.status.code(), Some(0), "{stdout}\n{yaml}");
    let passed = stdout.lines().filter(|l| l.starts_with("PASS")).count();
    assert!(passed >= 2, "{stdout}\n{yaml}");
    // The tests name the pages where they are, relative to the rule file.
    assert!(yaml.contains("must_contain"), "{yaml}");
    assert!(yaml.contains("must_not_contain"), "{yaml}");
    // Every XPath says on how many pages it did its job.
    assert!(
        yaml.contains("selects the text on") || yaml.contains("of 4 pages"),
        "{yaml}"
    );
}

#[test]
fn the_content_xpath_uses_class_words_not_positions_or_generated_names() {
    let dir = tempfile::tempdir().unwrap();
    let (out, file) = suggest_into(dir.path(), &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let yaml = std::fs::read_to_string(&file).unwrap();
    assert!(yaml.contains("article-body"), "{yaml}");
    assert!(yaml.contains("video-description"), "{yaml}");
    for generated in ["post-88", "page-45", "x7f3a9c"] {
        assert!(!yaml.contains(generated), "{generated} in\n{yaml}");
    }
    let content: Vec<&str> = yaml
        .lines()
        .filter(|l| l.trim_start().starts_with("- \"/"))
        .collect();
    assert!(!content.is_empty(), "{yaml}");
    for l in content {
        assert!(
            !l.contains("[1]") && !l.contains("[2]") && !l.contains("/html/"),
            "a position where a class word exists: {l}\n{yaml}"
        );
    }
}

#[test]
fn two_layouts_get_two_rules_told_apart_by_path() {
    let dir = tempfile::tempdir().unwrap();
    let (out, file) = suggest_into(dir.path(), &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let yaml = std::fs::read_to_string(&file).unwrap();
    assert_eq!(yaml.matches("  - name: ").count(), 2, "{yaml}");
    assert!(yaml.contains("path_prefix: \"/news/\""), "{yaml}");
    assert!(yaml.contains("path_prefix: \"/video/\""), "{yaml}");
    // Each layout's pages are handled by its own rule in a run.
    let rules = dir.path().display().to_string();
    let out = run(&["extract", "--rules", &rules, "--manifest", &manifest()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    for line in stdout.lines() {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        let url = rec["url"].as_str().unwrap();
        let method = rec["method"].as_str().unwrap();
        let layout = if url.contains("/news/") {
            "#news"
        } else {
            "#video"
        };
        assert!(
            method.starts_with("rules:suggest.example") && method.ends_with(layout),
            "{url}: {method}"
        );
        assert!(
            !rec["text"].as_str().unwrap().contains("Most read story"),
            "{line}"
        );
    }
}

#[test]
fn a_template_block_inside_the_content_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let (out, file) = suggest_into(dir.path(), &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let yaml = std::fs::read_to_string(&file).unwrap();
    let remove = yaml
        .split("remove:")
        .nth(1)
        .unwrap_or_else(|| panic!("no remove in\n{yaml}"));
    assert!(remove.contains("share-box"), "{yaml}");
    assert!(
        yaml.contains("template inside the content on 4 of 4 pages"),
        "{yaml}"
    );
    let rules = dir.path().display().to_string();
    let out = run(&["extract", "--rules", &rules, "--manifest", &manifest()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("Share this story"), "{stdout}");
    assert!(stdout.contains("rainy Monday"), "{stdout}");
}

#[test]
fn fewer_than_three_pages_say_why_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("two.jsonl");
    let two: Vec<String> = std::fs::read_to_string(suggest_dir().join("manifest.jsonl"))
        .unwrap()
        .lines()
        .take(2)
        .map(|l| {
            l.replace(
                "\"path\": \"",
                &format!("\"path\": \"{}/", suggest_dir().display()),
            )
        })
        .collect();
    std::fs::write(&m, two.join("\n") + "\n").unwrap();
    let file = dir.path().join("out.yaml");
    let out = run(&[
        "rules",
        "suggest",
        "--manifest",
        &m.display().to_string(),
        "-o",
        &file.display().to_string(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no rule drafted, nothing written"),
        "{stderr}"
    );
    assert!(stderr.contains("needs 3"), "{stderr}");
    assert!(!file.exists());
}

#[test]
fn a_reviewed_file_is_not_overwritten_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("suggest.example.yaml");
    std::fs::write(&file, "# reviewed\n").unwrap();
    let (out, _) = suggest_into(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "# reviewed\n");
    let (out, _) = suggest_into(dir.path(), &["--force"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("article-body"));
}

/// Dated posts under a directory per year and topic pages under `/topics/`: no first
/// directory holds enough pages of one layout, the shape of the path tells them apart,
/// and each layout's rule says so with `path_glob`; a run gives each page its layout's
/// rule.
#[test]
fn layouts_told_apart_by_a_path_pattern_get_path_glob() {
    let dir = tempfile::tempdir().unwrap();
    let (manifest, yaml) = drafted("suggest-glob", dir.path(), "glob.example.yaml");
    assert_eq!(yaml.matches("  - name: ").count(), 2, "{yaml}");
    assert!(yaml.contains("path_glob: \"/topics/*/\""), "{yaml}");
    assert!(yaml.contains("path_glob: \"/*/*/*.html\""), "{yaml}");
    assert!(!yaml.contains("path_prefix"), "{yaml}");
    let rules = dir.path().display().to_string();
    let check = run(&["rules", "check", &rules]);
    assert_eq!(check.status.code(), Some(0));
    let test = run(&["rules", "test", &rules]);
    let stdout = String::from_utf8_lossy(&test.stdout);
    assert_eq!(test.status.code(), Some(0), "{stdout}\n{yaml}");
    let out = run(&["extract", "--rules", &rules, "--manifest", &manifest]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let mut rules_used = std::collections::BTreeSet::new();
    for line in stdout.lines() {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        let (url, method) = (
            rec["url"].as_str().unwrap(),
            rec["method"].as_str().unwrap(),
        );
        let text = rec["text"].as_str().unwrap();
        if url.contains("/topics/") {
            assert!(method.ends_with("#topics"), "{url}: {method}");
            assert!(text.contains("This page gathers"), "{url}: {text}");
        } else {
            assert!(method.starts_with("rules:glob.example#"), "{url}: {method}");
            assert!(!method.ends_with("#topics"), "{url}: {method}");
            assert!(text.contains("talk of the quay"), "{url}: {text}");
        }
        assert!(
            !text.contains("Harbour Notes is written by volunteers"),
            "{text}"
        );
        rules_used.insert(method.to_string());
    }
    assert_eq!(rules_used.len(), 2, "{rules_used:?}");
}

#[test]
fn a_lead_outside_the_bodys_element_gets_its_own_content_xpath() {
    // The stories set their lead between the headline and the body, apart from the body
    // by a box of other stories: the cascade writes the lead, so the draft names it too,
    // before the body, and the rule's text has it.
    let dir = tempfile::tempdir().unwrap();
    let (manifest, yaml) = drafted("suggest-lead", dir.path(), "lead.example.yaml");
    let lead = yaml.find("//div[@class='standfirst']").expect(&yaml);
    let body = yaml.find("//div[@class='story-text']").expect(&yaml);
    assert!(lead < body, "{yaml}");
    let rules = dir.path().display().to_string();
    let extracted = run(&["extract", "--rules", &rules, "--manifest", &manifest]);
    let stdout = String::from_utf8_lossy(&extracted.stdout);
    let first = stdout.lines().next().expect("a record");
    let record: serde_json::Value = serde_json::from_str(first).unwrap();
    assert!(
        record["method"].as_str().unwrap().starts_with("rule"),
        "{record}"
    );
    let text = record["text"].as_str().unwrap();
    assert!(text.starts_with("The old ferry was lifted"), "{text}");
    assert!(!text.contains("Other story"), "{text}");
}

#[test]
fn a_labelled_read_also_line_inside_the_body_is_removed_by_its_label() {
    // `fixtures/suggest-label/`: a bare `<p>Read also: <a>…</a></p>` inside the body,
    // linking elsewhere on each page, which the cascade leaves out. No id or class names
    // it and its text differs per page, so only its label can: the draft removes it by
    // that, and the rule's text goes on past it.
    let dir = tempfile::tempdir().unwrap();
    let (manifest, yaml) = drafted("suggest-label", dir.path(), "label.example.yaml");
    assert!(
        yaml.contains("- \"//p[starts-with(normalize-space(.), 'Read also:')]\""),
        "{yaml}"
    );
    let rules = dir.path().display().to_string();
    let check = run(&["rules", "check", &rules]);
    assert_eq!(check.status.code(), Some(0), "{yaml}");
    let texts = rule_texts(&rules, &manifest, &yaml);
    assert_eq!(texts.len(), 4, "{texts:?}");
    for text in &texts {
        assert!(!text.contains("Read also"), "{text}");
        // The paragraphs before and after the line are both kept.
        assert_eq!(text.lines().count(), 5, "{text}");
    }
}

#[test]
fn a_headline_the_answers_keep_on_some_pages_joins_the_content_on_all() {
    // `fixtures/suggest-headline/`: the headline sits in a `<div class="title-line">`
    // above a share box and the body. The answers given keep it on two of the four
    // pages (the cascade decides that page by page); its text is each page's own, so
    // the draft names it as a content XPath of its own, before the body, and the rule
    // keeps it on every page, the pages whose answers left it out too.
    use thresher::extract::dom::parse_page;
    use thresher::extract::rules::suggest::{draft, render, SitePage, SuggestOptions};
    use thresher::extract::Extracted;
    let dir = root().join("fixtures/suggest-headline");
    let pages: Vec<SitePage> = (1..=4)
        .map(|n| {
            let html = std::fs::read_to_string(dir.join(format!("story-{n}.html"))).unwrap();
            let parsed = parse_page(&html);
            let blocks: Vec<u32> = parsed
                .dom
                .blocks
                .iter()
                .enumerate()
                .filter(|(_, b)| {
                    // The body's paragraphs, and the headline on the first two pages.
                    b.text.split_whitespace().count() > 15
                        || (n <= 2 && html.contains(&format!("\"title-line\">{}<", b.text.trim())))
                })
                .map(|(i, _)| i as u32)
                .collect();
            let text: Vec<&str> = blocks
                .iter()
                .map(|&i| parsed.dom.blocks[i as usize].text.as_str())
                .collect();
            let text = text.join("\n");
            let answer = Extracted {
                kept_words: text.split_whitespace().count() as u64,
                text,
                blocks,
                ..Default::default()
            };
            SitePage {
                url: format!("http://headline.example/news/story-{n}.html"),
                parsed,
                heuristic: answer.clone(),
                answer,
                method: "inbreeding+heuristic".into(),
            }
        })
        .collect();
    let headlines = pages
        .iter()
        .filter(|p| p.answer.text.starts_with("The river") || p.answer.text.starts_with("A new"))
        .count();
    assert_eq!(headlines, 2, "the answers keep the headline on two pages");
    let d = draft("headline.example", &pages, &SuggestOptions::default()).expect("a draft");
    let yaml = render(&d, &[]);
    let head = yaml.find("- \"//div[@class='title-line']\"").expect(&yaml);
    let body = yaml.find("- \"//div[@class='story-text']\"").expect(&yaml);
    assert!(head < body, "{yaml}");
    assert!(yaml.contains("in thresher's answer on 2"), "{yaml}");
}

#[test]
fn a_caption_among_the_selected_paragraphs_is_removed_by_its_class() {
    // `fixtures/suggest-caption/`: the content XPath selects the body's paragraphs one by
    // one, and one of them is a `<p class="caption">` the cascade leaves out on every
    // page. Its text differs per page, so no label names it; its class does.
    let dir = tempfile::tempdir().unwrap();
    let (manifest, yaml) = drafted("suggest-caption", dir.path(), "caption.example.yaml");
    assert!(
        yaml.contains("- \"//div[@class='story-body']//p\""),
        "{yaml}"
    );
    assert!(yaml.contains("- \"//p[@class='caption']\""), "{yaml}");
    let rules = dir.path().display().to_string();
    for text in rule_texts(&rules, &manifest, &yaml) {
        assert!(!text.contains("(Photo:"), "{text}");
        assert_eq!(text.lines().count(), 4, "{text}");
    }
}
