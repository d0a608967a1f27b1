//! The three measures of the extraction benchmarks, per page and over pages, written
//! from `../shared/eval/score_extraction.py` operation for operation (same order of
//! divisions and the same special cases), so that the figures agree to the last digit.
//!
//! - **words** (WCXB; also CleanEval and plain-text gold here): the bag of lower-cased
//!   words of the prediction against the gold's; P, R and F1 per page, each averaged over
//!   pages (macro: the F1 is the mean of the pages' F1, not the F1 of the means).
//! - **shingles** (ScrapingHub): multisets of case-kept 4-word shingles; a page's true
//!   positives, false positives and false negatives normalised to sum 1; precision is the
//!   mean over pages with tp+fp > 0, recall over pages with tp+fn > 0, F1 of the two means.
//! - **snippets** (trafilatura's evaldata): each `with` snippet found in the
//!   whitespace-squashed text is a true positive (else a false negative), each `without`
//!   snippet found a false positive (else a true negative), counted over all pages.

use std::collections::HashMap;

use super::tokens::{lower_tokens, squash_space, words};

/// One page's outcome under its gold's measure.
#[derive(Debug, Clone, Copy)]
pub enum PageStat {
    Words {
        p: f64,
        r: f64,
        f1: f64,
        /// Shares of the gold's `with` snippets found and of `without` snippets found
        /// (WCXB only; 1.0 when the page has none, as WCXB's evaluate.py does).
        with_rate: Option<f64>,
        without_rate: Option<f64>,
    },
    Shingles {
        tp: f64,
        fp: f64,
        fn_: f64,
        /// The predicted word sequence equals the gold's (case kept).
        exact: bool,
    },
    Snippets {
        tp: usize,
        fp: usize,
        fn_: usize,
        tn: usize,
    },
}

/// P, R and F1 of a page, for listing the worst pages.
pub fn page_prf(s: &PageStat) -> (f64, f64, f64) {
    match *s {
        PageStat::Words { p, r, f1, .. } => (p, r, f1),
        PageStat::Shingles { tp, fp, fn_, .. } => {
            let (p, r) = (sh_precision(tp, fp, fn_), sh_recall(tp, fp, fn_));
            (
                p,
                r,
                if p + r > 0.0 {
                    2.0 * p * r / (p + r)
                } else {
                    0.0
                },
            )
        }
        PageStat::Snippets { tp, fp, fn_, .. } => {
            let p = if tp + fp > 0 {
                tp as f64 / (tp + fp) as f64
            } else {
                0.0
            };
            let r = if tp + fn_ > 0 {
                tp as f64 / (tp + fn_) as f64
            } else {
                0.0
            };
            let d = 2 * tp + fp + fn_;
            (
                p,
                r,
                if d > 0 {
                    2.0 * tp as f64 / d as f64
                } else {
                    0.0
                },
            )
        }
    }
}

fn bag<T: std::hash::Hash + Eq>(items: impl IntoIterator<Item = T>) -> HashMap<T, usize> {
    let mut m = HashMap::new();
    for t in items {
        *m.entry(t).or_insert(0) += 1;
    }
    m
}

/// Size of the multiset intersection.
fn overlap<T: std::hash::Hash + Eq>(a: &HashMap<T, usize>, b: &HashMap<T, usize>) -> usize {
    a.iter()
        .map(|(k, n)| (*n).min(*b.get(k).unwrap_or(&0)))
        .sum()
}

/// WCXB's `word_prf`: bag-of-words P/R/F1 of `pred` against `gold`.
pub fn word_prf(pred: &str, gold: &str, chinese: bool) -> (f64, f64, f64) {
    let (pt, rt) = (lower_tokens(pred, chinese), lower_tokens(gold, chinese));
    if rt.is_empty() {
        return if pt.is_empty() {
            (1.0, 1.0, 1.0)
        } else {
            (0.0, 0.0, 0.0)
        };
    }
    if pt.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let ov = overlap(&bag(pt.iter()), &bag(rt.iter())) as f64;
    let (p, r) = (ov / pt.len() as f64, ov / rt.len() as f64);
    (
        p,
        r,
        if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        },
    )
}

