//! Which rules a site needs: one XPath set for all its pages when one selects the text
//! on most of them; otherwise (or when the pages it misses all sit under one directory
//! the others do not) one rule per layout, told apart by the first directory of the URL
//! path (`path_prefix`), or, where directories do not split them, by the shape of the
//! path (`path_glob`, `path_shapes.rs`). Each rule's content XPaths: the best candidate
//! (`candidates.rs`), then others added while each raises the mean F1 by at least
//! [`F1_STEP`](super::candidates::F1_STEP) (a headline outside the article's element).

use std::collections::BTreeMap;

use super::candidates::{best, candidates, Candidate, Score, F1_STEP};
use super::path_shapes;
use super::select;
use super::{PageData, SuggestOptions};
use crate::extract::xpath_fast::Plan;

/// Content XPaths of one rule at most (a headline, a lead, the body).
const MAX_CONTENT: usize = 3;
/// A layout of fewer pages gets no rule of its own.
const MIN_LAYOUT_PAGES: usize = 2;

/// The content XPaths chosen for some pages, and how they do there.
pub(super) struct Choice {
    pub(super) xpaths: Vec<Candidate>,
    pub(super) score: Score,
}

impl Choice {
    pub(super) fn plans(&self) -> Vec<&Plan> {
        self.xpaths.iter().map(|c| &c.plan).collect()
    }
}

/// One rule to draft: the pages of a layout and its content XPaths.
pub(super) struct Layout<'p, 'a> {
    pub(super) prefix: Option<String>,
    pub(super) glob: Option<String>,
    pub(super) pages: Vec<&'p PageData<'a>>,
    pub(super) choice: Choice,
}

/// The first directory of a URL path (`/news/` of `/news/a.html`), if any.
pub(super) fn first_dir(path: &str) -> Option<String> {
    let rest = path.strip_prefix('/')?;
    let end = rest.find('/')?;
    (end > 0).then(|| format!("/{}/", &rest[..end]))
}

/// The content XPaths for `pages`.
pub(super) fn choose(pages: &[&PageData], opts: &SuggestOptions) -> Option<Choice> {
    let cands = candidates(pages);
    let (first, score) = best(pages, &cands, opts.min_f1)?;
    let mut chosen = vec![first.clone()];
    let mut score = score;
    while chosen.len() < MAX_CONTENT {
        let plans: Vec<&Plan> = chosen.iter().map(|c| &c.plan).collect();
        let mut next: Option<(&Candidate, Score)> = None;
        for c in &cands {
            if chosen.iter().any(|x| x.xpath == c.xpath) {
                continue;
            }
            let mut with = plans.clone();
            with.push(&c.plan);
            // Text on a page where the XPaths so far select nothing is another layout's
            // element, not a part of this one's (a headline, a lead): layouts get rules
            // of their own.
            let elsewhere = pages.iter().any(|p| {
                let before = select::kept(p, &plans, &[]).map_or(0, |k| k.answer);
                let after = select::kept(p, &with, &[]).map_or(0, |k| k.answer);
                before == 0 && after > 0
            });
            if elsewhere {
                continue;
            }
            let s = Score::of(pages, &with, &[]);
            if s.mean() < score.mean() + F1_STEP
                || s.selected(opts.min_f1) < score.selected(opts.min_f1)
            {
                continue;
            }
            if next.as_ref().is_none_or(|(nc, ns)| {
                s.mean() > ns.mean() + F1_STEP / 2.0
                    || (s.mean() > ns.mean() - F1_STEP / 2.0 && c.cost < nc.cost)
            }) {
                next = Some((c, s));
            }
        }
        let Some((c, s)) = next else { break };
        chosen.push(c.clone());
        score = s;
    }
    // In document order, as a person lists them (the headline before the body): by the
    // first node each selects on the first page where all select something.
    if chosen.len() > 1 {
        if let Some(p) = pages
            .iter()
            .find(|p| chosen.iter().all(|c| !select::nodes(p, &c.plan).is_empty()))
        {
            chosen.sort_by_key(|c| select::nodes(p, &c.plan)[0]);
        }
    }
    Some(Choice {
        xpaths: chosen,
        score,
    })
}

