//! Lexical ("indivisible") signatures A0–A12 of algorithms.md §3: each document gets a
//! few keys; documents sharing a key are candidates, exactly like LSH band keys, and go
//! through the same verification (or, with `verify: false`, are taken as they are, to
//! measure a method on its own). Methods that weigh words by collection statistics
//! (df, cf, N, average length) get them from a first pass ([`CollectionStats`]).
//!
//! Hashes: the seeds use CRC32 of the concatenated words; so do these keys (the method
//! index is mixed in). `md5` (A0) uses a 128-bit xxh3 of the normalized text folded to
//! 64 bits instead of MD5: same role (exact duplicates after normalization), no extra
//! dependency.

use std::collections::HashMap;
use std::str::FromStr;

use crate::dedup::minhash::mix64;
use crate::normalize::{sentences, Normalizer, Preset};

/// How candidate keys are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Method {
    /// MinHash sketch + LSH bands (the default; see `Sketch`).
    #[default]
    #[serde(rename = "minhash")]
    Minhash,
    /// A0: hash of the whole normalized text.
    #[serde(rename = "md5")]
    Md5,
    /// A1: the 6 most frequent words.
    #[serde(rename = "tf")]
    Tf,
    /// A2: the 6 words of highest BM25 TF·IDF.
    #[serde(rename = "tfidf")]
    Tfidf,
    /// A3: the 6 words of highest TF·RIDF.
    #[serde(rename = "tfridf")]
    Tfridf,
    /// A4: the 2 longest sentences.
    #[serde(rename = "long-sent")]
    LongSent,
    /// A5: the 2 heaviest sentences (sum of A2 weights).
    #[serde(rename = "heavy-sent")]
    HeavySent,
    /// A6: 36 min-wise functions, 6 supershingles of 6, 15 megashingles.
    #[serde(rename = "megashingles")]
    Megashingles,
    /// A7: I-Match with 10 extra randomized lexicons.
    #[serde(rename = "lex-rand")]
    LexRand,
    /// A8: wrapped 5-word shingles sampled by a power of two.
    #[serde(rename = "log-shingles")]
    LogShingles,
    /// A9: which descriptive words reach their frequency threshold.
    #[serde(rename = "descr-words")]
    DescrWords,
    /// A10: the 6 words of highest TF·IDF_opt.
    #[serde(rename = "opt-freq")]
    OptFreq,
    /// A11: shingle posting lists cut by a length window; pairs compared exactly.
    #[serde(rename = "decomposition")]
    Decomposition,
    /// A12: 3 longest sentences + 5 longest words, length and sentence-count windows.
    #[serde(rename = "3+5")]
    ThreeFive,
}

pub const METHOD_NAMES: &[&str] = &[
    "minhash",
    "md5",
    "tf",
    "tfidf",
    "tfridf",
    "long-sent",
    "heavy-sent",
    "megashingles",
    "lex-rand",
    "log-shingles",
    "descr-words",
    "opt-freq",
    "decomposition",
    "3+5",
];

impl FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let alias = match s {
            "a0" | "A0" => "md5",
            "a1" | "A1" => "tf",
            "a2" | "A2" => "tfidf",
            "a3" | "A3" => "tfridf",
            "a4" | "A4" => "long-sent",
            "a5" | "A5" => "heavy-sent",
            "a6" | "A6" => "megashingles",
            "a7" | "A7" => "lex-rand",
            "a8" | "A8" => "log-shingles",
            "a9" | "A9" => "descr-words",
            "a10" | "A10" => "opt-freq",
            "a11" | "A11" => "decomposition",
            "a12" | "A12" => "3+5",
            other => other,
        };
        serde_json::from_value(serde_json::Value::String(alias.to_string())).map_err(|_| {
            format!(
                "unknown method `{s}` ({}; or A0..A12)",
                METHOD_NAMES.join(", ")
            )
        })
    }
}

/// The method's name as `--method` and config files write it (`minhash`, `long-sent`),
/// for messages.
impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(name)) => f.write_str(&name),
            _ => unreachable!("every method serializes to its name"),
        }
    }
}

impl Method {
    /// Needs df/cf/N from a first pass over the collection.
    pub fn needs_stats(self) -> bool {
        matches!(
            self,
            Method::Tfidf
                | Method::Tfridf
                | Method::HeavySent
                | Method::LexRand
                | Method::DescrWords
                | Method::OptFreq
        )
    }