/// WCXB's snippet rate: the share of `snippets` found (lower-cased substring) in `text`;
/// 1.0 without snippets.
pub fn snippet_rate(snippets: &[String], text: &str) -> f64 {
    if snippets.is_empty() {
        return 1.0;
    }
    let low = text.to_lowercase();
    let found = snippets
        .iter()
        .filter(|s| low.contains(&s.to_lowercase()))
        .count();
    found as f64 / snippets.len() as f64
}

/// ScrapingHub's shingles: every run of 4 words, or the whole sequence when shorter
/// (none for no words).
fn shingles(text: &str) -> HashMap<Vec<&str>, usize> {
    let toks = words(text);
    if toks.is_empty() {
        return HashMap::new();
    }
    let count = toks.len().saturating_sub(3).max(1);
    bag((0..count).map(|i| toks[i..(i + 4).min(toks.len())].to_vec()))
}

/// ScrapingHub's per-page outcome of `pred` against `gold`.
pub fn shingle_stat(pred: &str, gold: &str) -> PageStat {
    let (t, p) = (shingles(gold), shingles(pred));
    let tp = overlap(&t, &p);
    let fp = p.values().sum::<usize>() - tp;
    let fn_ = t.values().sum::<usize>() - tp;
    let s = (tp + fp + fn_) as f64;
    let (tp, fp, fn_) = if s > 0.0 {
        (tp as f64 / s, fp as f64 / s, fn_ as f64 / s)
    } else {
        (0.0, 0.0, 0.0)
    };
    PageStat::Shingles {
        tp,
        fp,
        fn_,
        exact: words(gold) == words(pred),
    }
}

fn sh_precision(tp: f64, fp: f64, fn_: f64) -> f64 {
    if fp == 0.0 && fn_ == 0.0 {
        1.0
    } else if tp == 0.0 && fp == 0.0 {
        0.0
    } else {
        tp / (tp + fp)
    }
}

fn sh_recall(tp: f64, fp: f64, fn_: f64) -> f64 {
    if fp == 0.0 && fn_ == 0.0 {
        1.0
    } else if tp == 0.0 && fn_ == 0.0 {
        0.0
    } else {
        tp / (tp + fn_)
    }
}

/// trafilatura's snippet test of one page; `pred` None is a page without a record
/// (nothing found).
pub fn snippet_stat(pred: Option<&str>, with: &[String], without: &[String]) -> PageStat {
    let (a, b) = match pred {
        None => (0, 0),
        Some(text) => {
            let r = squash_space(text);
            let found = |s: &[String]| s.iter().filter(|w| r.contains(&squash_space(w))).count();
            (found(with), found(without))
        }
    };
    PageStat::Snippets {
        tp: a,
        fp: b,
        fn_: with.len() - a,
        tn: without.len() - b,
    }
}

/// Figures over a set of pages: `precision`, `recall`, `f1`, and the measure's own
/// (`accuracy`, `with_rate`, `without_rate`, `tp`…).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Summary {
    pub n: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    #[serde(flatten)]
    pub extra: std::collections::BTreeMap<String, f64>,
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (mut s, mut n) = (0.0, 0usize);
    for x in v {
        s += x;
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        s / n as f64
    }
}

