//! From verified similar pairs to clusters. Two modes (algorithms.md §4):
//! `components` — connected components (union-find), cheap but chains can pull
//! unrelated documents together; `strict` (default) — stars around mains: documents are
//! taken best main candidate first; one becomes a main unless it is a near-duplicate of
//! a main already chosen. Mains are thus never near-duplicates of each other, and every
//! other document is a near-duplicate of at least one main and belongs to the best of
//! them; it is `shared` in the other mains' clusters (listed among their members only
//! with `overlap`).
//! Both depend only on the ranks of the documents (their main order), never on input order.

/// Union-find with path halving and union by size.
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    pub fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    pub fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    pub fn union(&mut self, a: u32, b: u32) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
    }

    /// Components of two or more members, each sorted, in order of their first member.
    pub fn components(&mut self) -> Vec<Vec<u32>> {
        let n = self.parent.len();
        let mut by_root: std::collections::HashMap<u32, Vec<u32>> = Default::default();
        for x in 0..n as u32 {
            let r = self.find(x);
            by_root.entry(r).or_default().push(x);
        }
        let mut comps: Vec<Vec<u32>> = by_root.into_values().filter(|c| c.len() > 1).collect();
        comps.sort_unstable_by_key(|c| c[0]);
        comps
    }
}

/// One strict cluster: a main rank and its members `(rank, similarity, belongs first
/// here)`, the main first.
#[derive(Debug, Clone, PartialEq)]
pub struct Star {
    pub main: u32,
    pub members: Vec<(u32, f32, bool)>,
}

/// Strict clusters of `n` ranked documents from verified edges `(a, b, similarity)`
/// (`a < b`, no repeats). Linear in the number of edges.
pub fn stars(n: usize, edges: &[(u32, u32, f32)]) -> Vec<Star> {
    // Adjacency lists (CSR), each sorted by rank.
    let mut degree = vec![0u32; n + 1];
    for &(a, b, _) in edges {
        degree[a as usize] += 1;
        degree[b as usize] += 1;
    }
    let mut offsets = vec![0usize; n + 1];
    for i in 0..n {
        offsets[i + 1] = offsets[i] + degree[i] as usize;
    }
    let mut fill = offsets.clone();
    let mut adj = vec![(0u32, 0f32); offsets[n]];
    for &(a, b, s) in edges {
        adj[fill[a as usize]] = (b, s);
        fill[a as usize] += 1;
        adj[fill[b as usize]] = (a, s);
        fill[b as usize] += 1;
    }
    let neighbours = |r: usize| &adj[offsets[r]..offsets[r + 1]];
    // Greedy maximal independent set in rank order; `first[v]` = best main of v.
    let mut first: Vec<u32> = vec![u32::MAX; n];
    let mut mains = Vec::new();
    for r in 0..n {
        if offsets[r] == offsets[r + 1] || first[r] != u32::MAX {
            continue;
        }
        first[r] = r as u32;
        mains.push(r as u32);
        for &(v, _) in neighbours(r) {
            if first[v as usize] == u32::MAX {
                first[v as usize] = r as u32;
            }
        }
    }
    mains
        .into_iter()
        .map(|m| {
            let mut members = vec![(m, 1.0, true)];
            members.extend(
                neighbours(m as usize)
                    .iter()
                    .map(|&(v, s)| (v, s, first[v as usize] == m)),
            );
            Star { main: m, members }
        })
        .collect()
}

/// How verified pairs become clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClusterMode {
    Components,
    #[default]
    Strict,
    /// Maximal frequent itemsets of the documents' bottom-k sketches (seed 000):
    /// documents that all share a number of sketch elements (`dedup::itemsets`).
    Itemsets,
}

impl std::str::FromStr for ClusterMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "components" => Ok(ClusterMode::Components),
            "strict" => Ok(ClusterMode::Strict),
            "itemsets" => Ok(ClusterMode::Itemsets),
            _ => Err(format!(
                "unknown cluster mode `{s}` (strict, components, itemsets)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_find_components() {
        let mut uf = UnionFind::new(6);
        uf.union(0, 1);
        uf.union(4, 1);
        uf.union(2, 3);
        assert_eq!(uf.components(), vec![vec![0, 1, 4], vec![2, 3]]);
    }

    #[test]
    fn chain_members_are_shared_not_dropped() {
        // 0~1, 1~2, 0≁2: 0 is a main with 1; 2 is not similar to 0, so it is a main too,
        // and 1 is listed in its cluster as shared.
        let got = stars(4, &[(0, 1, 0.9), (1, 2, 0.85)]);
        assert_eq!(
            got,
            vec![
                Star {
                    main: 0,
                    members: vec![(0, 1.0, true), (1, 0.9, true)]
                },
                Star {
                    main: 2,
                    members: vec![(2, 1.0, true), (1, 0.85, false)]
                },
            ]
        );
        // A star whose center ranks below its leaves: the best leaf is the main.
        let s = stars(4, &[(0, 3, 0.9), (1, 3, 0.9), (2, 3, 0.9)]);
        assert_eq!(s.iter().map(|s| s.main).collect::<Vec<_>>(), [0, 1, 2]);
        assert!(s.iter().all(|s| s.members.len() == 2));
    }
}
