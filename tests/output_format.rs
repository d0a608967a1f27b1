//! `--output-format markdown|html`: the Markdown parses (pulldown-cmark, GitHub tables)
//! into the page's structure (heading levels, nested lists, a table with its header row,
//! a code block with its language and indentation, a quote, links and images when
//! asked); the HTML re-parses (html5ever) with only the allowed tags and attributes and
//! nothing executable; the words of both, markup removed, are the words of `text` on
//! every fixture page; `text` is byte-identical to a run without the option; Parquet
//! records carry the field.

mod common;

#[path = "support/markup_words.rs"]
mod markup_words;

use std::io::BufRead;

use common::*;
use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use markup_words::{html_plain, markdown_plain, words};
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

fn record(page: &str, args: &[&str]) -> serde_json::Value {
    let path = fixtures().join("markdown").join(page);
    let mut all = vec!["extract", "--no-infholder", path.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = run_ok(&all);
    stdout_jsonl(&out).remove(0)
}

/// What a Markdown document holds, as a CommonMark reader sees it.
#[derive(Default, Debug)]
struct Structure {
    headings: Vec<(u8, String)>,
    /// Each list item: its list depth (1 = top), whether the list is ordered, its text.
    items: Vec<(usize, bool, String)>,
    /// Tables: each row's cells, the head row first; whether it was a head row.
    tables: Vec<Vec<(bool, Vec<String>)>>,
    code: Vec<(String, String)>,
    quotes: Vec<String>,
    links: Vec<String>,
    images: Vec<(String, String)>,
    emphasis: Vec<String>,
    strong: Vec<String>,
    hard_breaks: usize,
}

fn structure(md: &str) -> Structure {
    let mut s = Structure::default();
    let mut lists: Vec<bool> = Vec::new();
    // Open text collectors: (what, text).
    let mut open: Vec<(&str, String)> = Vec::new();
    let mut row: Option<(bool, Vec<String>)> = None;
    let mut in_head = false;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::Start(tag) => match tag {
                Tag::Heading { .. } => open.push(("heading", String::new())),
                Tag::List(start) => lists.push(start.is_some()),
                Tag::Item => open.push(("item", String::new())),
                Tag::Table(_) => s.tables.push(Vec::new()),
                Tag::TableHead => {
                    in_head = true;
                    row = Some((true, Vec::new()));
                }
                Tag::TableRow => row = Some((in_head, Vec::new())),
                Tag::TableCell => open.push(("cell", String::new())),
                Tag::CodeBlock(kind) => {
                    let lang = match kind {
                        CodeBlockKind::Fenced(l) => l.to_string(),
                        CodeBlockKind::Indented => String::new(),
                    };
                    open.push(("code", lang + "\u{0}"));
                }
                Tag::BlockQuote(_) => open.push(("quote", String::new())),
                Tag::Link { dest_url, .. } => s.links.push(dest_url.to_string()),
                Tag::Image { dest_url, .. } => open.push(("image", format!("{dest_url}\u{0}"))),
                Tag::Emphasis => open.push(("em", String::new())),
                Tag::Strong => open.push(("strong", String::new())),
                _ => {}
            },
            Event::End(end) => match end {
                TagEnd::Heading(level) => {
                    let (_, text) = open.pop().unwrap();
                    let level = match level {
                        HeadingLevel::H1 => 1,
                        HeadingLevel::H2 => 2,
                        HeadingLevel::H3 => 3,
                        HeadingLevel::H4 => 4,
                        HeadingLevel::H5 => 5,
                        HeadingLevel::H6 => 6,
                    };
                    s.headings.push((level, text.trim().to_string()));
                }
                TagEnd::List(_) => {
                    lists.pop();
                }
                TagEnd::Item => {
                    let (_, text) = open.pop().unwrap();
                    let ordered = *lists.last().unwrap();
                    s.items
                        .push((lists.len(), ordered, text.trim().to_string()));
                }
                TagEnd::TableHead => {
                    in_head = false;
                    s.tables.last_mut().unwrap().push(row.take().unwrap());
                }
                TagEnd::TableRow => s.tables.last_mut().unwrap().push(row.take().unwrap()),
                TagEnd::TableCell => {
                    let (_, text) = open.pop().unwrap();
                    row.as_mut().unwrap().1.push(text.trim().to_string());
                }
                TagEnd::CodeBlock => {
                    let (_, text) = open.pop().unwrap();
                    let (lang, code) = text.split_once('\u{0}').unwrap();
                    s.code.push((lang.to_string(), code.to_string()));
                }
                TagEnd::BlockQuote(_) => s.quotes.push(open.pop().unwrap().1.trim().to_string()),
                TagEnd::Image => {
                    let (_, text) = open.pop().unwrap();
                    let (dest, alt) = text.split_once('\u{0}').unwrap();
                    s.images.push((alt.to_string(), dest.to_string()));
                }
                TagEnd::Emphasis => s.emphasis.push(open.pop().unwrap().1),
                TagEnd::Strong => s.strong.push(open.pop().unwrap().1),
                _ => {}
            },
            Event::Text(t) | Event::Code(t) => {
                // Text belongs to every open collector (an item holds its sub-items' text).
                for (_, buf) in open.iter_mut() {
                    buf.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if matches!(event, Event::HardBreak) {
                    s.hard_breaks += 1;
                }
                for (_, buf) in open.iter_mut() {
                    buf.push(' ');
                }
            }
            _ => {}
        }
    }
    s
}

