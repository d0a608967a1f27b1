//! A page view as a self-contained HTML file (inline CSS and a few lines of script): the
//! page's facts, why earlier methods did not answer, its duplicate cluster with the main
//! document and why it was chosen, and its blocks, kept and removed in two colours, each
//! removed block labelled with its reason.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::view::PageView;

/// The page's near-duplicate cluster, as `clusters.jsonl` tells it.
#[derive(Debug, Clone, Default)]
pub struct ClusterView {
    pub id: String,
    pub main: String,
    /// Why the main document was chosen (`earliest fetched_at …`).
    pub reason: String,
    /// Members: path, similarity to the main, link to its view.
    pub members: Vec<(String, Option<f64>, Option<String>)>,
}

pub(super) const CSS: &str = include_str!("assets/report.css");

/// Escape text for HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The whole HTML file. `back` links to the report's index (none for `rules try`).
pub fn render(view: &PageView, cluster: Option<&ClusterView>, back: Option<&str>) -> String {
    let mut h = String::with_capacity(4096 + view.blocks.len() * 160);
    let title = if view.title.is_empty() {
        &view.url
    } else {
        &view.title
    };
    let _ = write!(
        h,
        "<!doctype html><html lang=en><head><meta charset=utf-8>\
         <meta name=viewport content='width=device-width, initial-scale=1'>\
         <title>{}</title><style>{CSS}</style></head><body class=pageview>",
        esc(title)
    );
    if let Some(b) = back {
        let _ = write!(h, "<nav><a id=back href='{}'>← report</a></nav>", esc(b));
    }
    let _ = write!(h, "<h1>{}</h1><dl class=facts>", esc(title));
    let kept = view.blocks.iter().filter(|b| b.kept).count();
    let facts: Vec<(&str, String)> = vec![
        ("URL", view.url.clone()),
        ("path", view.path.clone()),
        ("method", view.method.clone()),
        ("kept words", view.kept_words.to_string()),
        (
            "blocks",
            format!("{} kept, {} removed", kept, view.blocks.len() - kept),
        ),
        (
            "template share",
            view.template_ratio
                .map(|r| format!("{r:.3}"))
                .unwrap_or_default(),
        ),
        ("container", view.container.clone().unwrap_or_default()),
        ("marks in use", view.pass.unwrap_or_default().to_string()),
        (
            "empty because",
            view.empty_reason.clone().unwrap_or_default(),
        ),
    ];
    for (k, v) in facts.iter().filter(|(_, v)| !v.is_empty()) {
        let _ = write!(h, "<dt>{k}</dt><dd data-fact='{k}'>{}</dd>", esc(v));
    }
    h.push_str("</dl>");
    if !view.notes.is_empty() {
        h.push_str("<section class=notes><h2>Cascade</h2><ul>");
        for n in &view.notes {
            let _ = write!(h, "<li>{}</li>", esc(n));
        }
        h.push_str("</ul></section>");
    }
    if let Some(c) = cluster {
        render_cluster(&mut h, c, &view.path);
    }
    render_reasons(&mut h, view);
    h.push_str(
        "<p class=legend><span class='chip kept'>kept</span> <span class='chip removed'>removed</span> \
         <label><input type=checkbox id=onlyRemoved> only removed blocks</label></p><ol id=blocks class=blocks>",
    );
    for b in &view.blocks {
        let (class, kind) = match &b.reason {
            None => ("kept", ""),
            Some(r) => ("removed", r.kind),
        };
        let _ = write!(
            h,
            "<li class='b {class}' data-kind='{kind}'><span class=tag>{}</span>",
            esc(&b.tag)
        );
        if let Some(r) = &b.reason {
            let _ = write!(h, "<span class='why k-{}'>{}</span>", r.kind, esc(&r.label));
        }
        if let Some(v) = b.value {
            let _ = write!(
                h,
                "<span class=v title='block value in the chosen pass'>{v:+.1}</span>"
            );
        }
        let _ = write!(h, "<div class=t>{}</div></li>", esc(&b.text));
    }
    h.push_str(
        "</ol><script>document.getElementById('onlyRemoved').addEventListener('change',e=>\
         document.getElementById('blocks').classList.toggle('only-removed',e.target.checked));</script>\
         </body></html>\n",
    );
    h
}

fn render_cluster(h: &mut String, c: &ClusterView, path: &str) {
    let role = if c.main == path {
        "this page is the cluster's main document"
    } else {
        "this page is a duplicate"
    };
    let _ = write!(
        h,
        "<section class=cluster id=cluster><h2>Duplicate cluster {}</h2><p>{role}; main: <b>{}</b> — {}</p><table><tr><th>member</th><th>similarity to main</th></tr>",
        esc(&c.id),
        esc(&c.main),
        esc(&c.reason)
    );
    for (m, sim, href) in &c.members {
        let name = match href {
            Some(href) => format!("<a href='{}'>{}</a>", esc(href), esc(m)),
            None => esc(m),
        };
        let mark = if m == &c.main { " (main)" } else { "" };
        let _ = write!(
            h,
            "<tr><td>{name}{mark}</td><td>{}</td></tr>",
            sim.map(|s| format!("{s:.3}")).unwrap_or_default()
        );
    }
    h.push_str("</table></section>");
}

/// Removed blocks and words by reason kind, the page's summary of what went where.
fn render_reasons(h: &mut String, view: &PageView) {
    let mut by: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for b in &view.blocks {
        if let Some(r) = &b.reason {
            let e = by.entry(r.kind).or_default();
            e.0 += 1;
            e.1 += b.text.split_whitespace().count();
        }
    }
    if by.is_empty() {
        return;
    }
    h.push_str("<p class=reasons>removed: ");
    for (k, (blocks, words)) in by {
        let _ = write!(
            h,
            "<span class='chip k-{k}'>{k}: {blocks} blocks, {words} words</span> "
        );
    }
    h.push_str("</p>");
}
