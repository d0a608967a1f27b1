//! The report's rule-health findings (`rule_health.json` of `run --rules-health`), shown
//! in its "Broken rules" section: rules empty on most of their pages, then each page
//! where a rule broke with the XPath and the text before and now, then idle `remove`
//! XPaths.

use serde_json::Value;

use super::page_html::esc;

/// Breakage rows shown; the rest are counted (all are in `rule_health.json`).
const MAX_ROWS: usize = 200;

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or_default()
}

/// A finding's rule: its file and name over the place it is written.
fn rule_cell(v: &Value) -> String {
    format!(
        "{}#{}<br><span class=muted>{}</span>",
        esc(s(v, "file")),
        esc(s(v, "rule")),
        esc(s(v, "place"))
    )
}

fn link(url: &str) -> String {
    format!("<a href=\"{0}\">{0}</a>", esc(url))
}

/// The findings as HTML tables; empty when there are none.
pub(super) fn section(health: &Value) -> String {
    let list = |k: &str| health[k].as_array().cloned().unwrap_or_default();
    let (empty, broken, idle) = (list("empty_rules"), list("broken"), list("idle_removes"));
    if empty.is_empty() && broken.is_empty() && idle.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<h3>Rule health</h3><p class=muted>Each page of a site with a rule file probed under \
         its rule after the run ({} pages; <code>rule_health.json</code>).</p>",
        health["pages"].as_u64().unwrap_or(0)
    );
    if !empty.is_empty() {
        out.push_str("<table id=empty-rules><tr><th>rule</th><th>where</th><th>keeps nothing on</th><th>example pages</th></tr>");
        for e in &empty {
            let examples: Vec<String> = e["examples"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(esc))
                .collect();
            out.push_str(&format!(
                "<tr><td>{}#{}</td><td>{}</td><td class=n>{} of {}</td><td>{}</td></tr>",
                esc(s(e, "file")),
                esc(s(e, "rule")),
                esc(s(e, "place")),
                e["empty"].as_u64().unwrap_or(0),
                e["pages"].as_u64().unwrap_or(0),
                examples.join(" ")
            ));
        }
        out.push_str("</table>");
    }
    if !broken.is_empty() {
        out.push_str("<table id=broken-pages><tr><th>rule</th><th>page</th><th>what broke</th><th>XPath</th><th>before</th><th>now</th></tr>");
        for b in broken.iter().take(MAX_ROWS) {
            out.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                rule_cell(b),
                link(s(b, "url")),
                esc(s(b, "what")),
                esc(s(b, "xpath")),
                esc(s(b, "excerpt_before")),
                esc(s(b, "excerpt_now")),
            ));
        }
        out.push_str("</table>");
        if broken.len() > MAX_ROWS {
            out.push_str(&format!(
                "<p class=muted>{} more in rule_health.json</p>",
                broken.len() - MAX_ROWS
            ));
        }
    }
    if !idle.is_empty() {
        out.push_str("<table id=idle-removes><tr><th>rule</th><th>remove XPath selecting nothing</th><th>on pages</th></tr>");
        for r in &idle {
            out.push_str(&format!(
                "<tr><td>{}</td><td><code>{}</code></td><td class=n>{}</td></tr>",
                rule_cell(r),
                esc(s(r, "xpath")),
                r["pages"].as_u64().unwrap_or(0)
            ));
        }
        out.push_str("</table>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_become_rows_and_none_give_nothing() {
        assert_eq!(section(&serde_json::json!({"pages": 3, "broken": []})), "");
        let h = serde_json::json!({"pages": 4, "broken": [{"file": "a.example", "rule": "main",
            "place": "a.yaml:3", "url": "http://a.example/<x>", "what": "content XPath selects nothing now",
            "xpath": "//div[@id='story']", "excerpt_before": "The bridge", "excerpt_now": ""}],
            "empty_rules": [], "idle_removes": []});
        let html = section(&h);
        assert!(html.contains("content XPath selects nothing now"), "{html}");
        assert!(
            html.contains("//div[@id=&#39;story&#39;]") || html.contains("//div[@id='story']"),
            "{html}"
        );
        assert!(html.contains("&lt;x&gt;"), "{html}");
    }
}