#[test]
fn markdown_parses_into_the_pages_structure() {
    let r = record(
        "guide.html",
        &["--output-format", "markdown", "--links", "--images"],
    );
    let md = r["markdown"].as_str().unwrap();
    let s = structure(md);
    // Heading levels as the page has them.
    assert_eq!(
        s.headings,
        [
            (2, "Requirements".to_string()),
            (3, "Supported platforms".to_string()),
            (2, "Installation steps".to_string()),
        ],
        "{md}"
    );
    // The nested list: two sub-items at depth 2 under the first top item.
    let nested: Vec<_> = s.items.iter().filter(|i| i.0 == 2).collect();
    assert_eq!(nested.len(), 2, "{md}");
    assert!(nested[0].2.starts_with("GCC version twelve"), "{nested:?}");
    assert!(!nested[0].1, "an unordered sub-list");
    let top: Vec<_> = s.items.iter().filter(|i| i.0 == 1 && !i.1).collect();
    assert_eq!(top.len(), 3, "{md}");
    assert!(
        top[0].2.contains("C language") && top[0].2.contains("Clang"),
        "{top:?}"
    );
    // The ordered steps.
    let steps: Vec<_> = s.items.iter().filter(|i| i.1).collect();
    assert_eq!(steps.len(), 3, "{md}");
    assert!(steps[0].2.starts_with("Download the source"), "{steps:?}");
    // The table: its header row, then three rows of three cells.
    assert_eq!(s.tables.len(), 1, "{md}");
    let table = &s.tables[0];
    assert_eq!(
        table[0],
        (
            true,
            vec!["Platform".into(), "Architecture".into(), "Status".into()]
        )
    );
    assert_eq!(table.len(), 4);
    assert_eq!(
        table[2],
        (
            false,
            vec![
                "macOS".into(),
                "ARM".into(),
                "Supported since release two".into()
            ]
        )
    );
    // The code block: its language, and its lines' indentation as the page has it.
    assert_eq!(s.code.len(), 1, "{md}");
    assert_eq!(s.code[0].0, "bash");
    assert!(
        s.code[0].1.contains("make -j4\n    sudo make install"),
        "{:?}",
        s.code[0].1
    );
    // The quote, the inline markup, the line break.
    assert_eq!(s.quotes.len(), 1, "{md}");
    assert!(
        s.quotes[0].starts_with("Building the toolkit as root"),
        "{:?}",
        s.quotes
    );
    assert_eq!(s.emphasis, ["small"]);
    assert_eq!(s.strong, ["fast"]);
    assert_eq!(s.hard_breaks, 1, "{md}");
    // Links and images (asked for), absolute.
    let base = r["url"].as_str().unwrap();
    let resolved = |p: &str| url::Url::parse(base).unwrap().join(p).unwrap().to_string();
    assert_eq!(s.links, [resolved("/docs/versions.html")], "{md}");
    assert_eq!(
        s.images,
        [(
            "A widget on screen".to_string(),
            resolved("/img/widget.png")
        )],
        "{md}"
    );
    // Not asked for: neither.
    let plain = record("guide.html", &["--output-format", "markdown"]);
    let s = structure(plain["markdown"].as_str().unwrap());
    assert!(s.links.is_empty() && s.images.is_empty());
    assert_eq!(plain["text"], r["text"]);
    assert!(plain.get("html").is_none());
}