/// Aggregates pages that share one measure (all of one gold file).
pub fn summarize(stats: &[&PageStat]) -> Summary {
    let mut out = Summary {
        n: stats.len(),
        ..Summary::default()
    };
    let Some(first) = stats.first() else {
        return out;
    };
    match first {
        PageStat::Words { with_rate, .. } => {
            let col = |i: usize| {
                mean(stats.iter().map(|s| match s {
                    PageStat::Words { p, r, f1, .. } => [*p, *r, *f1][i],
                    _ => 0.0,
                }))
            };
            (out.precision, out.recall, out.f1) = (col(0), col(1), col(2));
            if with_rate.is_some() {
                for (key, pick_with) in [("with_rate", true), ("without_rate", false)] {
                    let v = mean(stats.iter().map(|s| match s {
                        PageStat::Words {
                            with_rate: Some(w),
                            without_rate: Some(wo),
                            ..
                        } => {
                            if pick_with {
                                *w
                            } else {
                                *wo
                            }
                        }
                        _ => 1.0,
                    }));
                    out.extra.insert(key.to_string(), v);
                }
            }
        }
        PageStat::Shingles { .. } => {
            let rows: Vec<(f64, f64, f64, bool)> = stats
                .iter()
                .filter_map(|s| match s {
                    PageStat::Shingles { tp, fp, fn_, exact } => Some((*tp, *fp, *fn_, *exact)),
                    _ => None,
                })
                .collect();
            out.precision = mean(
                rows.iter()
                    .filter(|x| x.0 + x.1 > 0.0)
                    .map(|x| sh_precision(x.0, x.1, x.2)),
            );
            out.recall = mean(
                rows.iter()
                    .filter(|x| x.0 + x.2 > 0.0)
                    .map(|x| sh_recall(x.0, x.1, x.2)),
            );
            let (p, r) = (out.precision, out.recall);
            out.f1 = if p + r > 0.0 {
                2.0 * p * r / (p + r)
            } else {
                0.0
            };
            let acc = mean(rows.iter().map(|x| if x.3 { 1.0 } else { 0.0 }));
            out.extra.insert("accuracy".into(), acc);
        }
        PageStat::Snippets { .. } => {
            let (mut tp, mut fp, mut fn_, mut tn) = (0, 0, 0, 0);
            for s in stats {
                if let PageStat::Snippets {
                    tp: a,
                    fp: b,
                    fn_: c,
                    tn: d,
                } = s
                {
                    (tp, fp, fn_, tn) = (tp + a, fp + b, fn_ + c, tn + d);
                }
            }
            let f = |a: usize, b: usize| if b > 0 { a as f64 / b as f64 } else { 0.0 };
            out.precision = f(tp, tp + fp);
            out.recall = f(tp, tp + fn_);
            out.f1 = f(2 * tp, 2 * tp + fp + fn_);
            out.extra
                .insert("accuracy".into(), f(tp + tn, tp + tn + fp + fn_));
            for (k, v) in [("tp", tp), ("fp", fp), ("fn", fn_), ("tn", tn)] {
                out.extra.insert(k.into(), v as f64);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_measure_special_cases() {
        assert_eq!(word_prf("", "", false), (1.0, 1.0, 1.0));
        assert_eq!(word_prf("a", "", false), (0.0, 0.0, 0.0));
        assert_eq!(word_prf("", "a", false), (0.0, 0.0, 0.0));
        let (p, r, f) = word_prf("A b b", "a b c", false);
        assert_eq!((p, r), (2.0 / 3.0, 2.0 / 3.0));
        assert!((f - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn short_texts_make_one_shingle() {
        let PageStat::Shingles { tp, fp, fn_, exact } = shingle_stat("a b", "a b") else {
            unreachable!()
        };
        assert_eq!((tp, fp, fn_, exact), (1.0, 0.0, 0.0, true));
        let PageStat::Shingles { tp, fp, fn_, .. } = shingle_stat("", "") else {
            unreachable!()
        };
        assert_eq!((tp, fp, fn_), (0.0, 0.0, 0.0));
    }

    #[test]
    fn snippets_counted_over_pages() {
        let w = vec!["two  words".to_string(), "absent".into()];
        let wo = vec!["menu".to_string()];
        let a = snippet_stat(Some("two words\nmenu"), &w, &wo);
        let b = snippet_stat(None, &w, &wo);
        let s = summarize(&[&a, &b]);
        assert_eq!(
            (s.extra["tp"], s.extra["fp"], s.extra["fn"]),
            (1.0, 1.0, 3.0)
        );
        assert!((s.f1 - 2.0 / 6.0).abs() < 1e-12);
    }
}
