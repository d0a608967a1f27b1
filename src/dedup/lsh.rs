//! LSH banding (supershingles, algorithms.md §3): the `k`-value signature is cut into
//! `b` bands of `r` rows; each band is hashed to one key, and two documents become
//! candidates when any band key matches. P[candidate] = 1 − (1 − J^r)^b.

/// Bands × rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Banding {
    pub bands: usize,
    pub rows: usize,
}

impl Banding {
    /// Probability that a pair of Jaccard similarity `j` becomes a candidate.
    pub fn candidate_probability(&self, j: f64) -> f64 {
        1.0 - (1.0 - j.powi(self.rows as i32)).powi(self.bands as i32)
    }

    /// The banding for a `k`-value signature that finds a pair at `threshold` with
    /// probability ≥ `recall`, with as many rows per band as possible (fewest false
    /// candidates to verify). Falls back to one row per band.
    pub fn for_threshold(k: usize, threshold: f64, recall: f64) -> Banding {
        (1..=k)
            .rev()
            .map(|rows| Banding {
                bands: k / rows,
                rows,
            })
            .find(|b| b.candidate_probability(threshold) >= recall)
            .unwrap_or(Banding { bands: k, rows: 1 })
    }

    /// Band keys of a signature; the band index is mixed in, so keys of different bands
    /// never match each other.
    pub fn keys(&self, signature: &[u64]) -> Vec<u64> {
        // One buffer for all bands (this runs once per document).
        let mut buf = Vec::with_capacity(8 * (self.rows + 1));
        (0..self.bands)
            .map(|band| {
                let rows = &signature[band * self.rows..(band + 1) * self.rows];
                buf.clear();
                buf.extend_from_slice(&(band as u64).to_le_bytes());
                for v in rows {
                    buf.extend_from_slice(&v.to_le_bytes());
                }
                xxhash_rust::xxh3::xxh3_64(&buf)
            })
            .collect()
    }
}

/// Buckets larger than this are not expanded into all their pairs (a cluster of 10,000
/// copies would give 50 million): they are returned whole and split by leaders instead
/// (see [`crate::dedup`]), which costs one verification per member and distinct group.
pub const MAX_BUCKET_ALL_PAIRS: usize = 64;

/// Candidates from every document's keys (band keys or lexical signatures): the pairs
/// `(i, j)`, `i < j`, of buckets of at most [`MAX_BUCKET_ALL_PAIRS`] documents (sorted,
/// free of repeats) and the larger buckets themselves (each sorted, deduplicated).
/// Documents are numbered by rank, so the result depends only on the set of documents.
///
/// The (key, document) entries are sorted in parts of at most [`ENTRIES_PER_PART`], each
/// part taking the keys of one range of values: a million documents with 25 band keys
/// would otherwise hold 400 MB of entries at once. Buckets never straddle parts, so the
/// result is the same.
pub fn candidates<K: AsRef<[u64]>>(keys: &[K]) -> (Vec<(u32, u32)>, Vec<Vec<u32>>) {
    candidates_in_parts(keys, ENTRIES_PER_PART)
}

fn candidates_in_parts<K: AsRef<[u64]>>(
    keys: &[K],
    per_part: usize,
) -> (Vec<(u32, u32)>, Vec<Vec<u32>>) {
    let total: usize = keys.iter().map(|k| k.as_ref().len()).sum();
    let parts = total.div_ceil(per_part.max(1)).max(1) as u64;
    let mut pairs = Vec::new();
    let mut big: Vec<Vec<u32>> = Vec::new();
    let mut scratch = Vec::new();
    for part in 0..parts {
        // Keys are hashes: their top bits split them evenly.
        let in_part = |k: u64| ((k as u128 * parts as u128) >> 64) as u64 == part;
        // Sized once (a part holds about `total / parts` entries): growing by doubling
        // copied the entries up to three times into fresh memory.
        let mut entries: Vec<(u64, u32)> =
            Vec::with_capacity(total / parts as usize + total / (64 * parts as usize) + 16);
        entries.extend(keys.iter().enumerate().flat_map(|(doc, ks)| {
            ks.as_ref()
                .iter()
                .filter(move |&&k| in_part(k))
                .map(move |&k| (k, doc as u32))
        }));
        bucket_sort_by_key(&mut entries, &mut scratch);
        entries.dedup();
        bucket_pairs(&entries, &mut pairs, &mut big);
    }
    pairs.sort_unstable();
    pairs.dedup();
    big.sort_unstable();
    big.dedup();
    (pairs, big)
}

/// Entries sorted at once by [`candidates`] (16 bytes each, twice: the radix sort's
/// second buffer; 64 MB in all).
pub const ENTRIES_PER_PART: usize = 2 << 20;