    fn tag(self) -> u64 {
        self as u64 + 1
    }
}

/// Collection statistics of the lexical normalizer's terms.
#[derive(Debug, Default, Clone)]
pub struct CollectionStats {
    pub docs: u64,
    pub total_len: u64,
    /// term hash → (df, cf)
    pub terms: HashMap<u64, (u32, u64)>,
}

impl CollectionStats {
    /// Count one document's terms.
    pub fn add_text(&mut self, normalizer: &Normalizer, text: &str) {
        let tf = term_counts(normalizer, text).0;
        self.docs += 1;
        for (h, (n, _)) in tf {
            self.total_len += n as u64;
            let e = self.terms.entry(h).or_default();
            e.0 += 1;
            e.1 += n as u64;
        }
    }

    pub fn merge(mut self, other: CollectionStats) -> CollectionStats {
        self.docs += other.docs;
        self.total_len += other.total_len;
        for (h, (df, cf)) in other.terms {
            let e = self.terms.entry(h).or_default();
            e.0 += df;
            e.1 += cf;
        }
        self
    }

    fn n(&self) -> f64 {
        self.docs.max(1) as f64
    }
    fn df(&self, h: u64) -> f64 {
        self.terms.get(&h).map_or(1.0, |e| e.0.max(1) as f64)
    }
    fn cf(&self, h: u64) -> f64 {
        self.terms.get(&h).map_or(1.0, |e| e.1.max(1) as f64)
    }
    fn dl_avg(&self) -> f64 {
        (self.total_len as f64 / self.n()).max(1.0)
    }
}

/// term hash → (tf, the term); and the document length in terms.
fn term_counts(normalizer: &Normalizer, text: &str) -> (HashMap<u64, (u32, String)>, usize) {
    let mut tf: HashMap<u64, (u32, String)> = HashMap::new();
    let mut dl = 0;
    normalizer.for_each_token(text, |t| {
        dl += 1;
        let h = xxhash_rust::xxh3::xxh3_64(t.as_bytes());
        tf.entry(h).or_insert_with(|| (0, t.to_string())).0 += 1;
    });
    (tf, dl)
}

fn crc(parts: &[&str]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            h.update(b" ");
        }
        h.update(p.as_bytes());
    }
    h.finalize()
}

/// What [`Method::ThreeFive`] compares beyond its keys.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreeFive {
    /// Words of 3 letters or more.
    pub len: u32,
    pub sentences: u32,
    /// CRC32 of the (up to) 3 longest sentences, longest first.
    pub sentence_sigs: Vec<u32>,
    /// CRC32 of the 5 longest words.
    pub word_sigs: Vec<u32>,
}

/// Computes one method's keys for a text.
pub struct LexicalSigner {
    method: Method,
    /// Stop words and short words dropped (the seeds' canonization).
    lexical: Normalizer,
    /// Words as for shingles (sentences, megashingles, log shingles).
    plain: Normalizer,
    stats: Option<std::sync::Arc<CollectionStats>>,
}

/// Key of a sorted set of term hashes.
fn set_key(tag: u64, hashes: &[u64]) -> u64 {
    let mut h = tag;
    for &x in hashes {
        h = mix64(h ^ x);
    }
    h
}

impl LexicalSigner {
    pub fn new(
        method: Method,
        plain: Preset,
        stats: Option<std::sync::Arc<CollectionStats>>,
    ) -> Self {
        LexicalSigner {
            method,
            lexical: Normalizer::preset(Preset::Lexical),
            plain: Normalizer::preset(plain),
            stats,
        }
    }

    /// The normalizer whose terms [`CollectionStats`] counts.
    pub fn stats_normalizer() -> Normalizer {
        Normalizer::preset(Preset::Lexical)
    }

    fn stats(&self) -> &CollectionStats {
        static EMPTY: std::sync::OnceLock<CollectionStats> = std::sync::OnceLock::new();
        self.stats
            .as_deref()
            .unwrap_or_else(|| EMPTY.get_or_init(CollectionStats::default))
    }

    fn key32(&self, v: u32) -> u64 {
        mix64(((self.method.tag()) << 32) | v as u64)
    }

