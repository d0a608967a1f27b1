//! Maximal frequent itemsets, FPmax-style (Grahne & Zhu, "Efficiently using prefix-trees
//! in mining frequent itemsets", FIMI 2003; the FPmax* that seed 000 used through
//! MyFim). Written here because the one FP-growth crate on crates.io (`fp-growth` 0.1.6,
//! last released 2021) enumerates every frequent itemset — 2^n of them for a cluster of n
//! identical documents — and has no maximal-itemset mode.
//!
//! The FP-tree is kept as its equivalent projected database: weighted transactions whose
//! items are sorted by descending support, identical ones merged (the tree's shared
//! prefixes); a conditional database is the prefixes that precede an item. What FPmax
//! adds to FP-growth is kept: items are mined least frequent first, so an itemset found
//! later can never contain one found earlier; a conditional database that is a single
//! path yields its whole path at once; and a branch whose head plus every frequent item
//! of its tail is already inside a maximal itemset found is skipped (the look-ahead).

use std::collections::HashMap;

/// The maximal itemsets of `transactions` (items, weight) with support ≥ `min_support`,
/// each sorted ascending; order of the result: by first item, then lexicographically.
pub fn maximal_itemsets(transactions: &[(Vec<u32>, u32)], min_support: u32) -> Vec<Vec<u32>> {
    let mut found = Found::default();
    mine(
        transactions.to_vec(),
        &mut Vec::new(),
        min_support.max(1),
        &mut found,
    );
    // FPmax never inserts a subset of an earlier set; a superset of an earlier set cannot
    // come later either, but the final sweep keeps the result maximal whatever happens.
    let sets = found.sets;
    let mut postings: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, s) in sets.iter().enumerate() {
        for &x in s {
            postings.entry(x).or_default().push(i);
        }
    }
    let mut out: Vec<Vec<u32>> = sets
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            !postings[&s[0]]
                .iter()
                .any(|&j| j != *i && sets[j].len() > s.len() && is_subset(s, &sets[j]))
        })
        .map(|(_, s)| s.clone())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Maximal itemsets found so far, indexed by item for the subset checks.
#[derive(Default)]
struct Found {
    sets: Vec<Vec<u32>>,
    by_item: HashMap<u32, Vec<usize>>,
}

impl Found {
    /// Whether the sorted `set` is inside a set found already.
    fn covers(&self, set: &[u32]) -> bool {
        let Some(first) = set.first() else {
            return true;
        };
        self.by_item.get(first).is_some_and(|ids| {
            ids.iter()
                .any(|&i| self.sets[i].len() >= set.len() && is_subset(set, &self.sets[i]))
        })
    }

    fn insert(&mut self, mut set: Vec<u32>) {
        set.sort_unstable();
        if set.is_empty() || self.covers(&set) {
            return;
        }
        for &x in &set {
            self.by_item.entry(x).or_default().push(self.sets.len());
        }
        self.sets.push(set);
    }
}

