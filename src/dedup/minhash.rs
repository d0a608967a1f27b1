//! MinHash signatures by one-permutation hashing (Li, Owen & Zhang 2012) with optimal
//! densification (Shrivastava 2017): the shingle hashes are split into `k` bins by their
//! top bits and each bin keeps its minimum — one hash evaluation per shingle instead of
//! `k`, with the same collision probability per position: P[sig_a[i] = sig_b[i]] =
//! Jaccard(a, b). Empty bins borrow the value of a bin chosen by a fixed pseudo-random
//! probe sequence, identical for every document, so equal sets still give equal
//! signatures.

/// A MinHash signature of `k` values.
pub type Signature = Vec<u64>;

/// Final mixer of splitmix64: a bijection on u64 with good avalanche. Applied to every
/// shingle hash so that CRC32 shingles (low entropy in the top bits) bin well too.
#[inline]
pub fn mix64(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d049bb133111eb);
    x ^ (x >> 31)
}

/// The signature of a shingle set, or `None` for an empty set.
pub fn signature(shingles: &[u64], k: usize) -> Option<Signature> {
    if shingles.is_empty() || k == 0 {
        return None;
    }
    let mut bins = vec![u64::MAX; k];
    let mut filled = vec![false; k];
    for &s in shingles {
        let h = mix64(s);
        let bin = ((h as u128 * k as u128) >> 64) as usize;
        if h <= bins[bin] {
            bins[bin] = h;
            filled[bin] = true;
        }
    }
    // Densify in place: empty bins only read filled ones, which never change.
    for i in 0..k {
        if filled[i] {
            continue;
        }
        let mut attempt = 0u64;
        loop {
            let probe = mix64(((i as u64) << 32) ^ attempt ^ 0x9e3779b97f4a7c15);
            let j = ((probe as u128 * k as u128) >> 64) as usize;
            if filled[j] {
                bins[i] = bins[j];
                break;
            }
            attempt += 1;
        }
    }
    Some(bins)
}

/// Classic MinHash: the minimum of each of `k` hash functions (seeded mixes of the
/// shingle hash) over the set — `k` evaluations per shingle.
pub fn n_permutation(shingles: &[u64], k: usize) -> Signature {
    let seeds: Vec<u64> = (0..k as u64)
        .map(|i| mix64(i ^ 0x5851f42d4c957f2d))
        .collect();
    let mut sig = vec![u64::MAX; k];
    for &s in shingles {
        for (slot, seed) in sig.iter_mut().zip(&seeds) {
            let h = mix64(s ^ seed);
            if h < *slot {
                *slot = h;
            }
        }
    }
    sig
}

/// Bottom-k ("n minimal elements of one permutation"): the `k` smallest mixed hashes
/// of the set, ascending.
pub fn bottom_k(shingles: &[u64], k: usize) -> Signature {
    let mut all: Vec<u64> = shingles.iter().map(|&s| mix64(s)).collect();
    all.sort_unstable();
    all.dedup();
    all.truncate(k);
    all
}

/// How a shingle set becomes a MinHash sketch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sketch {
    /// One-permutation hashing with optimal densification (default).
    #[default]
    Oph,
    /// `num_perm` independent hash functions (classic; `num_perm` times the work).
    NPerm,
    /// The `num_perm` smallest values of one function; every value is a candidate key
    /// (no banding: the positions of two bottom-k sketches do not line up).
    BottomK,
}

impl std::str::FromStr for Sketch {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "oph" => Ok(Sketch::Oph),
            "n-perm" | "nperm" => Ok(Sketch::NPerm),
            "bottom-k" | "bottomk" => Ok(Sketch::BottomK),
            _ => Err(format!("unknown sketch `{s}` (oph, n-perm, bottom-k)")),
        }
    }
}

/// Share of equal positions: an estimate of Jaccard similarity.
pub fn estimate(a: &[u64], b: &[u64]) -> f64 {
    let equal = a.iter().zip(b).filter(|(x, y)| x == y).count();
    equal as f64 / a.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_sets_equal_signatures_and_estimate_tracks_jaccard() {
        let a: Vec<u64> = (0..1000).map(mix64).collect();
        let mut b: Vec<u64> = (200..1200).map(mix64).collect(); // J = 800/1200
        b.sort_unstable();
        let mut a_sorted = a.clone();
        a_sorted.sort_unstable();
        let sa = signature(&a_sorted, 256).unwrap();
        assert_eq!(sa, signature(&a, 256).unwrap());
        let est = estimate(&sa, &signature(&b, 256).unwrap());
        assert!((est - 0.667).abs() < 0.1, "estimate {est}");
    }

    #[test]
    fn n_permutation_and_bottom_k_track_jaccard() {
        let a: Vec<u64> = (0..1000).collect();
        let b: Vec<u64> = (200..1200).collect(); // J = 800/1200
        let est = estimate(&n_permutation(&a, 256), &n_permutation(&b, 256));
        assert!((est - 0.667).abs() < 0.1, "estimate {est}");
        let (ka, kb) = (bottom_k(&a, 128), bottom_k(&b, 128));
        assert_eq!(ka.len(), 128);
        let mut union: Vec<u64> = ka.iter().chain(&kb).copied().collect();
        union.sort_unstable();
        union.dedup();
        union.truncate(128);
        let both = union
            .iter()
            .filter(|x| ka.contains(x) && kb.contains(x))
            .count();
        assert!((both as f64 / 128.0 - 0.667).abs() < 0.15);
    }

    #[test]
    fn tiny_sets_are_densified() {
        let sig = signature(&[42], 64).unwrap();
        assert!(sig.iter().all(|&v| v == mix64(42)));
        assert!(signature(&[], 64).is_none());
    }
}
