//! Choosing the main document of a duplicate cluster (algorithms.md §5): the one published
//! first (the original; syndicated copies come later), then the one that appeared first
//! (fetch time), then the one from the more popular resource, then the one with less
//! boilerplate; the document key breaks remaining ties so the choice never depends on
//! input order. Each choice comes with the reason that decided it.

use std::cmp::Ordering;
use std::str::FromStr;

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};

/// What is known about a document when choosing a main one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DocMeta {
    pub key: String,
    pub fetched_at: Option<DateTime<Utc>>,
    pub popularity: f64,
    pub boilerplate_ratio: f64,
    /// Publication date (the record's `published`).
    pub published: Option<Published>,
    /// The canonical URL, normalized as a dedup key (`dedup::canonical`): documents
    /// sharing one are the same document. Not a main-order criterion.
    pub canonical: Option<String>,
    /// The document's own URL, normalized the same way (it may be another's canonical).
    pub url_key: Option<String>,
}

/// A publication date as records carry it (ISO 8601): the day as written, and the
/// instant when the source gave a time with an offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Published {
    pub date: NaiveDate,
    pub instant: Option<DateTime<Utc>>,
}

impl Published {
    /// `2011-11-09`, `2011-11-09T14:35:00+02:00`, `2011-11-09T14:35:00` (no offset: the
    /// day only counts). `None` for anything else.
    pub fn parse(s: &str) -> Option<Published> {
        let s = s.trim();
        if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
            return Some(Published {
                date: dt.date_naive(),
                instant: Some(dt.with_timezone(&Utc)),
            });
        }
        let date = NaiveDate::parse_from_str(s.get(..10)?, "%Y-%m-%d").ok()?;
        Some(Published {
            date,
            instant: None,
        })
    }

    /// Earlier first. The key is (day, instant): the UTC day of an instant, the day as
    /// written for a date alone; on one day, dates with a time come before the date alone
    /// (which may be any hour of it), and two dates alone are a tie, left to the next
    /// criterion. A key, not "compare instants when both have one", because sorting needs
    /// a total order (that rule is not transitive across a date-only document).
    pub fn cmp_time(&self, other: &Published) -> Ordering {
        let key = |p: &Published| {
            (
                p.instant.map_or(p.date, |t| t.date_naive()),
                p.instant.map_or(i64::MAX, |t| t.timestamp()),
            )
        };
        key(self).cmp(&key(other))
    }

    fn show(&self) -> String {
        match self.instant {
            Some(t) => t.to_rfc3339_opts(SecondsFormat::Secs, true),
            None => self.date.format("%Y-%m-%d").to_string(),
        }
    }
}

/// One criterion of the main-document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Criterion {
    /// Earliest `published` first (documents without one come last).
    Published,
    /// Earliest `fetched_at` first (documents without one come last).
    FetchedAt,
    /// Higher popularity first.
    Popularity,
    /// Lower boilerplate ratio first.
    Boilerplate,
}

impl FromStr for Criterion {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "published" => Ok(Criterion::Published),
            "fetched_at" | "age" => Ok(Criterion::FetchedAt),
            "popularity" => Ok(Criterion::Popularity),
            "boilerplate" | "boilerplate_ratio" => Ok(Criterion::Boilerplate),
            _ => Err(format!(
                "unknown main-document criterion `{s}` (published, fetched_at, popularity, boilerplate)"
            )),
        }
    }
}

/// The order of criteria; the default is the design's, with the publication date first
/// (the oldest published copy is the original; fetch time when dates are unknown or equal).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct MainOrder(pub Vec<Criterion>);

impl Default for MainOrder {
    fn default() -> Self {
        MainOrder(vec![
            Criterion::Published,
            Criterion::FetchedAt,
            Criterion::Popularity,
            Criterion::Boilerplate,
        ])
    }
}

impl FromStr for MainOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        s.split(',')
            .map(|c| c.trim().parse())
            .collect::<Result<_, _>>()
            .map(MainOrder)
    }
}

fn compare_by(c: Criterion, a: &DocMeta, b: &DocMeta) -> Ordering {
    match c {
        Criterion::Published => match (&a.published, &b.published) {
            (Some(x), Some(y)) => x.cmp_time(y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        },
        Criterion::FetchedAt => match (a.fetched_at, b.fetched_at) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        },
        Criterion::Popularity => b.popularity.total_cmp(&a.popularity),
        Criterion::Boilerplate => a.boilerplate_ratio.total_cmp(&b.boilerplate_ratio),
    }
}

impl MainOrder {
    /// Total order: better main candidates first.
    pub fn compare(&self, a: &DocMeta, b: &DocMeta) -> Ordering {
        self.compare_criteria(a, b).then_with(|| a.key.cmp(&b.key))
    }

    /// The configured criteria alone (`Equal` when none separates the two).
    pub fn compare_criteria(&self, a: &DocMeta, b: &DocMeta) -> Ordering {
        self.0
            .iter()
            .map(|&c| compare_by(c, a, b))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }

    /// Index of the main document among `docs` (non-empty) and the reason.
    pub fn choose(&self, docs: &[&DocMeta]) -> (usize, String) {
        let mut best = 0;
        for i in 1..docs.len() {
            if self.compare(docs[i], docs[best]).is_lt() {
                best = i;
            }
        }
        let winner = docs[best];
        // The runner-up shows which criterion decided.
        let runner_up = (0..docs.len())
            .filter(|&i| i != best)
            .min_by(|&x, &y| self.compare(docs[x], docs[y]));
        let reason = match runner_up {
            None => "only member".to_string(),
            Some(r) => {
                let other = docs[r];
                let decided = self
                    .0
                    .iter()
                    .find(|&&c| compare_by(c, winner, other).is_ne());
                // Publication dates looked at before the deciding key and equal: say so.
                let same_published = match (decided, &winner.published) {
                    (Some(c), Some(p))
                        if *c != Criterion::Published
                            && self
                                .0
                                .iter()
                                .take_while(|&&x| x != *c)
                                .any(|&x| x == Criterion::Published) =>
                    {
                        format!("same published {}; ", p.show())
                    }
                    _ => String::new(),
                };
                let reason = match decided {
                    Some(Criterion::Published) => format!(
                        "earliest published {} (next {})",
                        winner.published.map(|p| p.show()).unwrap_or_default(),
                        other
                            .published
                            .map(|p| p.show())
                            .unwrap_or_else(|| "unknown".into())
                    ),
                    Some(Criterion::FetchedAt) => format!(
                        "earliest fetched_at {}",
                        winner
                            .fetched_at
                            .map(|t| t.to_rfc3339_opts(SecondsFormat::Secs, true))
                            .unwrap_or_default()
                    ),
                    Some(Criterion::Popularity) => format!(
                        "same fetched_at; higher popularity {} (next {})",
                        winner.popularity, other.popularity
                    ),
                    Some(Criterion::Boilerplate) => format!(
                        "less boilerplate {:.3} (next {:.3})",
                        winner.boilerplate_ratio, other.boilerplate_ratio
                    ),
                    None => "all criteria equal; smallest key".to_string(),
                };
                same_published + &reason
            }
        };
        (best, reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(key: &str, t: &str, pop: f64, bp: f64) -> DocMeta {
        DocMeta {
            key: key.into(),
            fetched_at: Some(t.parse().unwrap()),
            popularity: pop,
            boilerplate_ratio: bp,
            ..DocMeta::default()
        }
    }

    #[test]
    fn oldest_published_wins_then_fetch_time() {
        let mut a = doc("a", "2025-01-01T00:00:00Z", 0.0, 0.0);
        let mut b = doc("b", "2025-01-05T00:00:00Z", 0.0, 0.0);
        a.published = Published::parse("2024-12-20");
        b.published = Published::parse("2024-12-10T09:00:00+02:00");
        let order = MainOrder::default();
        let (i, reason) = order.choose(&[&a, &b]);
        assert_eq!(i, 1, "{reason}");
        assert_eq!(
            reason,
            "earliest published 2024-12-10T07:00:00Z (next 2024-12-20)"
        );
        // Without a date the dated copy still wins.
        a.published = None;
        let (i, reason) = order.choose(&[&a, &b]);
        assert_eq!(i, 1);
        assert!(reason.ends_with("(next unknown)"), "{reason}");
        // Same day, neither with a time: a tie on published; fetch time decides.
        a.published = Published::parse("2024-12-10");
        b.published = Published::parse("2024-12-10");
        let (i, reason) = order.choose(&[&a, &b]);
        assert_eq!(i, 0);
        assert_eq!(
            reason,
            "same published 2024-12-10; earliest fetched_at 2025-01-01T00:00:00Z"
        );
        // On one day, the date with a time comes first.
        b.published = Published::parse("2024-12-10T23:00:00Z");
        assert_eq!(order.choose(&[&a, &b]).0, 1);
        // Both with instants: the earlier instant, even when the written day is later.
        a.published = Published::parse("2024-12-11T01:00:00+09:00");
        b.published = Published::parse("2024-12-10T20:00:00Z");
        assert_eq!(order.choose(&[&a, &b]).0, 0);
        assert!("published,fetched_at".parse::<MainOrder>().is_ok());
        assert_eq!(Published::parse("soon"), None);
    }

    #[test]
    fn earliest_wins_then_popularity_then_boilerplate() {
        let a = doc("a", "2025-01-02T00:00:00Z", 1.0, 0.9);
        let b = doc("b", "2025-01-01T00:00:00Z", 0.0, 0.9);
        let c = doc("c", "2025-01-01T00:00:00Z", 5.0, 0.9);
        let order = MainOrder::default();
        let (i, reason) = order.choose(&[&a, &b]);
        assert_eq!(i, 1);
        assert_eq!(reason, "earliest fetched_at 2025-01-01T00:00:00Z");
        let (i, reason) = order.choose(&[&a, &b, &c]);
        assert_eq!(i, 2, "{reason}");
        assert!(reason.contains("popularity"));
        let d = doc("d", "2025-01-01T00:00:00Z", 5.0, 0.1);
        assert_eq!(order.choose(&[&c, &d]).0, 1);
    }

    #[test]
    fn order_is_configurable() {
        let order: MainOrder = "popularity,fetched_at".parse().unwrap();
        let a = doc("a", "2025-01-02T00:00:00Z", 9.0, 0.0);
        let b = doc("b", "2025-01-01T00:00:00Z", 1.0, 0.0);
        assert_eq!(order.choose(&[&b, &a]).0, 1);
        assert!("nope".parse::<MainOrder>().is_err());
    }
}
