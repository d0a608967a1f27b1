//! The reference documents agree with the code: `docs/cli.md` holds, for every
//! subcommand of `thresher` (nested ones too), a heading `## thresher <command>`, a
//! paragraph of prose and then the exact `--help` output in a ```text block; and the
//! YAML block of `docs/config.md` is the default configuration, every key named.
//!
//! `THRESHER_BLESS=1 cargo test --release --test cli_docs` rewrites the help blocks of
//! `docs/cli.md` in place (prose kept; a new subcommand gets a heading and a block at the
//! end, and its prose is then yours to write).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const BLESS_HINT: &str = "regenerate with: THRESHER_BLESS=1 cargo test --release --test cli_docs";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `thresher <path> --help`, as a user sees it in a pipe.
fn help(path: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_thresher"))
        .args(path)
        .arg("--help")
        .env_remove("COLUMNS")
        .env("NO_COLOR", "1")
        .output()
        .expect("run thresher");
    assert!(
        out.status.success(),
        "thresher {} --help failed: {}",
        path.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// The subcommands a help text lists under `Commands:` (clap's own `help` left out).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim_end() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l[2..].starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every command path, the root first, each with its help text, depth first in the
/// order `--help` lists them.
fn command_tree() -> Vec<(Vec<String>, String)> {
    fn walk(path: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
        let text = help(&path);
        let children = subcommands(&text);
        out.push((path.clone(), text));
        for child in children {
            let mut p = path.clone();
            p.push(child);
            walk(p, out);
        }
    }
    let mut out = Vec::new();
    walk(Vec::new(), &mut out);
    out
}

fn heading(path: &[String]) -> String {
    if path.is_empty() {
        "## thresher".to_string()
    } else {
        format!("## thresher {}", path.join(" "))
    }
}

/// One `## thresher …` section of the document.
struct Section {
    /// Lines of prose between the heading and the help block.
    prose: usize,
    /// Line range of the help block's contents (between the fences), if there is one.
    block: Option<(usize, usize)>,
    /// Line index after the section's last non-blank line.
    end: usize,
}

fn sections(lines: &[&str]) -> BTreeMap<String, Section> {
    let mut found = BTreeMap::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with("## thresher") {
            let mut prose = 0;
            let mut block = None;
            let mut end = i + 1;
            i += 1;
            while i < lines.len() && !lines[i].starts_with("## ") {
                if !lines[i].trim().is_empty() {
                    end = i + 1;
                }
                if lines[i] == "```text" && block.is_none() {
                    let from = i + 1;
                    let mut to = from;
                    while to < lines.len() && lines[to] != "```" {
                        to += 1;
                    }
                    block = Some((from, to));
                    i = to;
                    end = to + 1;
                } else if block.is_none() && !lines[i].trim().is_empty() {
                    prose += 1;
                }
                i += 1;
            }
            found.insert(line.trim_end().to_string(), Section { prose, block, end });
        } else {
            i += 1;
        }
    }
    found
}

fn block_text(lines: &[&str], (from, to): (usize, usize)) -> String {
    let mut s = lines[from..to].join("\n");
    s.push('\n');
    s
}

/// The help output as it stands in a block: trailing blanks of lines and of the text cut.
fn as_block(help: &str) -> String {
    let mut s: String = help
        .trim_end()
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n");
    s.push('\n');
    s
}

fn bless(doc: &Path, text: &str, tree: &[(Vec<String>, String)]) {
    let lines: Vec<&str> = text.lines().collect();
    let found = sections(&lines);
    let mut replace: Vec<((usize, usize), String)> = Vec::new();
    let mut append = String::new();
    for (path, help) in tree {
        let h = heading(path);
        match found.get(&h) {
            Some(Section {
                block: Some(range), ..
            }) => replace.push((*range, as_block(help))),
            Some(Section { end, .. }) => {
                replace.push(((*end, *end), format!("\n```text\n{}```", as_block(help))))
            }
            None => append.push_str(&format!("\n{h}\n\n```text\n{}```\n", as_block(help))),
        }
    }
    replace.sort_by_key(|(r, _)| std::cmp::Reverse(r.0));
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for ((from, to), new) in replace {
        let new_lines: Vec<String> = new
            .trim_end_matches('\n')
            .lines()
            .map(str::to_string)
            .collect();
        out.splice(from..to, new_lines);
    }
    let mut s = out.join("\n");
    s.push('\n');
    s.push_str(&append);
    std::fs::write(doc, s).expect("write docs/cli.md");
}

#[test]
fn cli_reference_matches_every_help_text() {
    let doc = root().join("docs/cli.md");
    let tree = command_tree();
    assert!(
        tree.iter().any(|(p, _)| p == &["index", "add"])
            && tree.iter().any(|(p, _)| p == &["rules", "try"]),
        "the walk must reach nested subcommands: {:?}",
        tree.iter().map(|(p, _)| p.join(" ")).collect::<Vec<_>>()
    );
    let text = std::fs::read_to_string(&doc).expect("read docs/cli.md");
    if std::env::var_os("THRESHER_BLESS").is_some() {
        bless(&doc, &text, &tree);
    }
    let text = std::fs::read_to_string(&doc).expect("read docs/cli.md");
    let lines: Vec<&str> = text.lines().collect();
    let found = sections(&lines);

    let mut problems = Vec::new();
    for (path, help) in &tree {
        let h = heading(path);
        match found.get(&h) {
            None => problems.push(format!("`{h}` is missing ({BLESS_HINT})")),
            Some(section) => {
                if section.prose == 0 {
                    problems.push(format!(
                        "`{h}` has no introduction: write a paragraph between the heading and its help block"
                    ));
                }
                match section.block {
                    None => problems.push(format!("`{h}` has no ```text help block ({BLESS_HINT})")),
                    Some(range) if block_text(&lines, range) != as_block(help) => problems.push(format!(
                        "`{h}`: the help block differs from `{} --help` ({BLESS_HINT})\n--- docs/cli.md\n{}--- --help\n{}",
                        h.trim_start_matches("## "),
                        block_text(&lines, range),
                        as_block(help)
                    )),
                    Some(_) => {}
                }
            }
        }
    }
    let known: Vec<String> = tree.iter().map(|(p, _)| heading(p)).collect();
    for h in found.keys() {
        if !known.contains(h) {
            problems.push(format!("`{h}` names no subcommand of thresher: remove it"));
        }
    }
    assert!(
        problems.is_empty(),
        "docs/cli.md is out of date:\n{}",
        problems.join("\n")
    );
}

/// The dotted names of every key of a JSON value (`dedup.shingle.length`).
fn keys(value: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    if let serde_json::Value::Object(map) = value {
        for (k, v) in map {
            let name = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            out.push(name.clone());
            keys(v, &name, out);
        }
    }
}

#[test]
fn config_reference_is_the_default_configuration() {
    let text = std::fs::read_to_string(root().join("docs/config.md")).expect("read docs/config.md");
    let yaml: String = text
        .lines()
        .skip_while(|l| *l != "```yaml")
        .skip(1)
        .take_while(|l| *l != "```")
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!yaml.is_empty(), "docs/config.md has no ```yaml block");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.yaml");
    std::fs::write(&file, &yaml).unwrap();
    let loaded = thresher::config::Config::load(&file)
        .unwrap_or_else(|e| panic!("docs/config.md's block does not load: {e}"));
    let loaded = serde_json::to_value(&loaded).unwrap();
    let default = serde_json::to_value(thresher::config::Config::default()).unwrap();
    assert_eq!(
        loaded, default,
        "docs/config.md's values differ from Config::default()"
    );

    let mut all = Vec::new();
    keys(&default, "", &mut all);
    let missing: Vec<&String> = all
        .iter()
        .filter(|k| {
            let last = k.rsplit('.').next().unwrap();
            !yaml.lines().any(|l| {
                let l = l.trim_start().trim_start_matches("- ");
                l.starts_with(&format!("{last}:"))
                    || l.contains(&format!(" {last}: "))
                    || l.contains(&format!("{{ {last}: "))
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/config.md does not name these keys: {missing:?}"
    );
}