    /// BM25 weight of A2 for each term of a document.
    fn bm25(&self, tf: &HashMap<u64, (u32, String)>, dl: usize) -> HashMap<u64, f64> {
        let st = self.stats();
        let norm = 2.0 * (0.25 + 0.75 * dl as f64 / st.dl_avg());
        tf.iter()
            .map(|(&h, &(n, _))| {
                let n = n as f64;
                let df = st.df(h);
                let idf = ((st.n() - df + 0.5) / (df + 0.5)).ln();
                (h, n / (norm + n) * idf)
            })
            .collect()
    }

    /// The 6 words of highest weight, alphabetical, CRC32.
    fn top6(
        &self,
        tf: &HashMap<u64, (u32, String)>,
        weight: impl Fn(u64, u32) -> f64,
    ) -> Option<u64> {
        let mut words: Vec<(f64, &str)> = tf
            .iter()
            .map(|(&h, (n, w))| (weight(h, *n), w.as_str()))
            .collect();
        if words.is_empty() {
            return None;
        }
        words.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        let mut top: Vec<&str> = words.iter().take(6).map(|w| w.1).collect();
        top.sort_unstable();
        Some(self.key32(crc(&top)))
    }

    /// Normalized sentences: (words, text joined by spaces).
    fn sentences(&self, text: &str, normalizer: &Normalizer) -> Vec<(Vec<String>, String)> {
        sentences(text)
            .into_iter()
            .map(|s| {
                let words = normalizer.tokens(s);
                let joined = words.join(" ");
                (words, joined)
            })
            .filter(|s| !s.0.is_empty())
            .collect()
    }

    /// Two best sentences by `score`, concatenated in alphabetical order, CRC32.
    fn two_sentences(&self, mut sents: Vec<(f64, String)>) -> Option<u64> {
        if sents.is_empty() {
            return None;
        }
        sents.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut top: Vec<&str> = sents.iter().take(2).map(|s| s.1.as_str()).collect();
        top.sort_unstable();
        Some(self.key32(crc(&top)))
    }