/// Every element of an HTML fragment: tag and attribute names.
fn elements(html: &str) -> Vec<(String, Vec<(String, String)>)> {
    let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(html);
    let mut out = Vec::new();
    let mut stack: Vec<Handle> = vec![dom.document.clone()];
    while let Some(node) = stack.pop() {
        if let NodeData::Element { name, attrs, .. } = &node.data {
            let attrs = attrs
                .borrow()
                .iter()
                .map(|a| (a.name.local.to_string(), a.value.to_string()))
                .collect();
            out.push((name.local.to_string(), attrs));
        }
        stack.extend(node.children.borrow().iter().cloned());
    }
    out
}

#[test]
fn html_has_only_allowed_tags_and_attributes_and_nothing_executable() {
    for page in ["guide.html", "hostile.html"] {
        let r = record(page, &["--output-format", "html", "--links", "--images"]);
        let html = r["html"].as_str().unwrap();
        assert!(r.get("markdown").is_none());
        let mut tags = std::collections::BTreeSet::new();
        for (tag, attrs) in elements(html) {
            tags.insert(tag.clone());
            // html5ever adds the document's own html/head/body around a fragment, and a
            // table's row group.
            if matches!(tag.as_str(), "html" | "head" | "body" | "tbody") {
                assert!(attrs.is_empty());
                continue;
            }
            assert!(
                thresher::render::ALLOWED_TAGS.contains(&tag.as_str()),
                "<{tag}> in {html}"
            );
            for (name, value) in attrs {
                assert!(
                    ["href", "src", "alt"].contains(&name.as_str()),
                    "{name} on <{tag}> in {html}"
                );
                if name != "alt" {
                    let url = url::Url::parse(&value).unwrap_or_else(|e| panic!("{value}: {e}"));
                    assert!(
                        ["http", "https", "mailto", "ftp", "file"].contains(&url.scheme()),
                        "{value} in {html}"
                    );
                }
            }
        }
        assert!(
            !html.contains("javascript:") && !html.contains("alert"),
            "{html}"
        );
        assert_eq!(
            words(r["text"].as_str().unwrap()),
            words(&html_plain(html)),
            "{html}"
        );
        if page == "guide.html" {
            for t in [
                "h2",
                "h3",
                "ul",
                "ol",
                "li",
                "table",
                "th",
                "td",
                "pre",
                "code",
                "blockquote",
                "em",
                "strong",
                "a",
                "img",
                "br",
            ] {
                assert!(tags.contains(t), "no <{t}> in {html}");
            }
        } else {
            // The safe link stays, made absolute; the others keep their text only.
            assert!(html.contains("/safe/page.html\""), "{html}");
            assert!(
                html.contains("a script link") && html.contains("a data link"),
                "{html}"
            );
            assert!(html.contains("3 &lt; 4 &amp; 5 &gt; 2"), "{html}");
        }
    }
}