fn share(choice: &Choice, n: usize, opts: &SuggestOptions) -> f64 {
    choice.score.selected(opts.min_f1) as f64 / n.max(1) as f64
}

/// Whether each layout's XPaths select the text on fewer than `min_share` of every
/// other layout's pages: the groups differ in layout, not only in path.
fn distinct(layouts: &[Layout], opts: &SuggestOptions) -> bool {
    layouts.iter().enumerate().all(|(i, l)| {
        let plans = l.choice.plans();
        layouts.iter().enumerate().all(|(j, other)| {
            i == j || {
                let s = Score::of(&other.pages, &plans, &[]);
                (s.selected(opts.min_f1) as f64) < opts.min_share * other.pages.len() as f64
            }
        })
    })
}

/// One rule per path shape with enough pages that agree on an XPath (`path_glob`, most
/// specific first); `None` unless they hold the text on `min_share` of the pages and
/// differ in layout.
fn by_shape<'p, 'a>(
    pages: &[&'p PageData<'a>],
    opts: &SuggestOptions,
) -> Option<Vec<Layout<'p, 'a>>> {
    let paths: Vec<&str> = pages.iter().map(|p| p.path.as_str()).collect();
    let mut out = Vec::new();
    let mut covered = 0;
    for (glob, members) in path_shapes::groups(&paths)? {
        if members.len() < MIN_LAYOUT_PAGES {
            continue;
        }
        let group: Vec<&PageData> = members.iter().map(|&i| pages[i]).collect();
        let Some(c) = choose(&group, opts) else {
            continue;
        };
        if share(&c, group.len(), opts) >= opts.min_share {
            covered += c.score.selected(opts.min_f1);
            out.push(Layout {
                prefix: None,
                glob: Some(glob),
                pages: group,
                choice: c,
            });
        }
    }
    (out.len() >= 2
        && covered as f64 >= opts.min_share * pages.len() as f64
        && distinct(&out, opts))
    .then_some(out)
}

/// The pages an XPath misses, when they all have one path shape: a rule of their own
/// with that glob before the rule of the others (which has no path condition).
fn split_missed<'p, 'a>(
    pages: &[&'p PageData<'a>],
    missed: &[usize],
    opts: &SuggestOptions,
) -> Option<Vec<Layout<'p, 'a>>> {
    let glob = path_shapes::shape(&pages[*missed.first()?].path)?;
    if missed
        .iter()
        .any(|&i| path_shapes::shape(&pages[i].path).as_ref() != Some(&glob))
    {
        return None;
    }
    let (inside, outside): (Vec<_>, Vec<_>) = pages
        .iter()
        .partition(|p| path_shapes::matches(&glob, &p.path));
    if inside.len() < MIN_LAYOUT_PAGES || outside.is_empty() {
        return None;
    }
    let out = split_pair(inside, outside, None, Some(glob), opts)?;
    distinct(&out, opts).then_some(out)
}

/// Two rules: one for the pages `inside` (under `prefix` or `glob`), then one with no
/// path condition for the pages `outside`, when each group has an XPath that selects its
/// text on `min_share` of its pages.
fn split_pair<'p, 'a>(
    inside: Vec<&'p PageData<'a>>,
    outside: Vec<&'p PageData<'a>>,
    prefix: Option<String>,
    glob: Option<String>,
    opts: &SuggestOptions,
) -> Option<Vec<Layout<'p, 'a>>> {
    let a = choose(&inside, opts)?;
    let b = choose(&outside, opts)?;
    if share(&a, inside.len(), opts) < opts.min_share
        || share(&b, outside.len(), opts) < opts.min_share
    {
        return None;
    }
    Some(vec![
        Layout {
            prefix,
            glob,
            pages: inside,
            choice: a,
        },
        Layout {
            prefix: None,
            glob: None,
            pages: outside,
            choice: b,
        },
    ])
}

