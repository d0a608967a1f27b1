//! What style-inbreeding compares across pages: each text block's element path and the
//! block's normalized text, as hashes; and per page, the profile the learning pass keeps
//! (its distinct (path, text) keys and, per path, how many blocks and whether they are a
//! link column).

use serde::{Deserialize, Serialize};

use crate::extract::cross_page;
use crate::extract::dom::{PageDom, NO_ELEM};
use crate::extract::heuristic::HeuristicConfig;

use super::InbreedingConfig;

/// How many elements, from a block's own element up, name their class kind in the
/// block's path; the ancestors above name only their tag. Site-wide wrappers high up
/// often carry a per-section class (BBC's `<div class="edinburgh-east-and-fife">`), which
/// would make every path of two sections differ. Measured on daniel-dev with its
/// manifest (word F1, the other knobs at their defaults): tags only 0.8852, 1 level
/// 0.8852, 2 levels 0.8853, 3 levels 0.8845, 4 levels 0.8840, every level 0.8832. 2 keeps
/// a list item's class and its list's, to tell a menu's items from a teaser list's.
pub const PATH_CLASS_LEVELS: usize = 2;

/// A block's lines (its text between line breaks) of at least `sentence_min_words` words
/// (`InbreedingConfig`), as keys of their normalized text alone, wherever they sit, and
/// the words of its other lines. A sentence this long on most pages of a group is the
/// site's (a "follow us on Facebook" line, a disclaimer), also where the pages nest it
/// differently (a block of its own on some pages, a line of a longer block on others); a
/// shorter line ("Read more", a section's name) says what it means only in its place.
/// A line's words are the block's words in proportion to the line's letters (the page's
/// word count is per script; no second tokenizer).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sentences {
    pub keys: Vec<u64>,
    /// Words in the lines that are keys.
    pub long_words: u32,
    /// Words in the other lines.
    pub short_words: u32,
}

impl Sentences {
    /// The sentences of at least `min_words` (none when 0) of a block of `words` words
    /// with text `text` (`scratch` reused).
    fn of(text: &str, words: u32, min_words: u32, scratch: &mut String) -> Sentences {
        let letters = |t: &str| t.chars().filter(|c| c.is_alphabetic()).count() as u64;
        let all = letters(text).max(1);
        let mut out = Sentences::default();
        for line in text.split('\n') {
            let w = (words as u64 * letters(line) / all) as u32;
            if min_words > 0 && w >= min_words {
                normalized_text(line, scratch);
                out.keys.push(sentence_key(scratch));
                out.long_words += w;
            } else {
                out.short_words += w;
            }
        }
        out
    }
}

/// The key of a normalized text alone: a hash with a seed no path has in practice, so it
/// never equals a (path, text) key.
fn sentence_key(normalized: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(normalized.as_bytes(), u64::MAX)
}

/// The path and (path, text) keys of every block of a page, in block order.
#[derive(Debug, Clone, Default)]
pub struct BlockKeys {
    /// Per block: hash of the tag names of its block-level ancestors, from the root down
    /// to its own element, and the kinds (`Element::sig`: tag name and the class token
    /// naming the kind) of the nearest [`PATH_CLASS_LEVELS`] of them.
    pub path: Vec<u64>,
    /// Per block: hash of its path and its normalized text ([`normalized_text`]).
    pub pair: Vec<u64>,
    /// Per block: its long lines as keys of their text alone (`Sentences`).
    pub sentences: Vec<Sentences>,
    /// Per block: it sits in a link column, i.e. the element around its own (its
    /// element's parent: the list around a list item, the teaser around its title) is
    /// mostly link words. A teaser's linked title beside its blurb is not.
    pub in_link_column: Vec<bool>,
    /// Per block: mostly link words itself.
    pub link_dense: Vec<bool>,
}

impl BlockKeys {
    /// Keys of `dom`'s blocks; link columns by `config.max_link_density`, sentences of
    /// at least `config.sentence_min_words` (none when 0).
    pub fn of(dom: &PageDom, config: &InbreedingConfig) -> BlockKeys {
        let max_link_density = config.max_link_density;
        let mut tag_path = vec![0u64; dom.elements.len()];
        let mut elem_path = vec![0u64; dom.elements.len()];
        for (i, e) in dom.elements.iter().enumerate() {
            let parent = if e.parent == NO_ELEM {
                0
            } else {
                tag_path[e.parent as usize]
            };
            tag_path[i] = xxhash_rust::xxh3::xxh3_64_with_seed(e.tag.as_bytes(), parent);
            let mut h = tag_path[i];
            let mut a = i as u32;
            for _ in 0..PATH_CLASS_LEVELS {
                if a == NO_ELEM {
                    break;
                }
                let el = &dom.elements[a as usize];
                h = xxhash_rust::xxh3::xxh3_64_with_seed(&el.sig.to_le_bytes(), h);
                a = el.parent;
            }
            elem_path[i] = h;
        }
        let mut text = String::new();
        let (mut path, mut pair, mut sentences) = (Vec::new(), Vec::new(), Vec::new());
        for b in &dom.blocks {
            let p = elem_path.get(b.elem as usize).copied().unwrap_or(0);
            normalized_text(&b.text, &mut text);
            path.push(p);
            pair.push(xxhash_rust::xxh3::xxh3_64_with_seed(text.as_bytes(), p));
            sentences.push(Sentences::of(
                &b.text,
                b.words,
                config.sentence_min_words,
                &mut text,
            ));
        }
        let in_link_column = link_columns(dom, max_link_density);
        let link_dense = dom
            .blocks
            .iter()
            .map(|b| is_link_dense(b.words as u64, b.link_words as u64, max_link_density))
            .collect();
        BlockKeys {
            path,
            pair,
            sentences,
            in_link_column,
            link_dense,
        }
    }
}

