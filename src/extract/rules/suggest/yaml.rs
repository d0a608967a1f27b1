//! The draft written as a rule file a person reviews: every value a JSON string (a valid
//! YAML double-quoted scalar, whatever the XPath or snippet holds), each XPath with a
//! comment saying on how many pages it did its job.

use std::fmt::Write;

use super::{Draft, DraftRule};

fn q(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// One-line comment text: no line breaks, at most `n` characters.
fn clip(s: &str, n: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= n {
        flat
    } else {
        format!("{}…", flat.chars().take(n).collect::<String>())
    }
}

fn rule(out: &mut String, r: &DraftRule) {
    let _ = writeln!(out, "  - name: {}", q(&r.name));
    if let Some(g) = &r.path_glob {
        let _ = writeln!(out, "    path_glob: {}", q(g));
    }
    if let Some(p) = &r.path_prefix {
        let _ = writeln!(out, "    path_prefix: {}", q(p));
    }
    for line in &r.summary {
        let _ = writeln!(out, "    # {}", clip(line, 200));
    }
    let _ = writeln!(out, "    content:");
    for x in &r.content {
        let _ = writeln!(out, "      # {}", clip(&x.comment, 200));
        let _ = writeln!(out, "      - {}", q(&x.xpath));
    }
    if !r.remove.is_empty() {
        let _ = writeln!(out, "    remove:");
        for x in &r.remove {
            let _ = writeln!(out, "      # {}", clip(&x.comment, 200));
            let _ = writeln!(out, "      - {}", q(&x.xpath));
        }
    }
    for (key, field) in [("title", &r.title), ("date", &r.date)] {
        if let Some(x) = field {
            let _ = writeln!(out, "    # {}", clip(&x.comment, 200));
            let _ = writeln!(out, "    {key}: {}", q(&x.xpath));
        }
    }
}

/// The rule file of `draft`; `page_paths[i]` is how the file names page `i` in its
/// tests (relative to the file), `None` for a page that has no file to name.
pub fn render(draft: &Draft, page_paths: &[Option<String>]) -> String {
    let mut out = String::new();
    for line in &draft.header {
        let _ = writeln!(out, "# {}", clip(line, 200));
    }
    let _ = writeln!(out, "site:\n  host: {}\nrules:", q(&draft.host));
    for r in &draft.rules {
        rule(&mut out, r);
    }
    let tests: Vec<_> = draft
        .tests
        .iter()
        .filter_map(|t| page_paths.get(t.page).cloned().flatten().map(|p| (t, p)))
        .collect();
    if !tests.is_empty() {
        let _ = writeln!(out, "tests:");
        for (t, path) in tests {
            let _ = writeln!(out, "  - page: {}", q(&path));
            let _ = writeln!(out, "    url: {}", q(&draft.urls[t.page]));
            let _ = writeln!(out, "    rule: {}", q(&t.rule));
            let list = |v: &[String]| v.iter().map(|s| q(s)).collect::<Vec<_>>().join(", ");
            let _ = writeln!(out, "    must_contain: [{}]", list(&t.must_contain));
            if !t.must_not_contain.is_empty() {
                let _ = writeln!(out, "    must_not_contain: [{}]", list(&t.must_not_contain));
            }
        }
    }
    out
}