    /// Keys of `text` (and, for 3+5, what its pairs compare). `shingles` are the
    /// document's shingle hashes (for decomposition).
    pub fn keys(&self, text: &str, shingles: &[u64]) -> (Vec<u64>, Option<Box<ThreeFive>>) {
        let st = || self.stats();
        let keys: Vec<u64> = match self.method {
            Method::Minhash => Vec::new(),
            Method::Md5 => {
                let words = self.plain.tokens(text);
                if words.is_empty() {
                    return (Vec::new(), None);
                }
                let h = xxhash_rust::xxh3::xxh3_128(words.join(" ").as_bytes());
                vec![(h as u64) ^ ((h >> 64) as u64)]
            }
            Method::Tf => {
                let (tf, _) = term_counts(&self.lexical, text);
                self.top6(&tf, |_, n| n as f64).into_iter().collect()
            }
            Method::Tfidf => {
                let (tf, dl) = term_counts(&self.lexical, text);
                let w = self.bm25(&tf, dl);
                self.top6(&tf, |h, _| w[&h]).into_iter().collect()
            }
            Method::Tfridf | Method::OptFreq => {
                let (tf, _) = term_counts(&self.lexical, text);
                let tf_max = tf.values().map(|v| v.0).max().unwrap_or(1) as f64;
                let n = st().n();
                let ridf = self.method == Method::Tfridf;
                self.top6(&tf, |h, t| {
                    let tfw = 0.5 + 0.5 * t as f64 / tf_max;
                    let idf = -(st().df(h) / n).ln();
                    if ridf {
                        tfw * (idf + (1.0 - (-st().cf(h) / n).exp()).ln())
                    } else {
                        let opt = if idf < 11.5 {
                            (idf / 11.5).sqrt()
                        } else {
                            11.5 / idf
                        };
                        tfw * opt
                    }
                })
                .into_iter()
                .collect()
            }
            Method::LongSent => {
                let sents = self.sentences(text, &self.plain);
                self.two_sentences(
                    sents
                        .into_iter()
                        .map(|(w, s)| (w.len() as f64, s))
                        .collect(),
                )
                .into_iter()
                .collect()
            }
            Method::HeavySent => {
                let (tf, dl) = term_counts(&self.lexical, text);
                let w = self.bm25(&tf, dl);
                let sents = self.sentences(text, &self.lexical);
                self.two_sentences(
                    sents
                        .into_iter()
                        .map(|(words, s)| {
                            let weight = words
                                .iter()
                                .map(|t| {
                                    w.get(&xxhash_rust::xxh3::xxh3_64(t.as_bytes()))
                                        .copied()
                                        .unwrap_or(0.0)
                                })
                                .sum();
                            (weight, s)
                        })
                        .collect(),
                )
                .into_iter()
                .collect()
            }
            Method::Megashingles => {
                let mut set = shingles.to_vec();
                set.sort_unstable();
                set.dedup();
                if set.is_empty() {
                    return (Vec::new(), None);
                }
                let sig = super::minhash::n_permutation(&set, 36);
                let supers: Vec<u64> = sig
                    .chunks(6)
                    .map(|c| set_key(self.method.tag(), c))
                    .collect();
                let mut keys = Vec::with_capacity(15);
                for i in 0..6 {
                    for j in i + 1..6 {
                        keys.push(set_key(
                            self.method.tag() ^ ((i * 6 + j) as u64),
                            &[supers[i], supers[j]],
                        ));
                    }
                }
                keys
            }
            Method::LexRand => {
                let (tf, _) = term_counts(&self.lexical, text);
                let n = st().n();
                // The lexicon: terms neither rarest (df 1) nor commonest (df > N/10).
                let mut terms: Vec<u64> = tf
                    .keys()
                    .copied()
                    .filter(|&h| {
                        let df = st().df(h);
                        df >= 2.0 && df <= (n / 10.0).max(2.0)
                    })
                    .collect();
                terms.sort_unstable();
                (0..=10u64)
                    .filter_map(|k| {
                        let kept: Vec<u64> = terms
                            .iter()
                            .copied()
                            .filter(|&h| {
                                k == 0 || mix64(h ^ k.wrapping_mul(0x9e3779b97f4a7c15)) % 100 >= 33
                            })
                            .collect();
                        (kept.len() >= 5).then(|| set_key(self.method.tag() ^ (k << 8), &kept))
                    })
                    .collect()
            }
            Method::LogShingles => {
                let words: Vec<u64> = self
                    .plain
                    .tokens(text)
                    .iter()
                    .map(|t| xxhash_rust::xxh3::xxh3_64(t.as_bytes()))
                    .collect();
                let n = words.len();
                if n == 0 {
                    return (Vec::new(), None);
                }
                // Keep about 8–16 shingles whatever the length: divisible by 2^z.
                let z = (usize::BITS - 1 - n.leading_zeros()).saturating_sub(3);
                let mut kept: Vec<u64> = (0..n)
                    .map(|i| {
                        let mut h = 5u64;
                        for k in 0..5.min(n) {
                            h = h
                                .wrapping_mul(0x9e3779b97f4a7c15)
                                .wrapping_add(words[(i + k) % n]);
                        }
                        mix64(h)
                    })
                    .filter(|h| h.trailing_zeros() >= z)
                    .collect();
                kept.sort_unstable();
                kept.dedup();
                if kept.is_empty() {
                    Vec::new()
                } else {
                    vec![set_key(self.method.tag(), &kept)]
                }
            }
            Method::DescrWords => {
                let (tf, _) = term_counts(&self.lexical, text);
                let n = st().n();
                // Descriptive words: mid-frequency terms (2 ≤ df ≤ N/20); each counts
                // when the document uses it at least as often as documents do on
                // average (cf/df, at least 2).
                let mut present: Vec<u64> = tf
                    .iter()
                    .filter(|(&h, (t, _))| {
                        let df = st().df(h);
                        let threshold = (st().cf(h) / df).round().max(2.0);
                        df >= 2.0 && df <= (n / 20.0).max(2.0) && *t as f64 >= threshold
                    })
                    .map(|(&h, _)| h)
                    .collect();
                present.sort_unstable();
                if present.len() >= 3 {
                    vec![set_key(self.method.tag(), &present)]
                } else {
                    Vec::new()
                }
            }
            Method::Decomposition => {
                let mut set = shingles.to_vec();
                set.sort_unstable();
                set.dedup();
                set.iter().map(|&s| mix64(s ^ self.method.tag())).collect()
            }
            Method::ThreeFive => {
                let sents = self.sentences(text, &self.plain);
                if sents.is_empty() {
                    return (Vec::new(), None);
                }
                let mut by_len: Vec<&(Vec<String>, String)> = sents.iter().collect();
                by_len.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.1.cmp(&b.1)));
                let sentence_sigs: Vec<u32> = by_len
                    .iter()
                    .take(3)
                    .map(|s| crc(&[s.1.as_str()]))
                    .collect();
                let mut words: Vec<&str> = sents
                    .iter()
                    .flat_map(|s| s.0.iter().map(String::as_str))
                    .collect();
                let len = words.iter().filter(|w| w.chars().count() >= 3).count() as u32;
                words.sort_by(|a, b| b.chars().count().cmp(&a.chars().count()).then(a.cmp(b)));
                words.dedup();
                let word_sigs = words.iter().take(5).map(|w| crc(&[w])).collect();
                let keys = sentence_sigs.iter().map(|&s| self.key32(s)).collect();
                return (
                    keys,
                    Some(Box::new(ThreeFive {
                        len,
                        sentences: sents.len() as u32,
                        sentence_sigs,
                        word_sigs,
                    })),
                );
            }
        };
        (keys, None)
    }
}

