//! Word shingles (algorithms.md §3): runs of `length` consecutive normalized words,
//! starting every `offset` words, each hashed to 64 bits (xxh3) — or to CRC32 where a
//! design asks for it, knowing that 32-bit hashes collide beyond ~67,000 shingles.
//! A document's shingles are returned sorted and deduplicated, so that comparing two
//! documents is a merge.

use crate::normalize::Normalizer;

/// Hash width of shingles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShingleHash {
    #[default]
    Xxh3_64,
    Crc32,
}

/// Shingling parameters.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShingleConfig {
    /// Words per shingle.
    pub length: usize,
    /// Words between the starts of consecutive shingles (1 = every shingle).
    pub offset: usize,
    pub hash: ShingleHash,
}

impl Default for ShingleConfig {
    fn default() -> Self {
        ShingleConfig {
            length: 5,
            offset: 1,
            hash: ShingleHash::Xxh3_64,
        }
    }
}

/// The sorted, deduplicated shingle hashes of `text`. A text shorter than one shingle
/// yields one shingle of all its words; an empty text yields none.
pub fn shingles(normalizer: &Normalizer, text: &str, config: &ShingleConfig) -> Vec<u64> {
    let mut out = shingles_unsorted(normalizer, text, config);
    out.sort_unstable();
    out.dedup();
    out
}

/// The shingle hashes of `text` in text order, repeats included.
pub fn shingles_unsorted(normalizer: &Normalizer, text: &str, config: &ShingleConfig) -> Vec<u64> {
    let length = config.length.max(1);
    let offset = config.offset.max(1);
    let mut out = Vec::new();
    match config.hash {
        ShingleHash::Xxh3_64 => {
            let mut words: Vec<u64> = Vec::with_capacity(text.len() / 5);
            normalizer.for_each_token_bytes(text, |t| words.push(xxhash_rust::xxh3::xxh3_64(t)));
            out.reserve(words.len() / offset + 1);
            if offset == 1 && words.len() > length {
                rolling_combine(&words, length, &mut out);
            } else {
                for window in windows(words.len(), length, offset) {
                    out.push(combine(&words[window]));
                }
            }
        }
        ShingleHash::Crc32 => {
            let mut words: Vec<String> = Vec::new();
            normalizer.for_each_token(text, |t| words.push(t.to_string()));
            for window in windows(words.len(), length, offset) {
                let mut h = crc32fast::Hasher::new();
                for (i, w) in words[window].iter().enumerate() {
                    if i > 0 {
                        h.update(b" ");
                    }
                    h.update(w.as_bytes());
                }
                out.push(h.finalize() as u64);
            }
        }
    }
    out
}

/// The 64-bit hash of a shingle from its words' xxh3 hashes: a polynomial over the
/// word hashes (order matters); MinHash mixes it further.
#[inline]
fn combine(words: &[u64]) -> u64 {
    let mut h = words.len() as u64;
    for &w in words {
        h = h.wrapping_mul(0x9e3779b97f4a7c15).wrapping_add(w);
    }
    h
}

/// [`combine`] of every window of `length` consecutive words (`words.len() >= length`),
/// updated as the window slides: the polynomial loses its oldest word's term and gains
/// the new word, three operations a shingle instead of `length` multiply-adds. Wrapping
/// arithmetic is exact modulo 2^64, so the values are `combine`'s, bit for bit.
fn rolling_combine(words: &[u64], length: usize, out: &mut Vec<u64>) {
    const C: u64 = 0x9e3779b97f4a7c15;
    // combine(w) = length·C^length + Σ w[i]·C^(length-1-i).
    let base = (length as u64).wrapping_mul(C.wrapping_pow(length as u32));
    let oldest_weight = C.wrapping_pow(length as u32 - 1);
    let mut sum = combine(&words[..length]).wrapping_sub(base);
    out.push(sum.wrapping_add(base));
    for (old, &new) in words.iter().zip(&words[length..]) {
        sum = sum
            .wrapping_sub(old.wrapping_mul(oldest_weight))
            .wrapping_mul(C)
            .wrapping_add(new);
        out.push(sum.wrapping_add(base));
    }
}

fn windows(n: usize, length: usize, offset: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    let count = if n == 0 {
        0
    } else if n < length {
        1
    } else {
        n - length + 1
    };
    (0..count)
        .step_by(offset)
        .map(move |start| start..(start + length).min(n))
}

/// Jaccard resemblance |A∩B| / |A∪B| of two sorted sets.
pub fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let common = intersection(a, b);
    let union = a.len() + b.len() - common;
    if union == 0 {
        1.0
    } else {
        common as f64 / union as f64
    }
}

/// Sørensen–Dice 2|A∩B| / (|A|+|B|).
pub fn dice(a: &[u64], b: &[u64]) -> f64 {
    let total = a.len() + b.len();
    if total == 0 {
        1.0
    } else {
        2.0 * intersection(a, b) as f64 / total as f64
    }
}

/// Containment |A∩B| / |A|: how much of `a` is inside `b`.
pub fn containment(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() {
        1.0
    } else {
        intersection(a, b) as f64 / a.len() as f64
    }
}

/// Size of the intersection of two sorted, deduplicated sets (a merge).
pub fn intersection(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{Normalizer, Preset};

    fn sh(text: &str, length: usize, offset: usize, hash: ShingleHash) -> Vec<u64> {
        let n = Normalizer::preset(Preset::Words);
        shingles(
            &n,
            text,
            &ShingleConfig {
                length,
                offset,
                hash,
            },
        )
    }

    #[test]
    fn shingle_count_follows_length_and_offset() {
        let text = "a b c d e f g";
        assert_eq!(sh(text, 3, 1, ShingleHash::Xxh3_64).len(), 5);
        assert_eq!(sh(text, 3, 2, ShingleHash::Xxh3_64).len(), 3);
        assert_eq!(sh("a b", 5, 1, ShingleHash::Xxh3_64).len(), 1);
        assert!(sh("", 5, 1, ShingleHash::Crc32).is_empty());
        assert_eq!(sh(text, 3, 1, ShingleHash::Crc32).len(), 5);
    }

    #[test]
    fn rolling_combine_equals_combine_of_each_window() {
        let words: Vec<u64> = (0..300u64).map(crate::dedup::minhash::mix64).collect();
        for length in 1..12 {
            for n in length..40 {
                let mut rolled = Vec::new();
                rolling_combine(&words[..n], length, &mut rolled);
                let direct: Vec<u64> = words[..n].windows(length).map(combine).collect();
                assert_eq!(rolled, direct, "length {length}, {n} words");
            }
        }
    }

    #[test]
    fn similarity_measures() {
        let a = [1, 2, 3, 4];
        let b = [3, 4, 5, 6];
        assert_eq!(jaccard(&a, &b), 2.0 / 6.0);
        assert_eq!(dice(&a, &b), 0.5);
        assert_eq!(containment(&[3, 4], &a), 1.0);
    }

    #[test]
    fn normalization_makes_case_and_punctuation_irrelevant() {
        let a = sh(
            "The Quick, brown fox; jumps over the lazy dog!",
            3,
            1,
            ShingleHash::Xxh3_64,
        );
        let b = sh(
            "the quick brown fox jumps over the lazy dog",
            3,
            1,
            ShingleHash::Xxh3_64,
        );
        assert_eq!(a, b);
    }
}