#[test]
fn markup_that_is_text_on_the_page_stays_text() {
    let r = record(
        "hostile.html",
        &["--output-format", "markdown", "--links", "--images"],
    );
    let md = r["markdown"].as_str().unwrap();
    let text = r["text"].as_str().unwrap();
    assert_eq!(words(text), words(&markdown_plain(md)), "{md}");
    // Read back, the characters are the page's: nothing became emphasis, a link, a list
    // or a heading, and the ragged table is one row a line.
    let s = structure(md);
    assert!(s.emphasis.is_empty() && s.items.is_empty(), "{md}\n{s:?}");
    assert!(
        !s.headings.iter().any(|h| h.1.contains("has a hash")),
        "{md}"
    );
    assert!(s.tables.is_empty(), "{md}");
    let plain = markdown_plain(md);
    for kept in [
        "*stars*",
        "_underscores_",
        "[brackets](not-a-link)",
        "a | pipe",
        "1. This line",
        "<script>",
    ] {
        assert!(plain.contains(kept), "{kept:?} not in {plain}");
    }
    assert!(
        !md.contains("javascript:") && !md.contains("data:text"),
        "{md}"
    );
}

#[test]
fn every_fixture_page_keeps_its_words_and_its_text() {
    // All fixture pages of the extraction tests, each format, links and images on.
    let dir = tempfile::tempdir().unwrap();
    let inputs = [
        "sites",
        "layouts",
        "languages",
        "metadata",
        "markdown",
        "inbreeding",
    ];
    let paths: Vec<String> = inputs
        .iter()
        .map(|d| fixtures().join(d).to_str().unwrap().to_string())
        .collect();
    let run_to = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut args = vec!["extract", "--no-infholder", "-o", out.to_str().unwrap()];
        args.extend(paths.iter().map(String::as_str));
        args.extend_from_slice(extra);
        run(&args);
        jsonl(&out)
    };
    let text = run_to("text.jsonl", &[]);
    let md = run_to(
        "md.jsonl",
        &["--output-format", "markdown", "--links", "--images"],
    );
    let html = run_to(
        "html.jsonl",
        &["--output-format", "html", "--links", "--images"],
    );
    assert!(text.len() > 40, "{} records", text.len());
    assert_eq!(text.len(), md.len());
    assert_eq!(text.len(), html.len());
    let mut checked = 0;
    for ((t, m), h) in text.iter().zip(&md).zip(&html) {
        assert_eq!(t["path"], m["path"]);
        // `text` byte for byte as without the option.
        assert_eq!(t["text"], m["text"], "{}", t["path"]);
        assert_eq!(t["text"], h["text"], "{}", t["path"]);
        let Some(words_of_text) = t["text"].as_str().map(words) else {
            continue;
        };
        let m = m["markdown"].as_str().unwrap();
        let h = h["html"].as_str().unwrap();
        assert_eq!(
            words_of_text,
            words(&markdown_plain(m)),
            "{}:\n{m}",
            t["path"]
        );
        assert_eq!(words_of_text, words(&html_plain(h)), "{}:\n{h}", t["path"]);
        checked += 1;
    }
    assert!(checked > 40, "{checked}");
}

#[test]
fn run_and_parquet_records_carry_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let page = fixtures().join("markdown/guide.html");
    let out = dir.path().join("pages.parquet");
    run_ok(&[
        "extract",
        "--no-infholder",
        page.to_str().unwrap(),
        "--output-format",
        "markdown",
        "--format",
        "parquet",
        "-o",
        out.to_str().unwrap(),
    ]);
    let rows: Vec<serde_json::Value> = thresher::parquet_io::records::ParquetLines::open(&out)
        .unwrap()
        .into_bufread()
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert!(rows[0]["markdown"]
        .as_str()
        .unwrap()
        .contains("## Requirements"));
    // `run` writes it into pages.jsonl (and pages.parquet).
    let run_dir = dir.path().join("run");
    run_ok(&[
        "run",
        "--no-infholder",
        page.to_str().unwrap(),
        "--output-format",
        "html",
        "--out",
        run_dir.to_str().unwrap(),
        "--format",
        "parquet",
    ]);
    let pages: Vec<serde_json::Value> =
        thresher::parquet_io::records::ParquetLines::open(&run_dir.join("pages.parquet"))
            .unwrap()
            .into_bufread()
            .lines()
            .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
            .collect();
    assert!(pages[0]["html"]
        .as_str()
        .unwrap()
        .contains("<h2>Requirements</h2>"));
}

#[test]
fn a_bad_output_format_is_a_usage_error() {
    let out = run(&["extract", "--output-format", "pdf", "x.html"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("markdown"));
}