/// The rules of a site, or why none can be drafted with confidence.
pub(super) fn layouts<'p, 'a>(
    pages: &[&'p PageData<'a>],
    opts: &SuggestOptions,
) -> Result<Vec<Layout<'p, 'a>>, String> {
    let n = pages.len();
    let whole = choose(pages, opts);
    if let Some(all) = &whole {
        if share(all, n, opts) >= opts.min_share {
            // Pages it misses, all under a directory none of the others is under: a
            // layout of their own.
            let missed: Vec<usize> = (0..n).filter(|&i| all.score.f1[i] < opts.min_f1).collect();
            let dirs: Vec<Option<String>> =
                missed.iter().map(|&i| first_dir(&pages[i].path)).collect();
            if missed.len() >= MIN_LAYOUT_PAGES && dirs.windows(2).all(|w| w[0] == w[1]) {
                if let Some(dir) = dirs[0].clone() {
                    let (inside, outside): (Vec<_>, Vec<_>) = pages
                        .iter()
                        .partition(|p| first_dir(&p.path).as_ref() == Some(&dir));
                    if let Some(split) = split_pair(inside, outside, Some(dir), None, opts) {
                        return Ok(split);
                    }
                }
            }
            // Missed pages of one path shape under several directories.
            if missed.len() >= MIN_LAYOUT_PAGES {
                if let Some(split) = split_missed(pages, &missed, opts) {
                    return Ok(split);
                }
            }
            let all = whole.expect("checked above");
            return Ok(vec![Layout {
                prefix: None,
                glob: None,
                pages: pages.to_vec(),
                choice: all,
            }]);
        }
    }
    // One rule per first directory, for directories with enough pages.
    let mut by_dir: BTreeMap<Option<String>, Vec<&'p PageData<'a>>> = BTreeMap::new();
    for p in pages {
        by_dir.entry(first_dir(&p.path)).or_default().push(p);
    }
    let mut out = Vec::new();
    let mut covered = 0;
    if by_dir.len() >= 2 {
        for (dir, group) in by_dir {
            let Some(dir) = dir else { continue };
            if group.len() < MIN_LAYOUT_PAGES {
                continue;
            }
            if let Some(c) = choose(&group, opts) {
                if share(&c, group.len(), opts) >= opts.min_share {
                    covered += c.score.selected(opts.min_f1);
                    out.push(Layout {
                        prefix: Some(dir),
                        glob: None,
                        pages: group,
                        choice: c,
                    });
                }
            }
        }
    }
    let by_dir = !out.is_empty() && covered as f64 / n as f64 >= opts.min_share;
    // Path shapes where directories do not split the pages, or leave more of them out.
    if let Some(shapes) = by_shape(pages, opts) {
        let on = |ls: &[Layout]| -> usize {
            ls.iter()
                .map(|l| l.choice.score.selected(opts.min_f1))
                .sum()
        };
        if !by_dir || on(&shapes) > covered {
            return Ok(shapes);
        }
    }
    if by_dir {
        return Ok(out);
    }
    Err(match whole {
        None => "no element of the pages holds the text thresher extracts".to_string(),
        Some(all) => format!(
            "no XPath selects the text on most pages: the best, `{}`, selects it on {} of {} (a rule needs {:.0}%), and neither the pages' directories nor their path shapes split them into layouts that each have one",
            all.xpaths[0].xpath,
            all.score.selected(opts.min_f1),
            n,
            opts.min_share * 100.0
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::first_dir;

    #[test]
    fn first_directory_of_a_path() {
        assert_eq!(first_dir("/news/a.html").as_deref(), Some("/news/"));
        assert_eq!(first_dir("/news/2024/a.html").as_deref(), Some("/news/"));
        assert_eq!(first_dir("/a.html"), None);
        assert_eq!(first_dir("//a"), None);
    }
}