/// Both sorted ascending: every item of `a` is in `b`.
fn is_subset(a: &[u32], b: &[u32]) -> bool {
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

fn supports(db: &[(Vec<u32>, u32)]) -> HashMap<u32, u32> {
    let mut sup: HashMap<u32, u32> = HashMap::new();
    for (t, w) in db {
        for &x in t {
            *sup.entry(x).or_default() += w;
        }
    }
    sup
}

fn mine(db: Vec<(Vec<u32>, u32)>, head: &mut Vec<u32>, min: u32, found: &mut Found) {
    let sup = supports(&db);
    let mut items: Vec<u32> = sup.iter().filter(|e| *e.1 >= min).map(|e| *e.0).collect();
    if items.is_empty() {
        found.insert(head.clone());
        return;
    }
    // The tree's order: descending support, then item.
    items.sort_unstable_by(|a, b| sup[b].cmp(&sup[a]).then(a.cmp(b)));
    let pos: HashMap<u32, u32> = items
        .iter()
        .enumerate()
        .map(|(i, &x)| (x, i as u32))
        .collect();
    // Project onto the frequent items, as positions in that order; merge equal paths.
    let mut proj: Vec<(Vec<u32>, u32)> = db
        .into_iter()
        .filter_map(|(t, w)| {
            let mut p: Vec<u32> = t.iter().filter_map(|x| pos.get(x).copied()).collect();
            p.sort_unstable();
            (!p.is_empty()).then_some((p, w))
        })
        .collect();
    proj.sort_unstable();
    proj.dedup_by(|b, a| {
        let same = a.0 == b.0;
        if same {
            a.1 += b.1;
        }
        same
    });
    // A single path: every transaction is a prefix of the longest; all its items are
    // frequent, so head + path is the one maximal itemset of this branch.
    let longest = proj
        .iter()
        .max_by_key(|t| t.0.len())
        .map(|t| &t.0)
        .expect("non-empty");
    if proj.iter().all(|(t, _)| longest.starts_with(t)) {
        let mut set = head.clone();
        set.extend(longest.iter().map(|&p| items[p as usize]));
        found.insert(set);
        return;
    }
    // Look-ahead: head + every frequent item inside a known maximal itemset.
    let mut all = head.clone();
    all.extend(&items);
    all.sort_unstable();
    if found.covers(&all) {
        return;
    }
    let mut postings: Vec<Vec<u32>> = vec![Vec::new(); items.len()];
    for (ti, (t, _)) in proj.iter().enumerate() {
        for &p in t {
            postings[p as usize].push(ti as u32);
        }
    }
    for p in (0..items.len()).rev() {
        // Conditional database of item p: the prefixes before it (positions < p).
        let cond: Vec<(Vec<u32>, u32)> = postings[p]
            .iter()
            .filter_map(|&ti| {
                let (t, w) = &proj[ti as usize];
                let at = t.partition_point(|&x| (x as usize) < p);
                (at > 0).then(|| (t[..at].iter().map(|&x| items[x as usize]).collect(), *w))
            })
            .collect();
        head.push(items[p]);
        let cond_sup = supports(&cond);
        let mut candidate: Vec<u32> = head.clone();
        candidate.extend(cond_sup.iter().filter(|e| *e.1 >= min).map(|e| *e.0));
        candidate.sort_unstable();
        if !found.covers(&candidate) {
            mine(cond, head, min, found);
        }
        head.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every maximal frequent itemset by brute force over all subsets of the items.
    fn brute(db: &[(Vec<u32>, u32)], min: u32, n: u32) -> Vec<Vec<u32>> {
        let support = |s: &[u32]| -> u32 {
            db.iter()
                .filter(|(t, _)| s.iter().all(|x| t.contains(x)))
                .map(|t| t.1)
                .sum()
        };
        let frequent: Vec<Vec<u32>> = (1u32..1 << n)
            .map(|mask| (0..n).filter(|i| mask >> i & 1 == 1).collect::<Vec<u32>>())
            .filter(|s| support(s) >= min)
            .collect();
        let mut max: Vec<Vec<u32>> = frequent
            .iter()
            .filter(|s| {
                !frequent
                    .iter()
                    .any(|t| t.len() > s.len() && is_subset(s, t))
            })
            .cloned()
            .collect();
        max.sort();
        max
    }

    #[test]
    fn textbook_example() {
        // Han's FP-growth example, items f c a b m p o ... as numbers; min support 3.
        let db: Vec<(Vec<u32>, u32)> = vec![
            (vec![5, 2, 0, 3, 12, 15], 1),
            (vec![0, 1, 2, 5, 11, 12, 14], 1),
            (vec![1, 5, 7, 9, 14], 1),
            (vec![1, 2, 10, 15], 1),
            (vec![0, 5, 2, 4, 11, 12, 15], 1),
        ];
        let got = maximal_itemsets(&db, 3);
        assert_eq!(got, vec![vec![0, 2, 5, 12], vec![1], vec![2, 15]]);
    }

    #[test]
    fn agrees_with_brute_force_on_random_databases() {
        let mut state = 7u64;
        let mut next = move || {
            state = crate::dedup::minhash::mix64(state);
            state
        };
        for round in 0..200 {
            let n = 3 + (round % 8) as u32;
            let db: Vec<(Vec<u32>, u32)> = (0..(4 + next() % 12))
                .map(|_| {
                    let t: Vec<u32> = (0..n).filter(|_| next() % 3 != 0).collect();
                    (t, 1 + (next() % 3) as u32)
                })
                .collect();
            let min = 2 + (next() % 6) as u32;
            assert_eq!(
                maximal_itemsets(&db, min),
                brute(&db, min, n),
                "round {round} min {min} {db:?}"
            );
        }
    }

    #[test]
    fn thousands_of_identical_transactions_are_one_path() {
        let copies: Vec<u32> = (0..3000).collect();
        let db = vec![
            (copies.clone(), 128),
            (vec![5000, 5001], 120),
            (vec![1, 5000], 3),
        ];
        assert_eq!(maximal_itemsets(&db, 100), vec![copies, vec![5000, 5001]]);
    }
}