/// Sort `(key, doc)` entries listed in document order by key, keeping that order among
/// equal keys: the order of `sort_unstable` on the pairs. Keys are hashes, spread evenly
/// over their range: one counting pass scatters the entries by their top bits into about
/// `len / 2` buckets (at most 2^16), and each bucket, a few entries long, is then sorted
/// whole. One scatter instead of the four of an LSD radix sort over 16-bit digits, whose
/// random writes over the whole array were most of its time (the 420,000 entries of
/// dedup-dev on a loaded machine: 43–47 ms → 21–25 ms). `scratch` is the second buffer,
/// kept between parts; equal keys (repeated documents) only make a bucket longer.
fn bucket_sort_by_key(entries: &mut Vec<(u64, u32)>, scratch: &mut Vec<(u64, u32)>) {
    debug_assert!(entries.windows(2).all(|w| w[0].1 <= w[1].1));
    if entries.len() < 256 {
        entries.sort_unstable();
        return;
    }
    let (lo, hi) = entries
        .iter()
        .fold((u64::MAX, 0), |(lo, hi), e| (lo.min(e.0), hi.max(e.0)));
    let span_bits = 64 - (hi - lo).leading_zeros();
    let digit_bits = (entries.len().ilog2() - 1).min(16);
    let shift = span_bits.saturating_sub(digit_bits);
    let bucket = |key: u64| ((key - lo) >> shift) as usize;
    let mut starts = vec![0usize; (1 << digit_bits) + 1];
    for e in entries.iter() {
        starts[bucket(e.0) + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    scratch.clear();
    scratch.resize(entries.len(), (0, 0));
    let mut next = starts.clone();
    for &e in entries.iter() {
        let b = bucket(e.0);
        scratch[next[b]] = e;
        next[b] += 1;
    }
    for range in starts.windows(2) {
        scratch[range[0]..range[1]].sort_unstable();
    }
    std::mem::swap(entries, scratch);
}

/// Pairs of the small buckets and the large buckets of sorted `(key, doc)` entries.
fn bucket_pairs(entries: &[(u64, u32)], pairs: &mut Vec<(u32, u32)>, big: &mut Vec<Vec<u32>>) {
    for bucket in entries.chunk_by(|a, b| a.0 == b.0) {
        if bucket.len() < 2 {
            continue;
        }
        if bucket.len() <= MAX_BUCKET_ALL_PAIRS {
            for (x, a) in bucket.iter().enumerate() {
                for b in &bucket[x + 1..] {
                    pairs.push((a.1, b.1));
                }
            }
        } else {
            big.push(bucket.iter().map(|e| e.1).collect());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banding_meets_recall_at_threshold() {
        let b = Banding::for_threshold(128, 0.8, 0.99);
        assert!(b.candidate_probability(0.8) >= 0.99);
        assert!(b.bands * b.rows <= 128);
        // One more row would miss the target: this is the most selective choice.
        let tighter = Banding {
            bands: 128 / (b.rows + 1),
            rows: b.rows + 1,
        };
        assert!(tighter.candidate_probability(0.8) < 0.99);
        assert!(b.candidate_probability(0.3) < 0.1);
    }

    #[test]
    fn matching_band_makes_candidates() {
        let keys = vec![vec![1, 2], vec![3, 2], vec![4, 5]];
        assert_eq!(candidates(&keys), (vec![(0, 1)], vec![]));
        let many: Vec<Vec<u64>> = (0..100).map(|_| vec![7, 8]).collect();
        let (pairs, big) = candidates(&many);
        assert!(pairs.is_empty());
        assert_eq!(big, vec![(0..100).collect::<Vec<u32>>()]);
    }

    #[test]
    fn bucket_sort_orders_as_sort_unstable() {
        let mut scratch = Vec::new();
        for (n, spread) in [(10usize, 3u64), (300, 5), (5000, 40), (70_000, u64::MAX)] {
            let mut state = n as u64;
            let mut entries: Vec<(u64, u32)> = (0..n as u32)
                .flat_map(|doc| {
                    (0..3).map(move |_| doc) // a document has several keys, some shared
                })
                .map(|doc| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    // Few distinct keys (repeats, equal low digits) or any 64-bit key.
                    let key = if spread == u64::MAX {
                        state
                    } else {
                        (state >> 40) % spread * 0x0001_0001_0001
                    };
                    (key, doc)
                })
                .collect();
            let mut expected = entries.clone();
            expected.sort_unstable();
            bucket_sort_by_key(&mut entries, &mut scratch);
            assert_eq!(entries, expected, "{n} entries, spread {spread}");
        }
    }

    #[test]
    fn sorting_in_parts_gives_the_same_candidates() {
        let keys: Vec<Vec<u64>> = (0..3000u64)
            .map(|d| {
                (0..8)
                    .map(|b| crate::dedup::minhash::mix64(b * 1000 + d % 700))
                    .collect()
            })
            .collect();
        let whole = candidates_in_parts(&keys, usize::MAX);
        assert!(!whole.0.is_empty() || !whole.1.is_empty());
        assert_eq!(candidates_in_parts(&keys, 1000), whole);
        assert_eq!(candidates_in_parts(&keys, 997), whole);
    }
}