/// Per block: whether the parent of its element (the element itself at the root) holds
/// mostly link words in its subtree.
fn link_columns(dom: &PageDom, max_link_density: f64) -> Vec<bool> {
    // Words and link words per element subtree: own blocks, then children into parents
    // (a parent comes before its children in document order).
    let mut words = vec![(0u64, 0u64); dom.elements.len()];
    for b in &dom.blocks {
        if let Some(w) = words.get_mut(b.elem as usize) {
            w.0 += b.words as u64;
            w.1 += b.link_words as u64;
        }
    }
    for i in (0..dom.elements.len()).rev() {
        let parent = dom.elements[i].parent;
        if parent != NO_ELEM {
            let (w, l) = words[i];
            words[parent as usize].0 += w;
            words[parent as usize].1 += l;
        }
    }
    dom.blocks
        .iter()
        .map(|b| {
            let Some(e) = dom.elements.get(b.elem as usize) else {
                return false;
            };
            let around = if e.parent == NO_ELEM {
                b.elem
            } else {
                e.parent
            };
            let (w, l) = words[around as usize];
            is_link_dense(w, l, max_link_density)
        })
        .collect()
}

/// `text` lower-cased, letters only, words separated by one space: digits, punctuation
/// and symbols go, so that "Comments (4)" and "Comments (12)", or a footer's year, are
/// one text on every page.
pub fn normalized_text(text: &str, out: &mut String) {
    out.clear();
    let mut gap = false;
    for c in text.chars() {
        if c.is_alphabetic() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
}

/// More than `max_link_density` of `words` are link words: a link column (menus,
/// "latest news", tag clouds) rather than text.
pub fn is_link_dense(words: u64, link_words: u64, max_link_density: f64) -> bool {
    words > 0 && link_words as f64 > max_link_density * words as f64
}

/// One path of a page: how many of the page's blocks have it and whether most of them
/// sit in link columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathStat {
    pub path: u64,
    pub blocks: u32,
    pub link_dense: bool,
}

/// What the learning pass keeps of a sampled page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Distinct (path, text) keys, sorted.
    pub pairs: Vec<u64>,
    /// Distinct sentence keys (`Sentences`), sorted.
    pub sentences: Vec<u64>,
    /// Distinct paths, sorted by path.
    pub paths: Vec<PathStat>,
    /// Distinct paths of the blocks the local heuristic kept as the page's text, sorted
    /// (`None` when the local answer was not asked for).
    pub kept_paths: Option<Vec<u64>>,
}

impl Profile {
    /// The profile of a page.
    pub fn of(dom: &PageDom, config: &InbreedingConfig) -> Profile {
        let keys = BlockKeys::of(dom, config);
        Profile::from_keys(&keys)
    }

    /// The profile of a page with the paths of the blocks the local heuristic keeps
    /// (`config`), so that the group can learn where its pages' text is.
    pub fn with_local(
        dom: &PageDom,
        inbreeding: &InbreedingConfig,
        config: &HeuristicConfig,
    ) -> Profile {
        let keys = BlockKeys::of(dom, inbreeding);
        let mut profile = Profile::from_keys(&keys);
        let kept = cross_page::local_kept(dom, config);
        let mut paths: Vec<u64> = keys
            .path
            .iter()
            .zip(&kept)
            .filter(|(_, &k)| k)
            .map(|(p, _)| *p)
            .collect();
        paths.sort_unstable();
        paths.dedup();
        profile.kept_paths = Some(paths);
        profile
    }

    /// The profile of a page whose keys are computed.
    pub fn from_keys(keys: &BlockKeys) -> Profile {
        let mut pairs = keys.pair.clone();
        pairs.sort_unstable();
        pairs.dedup();
        let mut sentences: Vec<u64> = keys
            .sentences
            .iter()
            .flat_map(|s| s.keys.iter())
            .copied()
            .collect();
        sentences.sort_unstable();
        sentences.dedup();
        let paths = path_stats(keys);
        Profile {
            pairs,
            sentences,
            paths,
            kept_paths: None,
        }
    }

    /// Number of blocks.
    pub fn blocks(&self) -> u64 {
        self.paths.iter().map(|p| p.blocks as u64).sum()
    }
}

/// Per distinct path of a page, its block count and whether most of its blocks sit in
/// link columns, sorted by path.
pub fn path_stats(keys: &BlockKeys) -> Vec<PathStat> {
    // (path, blocks, blocks in link columns)
    let mut acc: Vec<(u64, bool)> = keys
        .path
        .iter()
        .copied()
        .zip(keys.in_link_column.iter().copied())
        .collect();
    acc.sort_unstable_by_key(|a| a.0);
    let mut out: Vec<(PathStat, u32)> = Vec::new();
    for (p, in_column) in acc {
        match out.last_mut() {
            Some((last, columns)) if last.path == p => {
                last.blocks += 1;
                *columns += u32::from(in_column);
            }
            _ => out.push((
                PathStat {
                    path: p,
                    blocks: 1,
                    link_dense: false,
                },
                u32::from(in_column),
            )),
        }
    }
    out.into_iter()
        .map(|(mut stat, columns)| {
            stat.link_dense = columns * 2 > stat.blocks;
            stat
        })
        .collect()
}