/// The 3+5 pair test (algorithms.md §3, A12): length ratio within `max_len_ratio`
/// (1.15 for similarity 0.85), sentence counts within 1.20, at least 2 of the 5 word
/// signatures common, and the longest sentences equal — or, for documents of more than
/// 5 sentences, 2 of the 3 sentence signatures common.
pub fn three_five_match(a: &ThreeFive, b: &ThreeFive, max_len_ratio: f64) -> bool {
    let ratio = |x: u32, y: u32| x.max(y).max(1) as f64 / x.min(y).max(1) as f64;
    if ratio(a.len, b.len) > max_len_ratio || ratio(a.sentences, b.sentences) > 1.20 {
        return false;
    }
    let common_words = a
        .word_sigs
        .iter()
        .filter(|w| b.word_sigs.contains(w))
        .count();
    if common_words < 2.min(a.word_sigs.len()).min(b.word_sigs.len()).max(1) {
        return false;
    }
    if a.sentences > 5 && b.sentences > 5 {
        a.sentence_sigs
            .iter()
            .filter(|s| b.sentence_sigs.contains(s))
            .count()
            >= 2
    } else {
        a.sentence_sigs.first() == b.sentence_sigs.first()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str =
        "The committee met on Tuesday to discuss the budget. Schools, roads and parks \
        were on the agenda. After a long debate it approved a plan that moves money from road \
        repair to school buildings. The mayor said the plan was fair.";

    #[test]
    fn every_method_parses_and_signs_equal_texts_equally() {
        let mut stats = CollectionStats::default();
        let n = LexicalSigner::stats_normalizer();
        stats.add_text(&n, TEXT);
        stats.add_text(
            &n,
            "another document about parks and gardens in the city center",
        );
        let stats = std::sync::Arc::new(stats);
        let sh: Vec<u64> = (0..40).collect();
        for name in &METHOD_NAMES[1..] {
            let m: Method = name.parse().unwrap();
            // Messages name a method as `--method` writes it.
            assert_eq!(m.to_string(), *name);
            let s = LexicalSigner::new(m, Preset::Default, Some(stats.clone()));
            let (k1, x1) = s.keys(TEXT, &sh);
            let (k2, x2) = s.keys(&TEXT.to_uppercase(), &sh);
            assert_eq!(k1, k2, "{name}");
            assert_eq!(x1, x2, "{name}");
            if !matches!(m, Method::DescrWords | Method::LexRand) {
                assert!(!k1.is_empty(), "{name}");
            }
        }
        assert_eq!("A12".parse::<Method>().unwrap(), Method::ThreeFive);
        assert!("nope".parse::<Method>().is_err());
    }

    #[test]
    fn three_five_needs_similar_lengths_and_sentences() {
        let s = LexicalSigner::new(Method::ThreeFive, Preset::Default, None);
        let a = s.keys(TEXT, &[]).1.unwrap();
        let edited = TEXT.replace("fair", "unfair");
        let b = s.keys(&edited, &[]).1.unwrap();
        assert!(three_five_match(&a, &b, 1.15));
        let short = s
            .keys("The committee met on Tuesday to discuss the budget.", &[])
            .1
            .unwrap();
        assert!(!three_five_match(&a, &short, 1.15));
    }
}
