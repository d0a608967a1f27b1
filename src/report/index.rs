//! `report/index.html`: the page around a JSON island (the summary, per-site rows, one
//! short row per page) that `assets/index.js` renders into the summary, the site table
//! and the filtered, paginated page list. One file, no network.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::page_html::{esc, CSS};
use super::rows::Row;

const JS: &str = include_str!("assets/index.js");

/// Per-site figures: pages, errors, kept share, rule use and breakage.
fn sites(rows: &[Row]) -> Vec<Value> {
    #[derive(Default)]
    struct Site {
        pages: usize,
        errors: usize,
        empty: usize,
        words: usize,
        kept: (f64, usize),
        template: (f64, usize),
        rule_pages: usize,
        rule_fallbacks: usize,
        methods: BTreeMap<String, usize>,
    }
    let mut by: BTreeMap<&str, Site> = BTreeMap::new();
    for r in rows {
        let s = by.entry(&r.site).or_default();
        s.pages += 1;
        s.errors += r.error_kind.is_some() as usize;
        s.empty += (r.error_kind.is_none() && r.words == 0) as usize;
        s.words += r.words;
        if let Some(k) = r.kept_share {
            s.kept.0 += k;
            s.kept.1 += 1;
        }
        if let Some(t) = r.template_ratio {
            s.template.0 += t;
            s.template.1 += 1;
        }
        s.rule_pages += r.method.starts_with("rules:") as usize;
        s.rule_fallbacks += r.rule_fallbacks;
        *s.methods.entry(r.method.clone()).or_default() += 1;
    }
    let mean = |(sum, n): (f64, usize)| (n > 0).then(|| (sum / n as f64 * 1000.0).round() / 1000.0);
    by.into_iter()
        .map(|(name, s)| {
            json!({
                "site": name, "pages": s.pages, "errors": s.errors, "empty": s.empty,
                "words": s.words, "kept_share": mean(s.kept), "template_share": mean(s.template),
                "rule_pages": s.rule_pages, "rule_fallbacks": s.rule_fallbacks,
                "methods": s.methods,
            })
        })
        .collect()
}

/// One page row: `[path, url, site, title, method, words, kept share, error kind,
/// cluster, role, traced]` (role: `main`, `duplicate` or empty).
fn page_rows(rows: &[Row]) -> Vec<Value> {
    rows.iter()
        .map(|r| {
            let role = match (r.cluster.is_some(), r.is_main) {
                (true, Some(true)) => "main",
                (true, _) => "duplicate",
                _ => "",
            };
            json!([
                r.path,
                r.url,
                r.site,
                r.title.chars().take(120).collect::<String>(),
                r.method,
                r.words,
                r.kept_share.map(|k| (k * 1000.0).round() / 1000.0),
                r.error_kind,
                r.cluster,
                role,
                r.traced,
            ])
        })
        .collect()
}

/// The section at the top of the index when rules broke in the run: per rule (most
/// breakages first) the pages where it kept too little text (`broke`) or could not run
/// (`errors`), with example URLs — what an operator opens first after a site changed
/// its layout. Empty when no rule broke.
fn broken_rules(summary: &Value, health: Option<&Value>) -> String {
    let probed = health.map(super::health::section).unwrap_or_default();
    let table = fallbacks(summary);
    if probed.is_empty() && table.is_empty() {
        return String::new();
    }
    format!("<section id=broken-rules><h2>Broken rules</h2>{table}{probed}</section>")
}

/// The rules' fallbacks in the run (`summary.json`'s per-rule counters) as a table;
/// empty when no rule broke.
fn fallbacks(summary: &Value) -> String {
    let Some(per_rule) = summary["extractors"]["rules"]["per_rule"].as_object() else {
        return String::new();
    };
    let count = |v: &Value, k: &str| v[k].as_u64().unwrap_or(0);
    let mut broken: Vec<(&String, &Value)> = per_rule
        .iter()
        .filter(|(_, v)| count(v, "broke") + count(v, "errors") > 0)
        .collect();
    if broken.is_empty() {
        return String::new();
    }
    broken.sort_by_key(|(k, v)| {
        (
            std::cmp::Reverse(count(v, "broke") + count(v, "errors")),
            *k,
        )
    });
    let mut rows = String::new();
    for (rule, v) in broken {
        let examples: Vec<String> = ["broke", "errors"]
            .iter()
            .flat_map(|k| v["examples"][k].as_array().cloned().unwrap_or_default())
            .filter_map(|u| {
                u.as_str()
                    .map(|u| format!("<a href=\"{0}\">{0}</a>", esc(u)))
            })
            .collect();
        rows.push_str(&format!(
            "<tr><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td>{}</td></tr>",
            esc(rule),
            count(v, "broke"),
            count(v, "errors"),
            count(v, "matched"),
            v["mean_words"].as_f64().map(|w| format!("{w:.0}")).unwrap_or_default(),
            examples.join(" ")
        ));
    }
    format!(
        "<p class=muted>Rules that kept too little \
         text (broke) or could not run (errors) on some pages, which fell back to the next \
         method. Check with <code>thresher rules test --pages … --baseline …</code>.</p>\
         <table><tr><th>rule</th><th class=n>broke</th><th class=n>errors</th><th class=n>matched</th>\
         <th class=n>usual words</th><th>example pages</th></tr>{rows}</table>"
    )
}

pub(super) fn render(summary: &Value, health: Option<&Value>, rows: &[Row]) -> String {
    let data = json!({
        "summary": summary,
        "sites": sites(rows),
        "pages": page_rows(rows),
        "traced": rows.iter().filter(|r| r.traced).count(),
    });
    // `<` escaped so that no text of a page can close the script element.
    let data = data.to_string().replace('<', "\\u003c");
    format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8>\
         <meta name=viewport content='width=device-width, initial-scale=1'>\
         <title>{title}</title><style>{CSS}</style></head><body class=index>\
         <h1>thresher report</h1><p class=muted id=sub></p>{broken}\
         <div class=cards id=summary></div>\
         <div style='display:flex;gap:24px;flex-wrap:wrap'>\
         <div><h2>Methods</h2><table id=methods></table></div>\
         <div><h2>Errors by kind</h2><table id=errors></table></div>\
         <div><h2>Timings (s)</h2><table id=timings></table></div></div>\
         <h2>Sites</h2><table id=sites></table>\
         <h2>Rules</h2><table id=rules></table>\
         <h2>Pages</h2><div class=filters>\
         <label>site <select id=fSite></select></label>\
         <label>method <select id=fMethod></select></label>\
         <label>error <select id=fError></select></label>\
         <label>cluster <select id=fRole><option value=''>all</option><option value=main>main documents</option>\
         <option value=duplicate>duplicates</option><option value=none>not clustered</option></select></label>\
         <label>URL or title <input id=fQ type=search></label>\
         <span id=shown></span></div>\
         <div class=pager><button id=prev>‹ prev</button> <span id=pageNo></span> <button id=next>next ›</button></div>\
         <table id=pages></table>\
         <script type=application/json id=data>{data}</script><script>{JS}</script></body></html>\n",
        title = esc("thresher report"),
        broken = broken_rules(summary, health),
    )
}
