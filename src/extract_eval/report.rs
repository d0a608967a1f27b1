//! `eval extract`'s output: a text table for people (figures to 4 decimals, as the Python
//! scorers round them) or one JSON object per prediction file (full precision).

use std::fmt::Write;

use super::measures::Summary;
use super::Evaluation;

fn figures(s: &Summary) -> String {
    let mut out = format!(
        "n {:>5}  P {:.4}  R {:.4}  F1 {:.4}",
        s.n, s.precision, s.recall, s.f1
    );
    for (k, v) in &s.extra {
        if v.fract() == 0.0 && !k.ends_with("rate") && k != "accuracy" {
            let _ = write!(out, "  {k} {v}");
        } else {
            let _ = write!(out, "  {k} {v:.4}");
        }
    }
    out
}

/// The evaluation as text.
pub fn text(e: &Evaluation) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "gold {}  ({})", e.gold, e.measure);
    let _ = writeln!(out, "predictions {}", e.predictions);
    let _ = writeln!(out, "overall  {}", figures(&e.overall));
    let width = e
        .groups
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(0);
    for (g, s) in &e.groups {
        let _ = writeln!(out, "  {g:<width$}  {}", figures(s));
    }
    counted_line(
        &mut out,
        "missing",
        "(scored as empty)",
        e.missing,
        &e.missing_pages,
    );
    counted_line(
        &mut out,
        "extra records",
        "(no gold page)",
        e.extra,
        &e.extra_records,
    );
    if !e.worst.is_empty() {
        let _ = writeln!(out, "worst {} pages:", e.worst.len());
        for r in &e.worst {
            let _ = writeln!(
                out,
                "  F1 {:.4}  P {:.4}  R {:.4}  {}{}{}",
                r.f1,
                r.precision,
                r.recall,
                r.id,
                r.group
                    .as_ref()
                    .map(|g| format!("  [{g}]"))
                    .unwrap_or_default(),
                if r.missing { "  (no record)" } else { "" }
            );
        }
    }
    out
}

/// The evaluation as one line of JSON.
pub fn json(e: &Evaluation) -> String {
    serde_json::to_string(e).unwrap_or_default()
}

/// `LABEL N NOTE: name name …` and a newline: a count with the first names it stands for
/// (`…` when there are more than were kept).
fn counted_line(out: &mut String, label: &str, note: &str, n: usize, names: &[String]) {
    let _ = write!(out, "{label} {n} {note}");
    if n > 0 {
        let _ = write!(out, ": {}", names.join(" "));
        if n > names.len() {
            out.push_str(" …");
        }
    }
    out.push('\n');
}
