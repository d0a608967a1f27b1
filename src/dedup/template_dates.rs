//! Publication dates that a site's template repeats on every page (a theme's stale
//! `article:published_time`, a JSON-LD block copied into every page, a `<time>` in the
//! header) say nothing about which copy came first. Before clustering, such a date is
//! forgotten for the main-document order: the same timestamp with a time of day on
//! [`MIN_SHARED_INSTANT`] or more pages of one host, or one day on more than half of a
//! host's dated pages (at least [`MIN_PAGES_FOR_DAY`]). Pages published the same minute
//! on one site are rare; a day shared by most of a crawl's pages of a site is a template's.

use std::collections::HashMap;

use super::DocEntry;
use crate::choose_main::{DocMeta, Published};

/// Pages of one host sharing one timestamp (with time of day) that make it a template's.
/// Hand-set: two articles can share a minute; three with the same second do not.
pub const MIN_SHARED_INSTANT: usize = 3;
/// Dated pages a host needs before a day shared by most of them is a template's.
pub const MIN_PAGES_FOR_DAY: usize = 5;

fn host(doc: &DocEntry) -> &str {
    host_of(&doc.meta)
}

fn host_of(meta: &DocMeta) -> &str {
    let k = meta.url_key.as_deref().unwrap_or("");
    k.split(['/', '?']).next().unwrap_or(k)
}

/// Whether a date is a template's, given how many pages of its host carry its instant
/// (0 without one), its day, and any date.
pub fn is_template(p: &Published, same_instant: usize, same_day: usize, dated: usize) -> bool {
    let by_instant = p.instant.is_some() && same_instant >= MIN_SHARED_INSTANT;
    let by_day = dated >= MIN_PAGES_FOR_DAY && same_day * 2 > dated;
    by_instant || by_day
}

/// The counters a document's date adds one to, for a store that keeps them across
/// batches (`index/`): `[host's dated pages, host's day, host's instant]` (the last only
/// with an instant). Empty for an undated document.
pub fn count_keys(meta: &DocMeta) -> Vec<String> {
    let Some(p) = &meta.published else {
        return Vec::new();
    };
    let h = host_of(meta);
    let mut keys = vec![format!("n {h}"), format!("d {h} {}", p.date)];
    if let Some(t) = p.instant {
        keys.push(format!("i {h} {}", t.timestamp()));
    }
    keys
}

/// Clear the `published` of documents whose date is their site template's. Returns how
/// many were cleared.
pub fn forget_template_dates(docs: &mut [DocEntry]) -> usize {
    let mut instants: HashMap<(&str, i64), usize> = HashMap::new();
    let mut days: HashMap<(&str, chrono::NaiveDate), usize> = HashMap::new();
    let mut dated: HashMap<&str, usize> = HashMap::new();
    for d in docs.iter() {
        if let Some(p) = &d.meta.published {
            *dated.entry(host(d)).or_default() += 1;
            *days.entry((host(d), p.date)).or_default() += 1;
            if let Some(t) = p.instant {
                *instants.entry((host(d), t.timestamp())).or_default() += 1;
            }
        }
    }
    let forget: Vec<bool> = docs
        .iter()
        .map(|d| {
            let Some(p) = &d.meta.published else {
                return false;
            };
            let h = host(d);
            let same_instant = p.instant.map_or(0, |t| instants[&(h, t.timestamp())]);
            is_template(p, same_instant, days[&(h, p.date)], dated[h])
        })
        .collect();
    let mut cleared = 0;
    for (d, f) in docs.iter_mut().zip(forget) {
        if f {
            d.meta.published = None;
            cleared += 1;
        }
    }
    cleared
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(url: &str, published: &str) -> DocEntry {
        DocEntry {
            meta: DocMeta {
                key: url.into(),
                url_key: Some(url.into()),
                published: Published::parse(published),
                ..DocMeta::default()
            },
            signature: None,
        }
    }

    #[test]
    fn a_timestamp_on_three_pages_of_a_site_is_forgotten() {
        let mut docs = vec![
            doc("a.com/1", "2018-06-26T22:49:50+00:00"),
            doc("a.com/2", "2018-06-26T22:49:50+00:00"),
            doc("a.com/3", "2018-06-26T22:49:50+00:00"),
            doc("a.com/4", "2024-01-02T10:00:00+00:00"),
            doc("b.com/1", "2018-06-26T22:49:50+00:00"),
            doc("b.com/2", "2024-01-02"),
        ];
        assert_eq!(forget_template_dates(&mut docs), 3);
        assert!(docs[3].meta.published.is_some() && docs[4].meta.published.is_some());
    }

    #[test]
    fn a_day_on_most_pages_of_a_site_is_forgotten_a_busy_day_is_not() {
        let days = [
            "2024-01-02",
            "2024-01-02",
            "2024-01-02",
            "2024-01-05",
            "2024-01-06",
        ];
        let mut docs: Vec<DocEntry> = days
            .iter()
            .enumerate()
            .map(|(i, d)| doc(&format!("a.com/{i}"), d))
            .collect();
        assert_eq!(forget_template_dates(&mut docs), 3);
        let days = [
            "2024-01-02",
            "2024-01-02",
            "2024-01-04",
            "2024-01-05",
            "2024-01-06",
        ];
        let mut docs: Vec<DocEntry> = days
            .iter()
            .enumerate()
            .map(|(i, d)| doc(&format!("a.com/{i}"), d))
            .collect();
        assert_eq!(forget_template_dates(&mut docs), 0);
    }
}
