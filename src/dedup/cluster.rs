//! From verified similar pairs to clusters. Two modes (algorithms.md §4):
//! `components` — connected components (union-find), cheap but chains can pull
//! unrelated documents together; `strict` (default) — inside each component, the best
//! main candidate takes every member really similar to it, and the rest are clustered
//! again the same way, so every member of a cluster is similar to its main.
//! Both depend only on the set of documents, never on their input order.

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

/// How verified pairs become clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClusterMode {
    Components,
    #[default]
    Strict,
}

impl std::str::FromStr for ClusterMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "components" => Ok(ClusterMode::Components),
            "strict" => Ok(ClusterMode::Strict),
            _ => Err(format!("unknown cluster mode `{s}` (strict, components)")),
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
}
