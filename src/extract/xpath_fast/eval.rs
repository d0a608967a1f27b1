//! Running a compiled [`Plan`] on the page index: the steps over sorted node sets, the
//! predicates (boolean and string expressions) on one node, and the XPath string
//! functions the subset needs (`normalize-space`, `translate`).

use super::arena::{Arena, Kind};
use super::plan::{BExpr, Item, Plan, Pred, SExpr, Step};
use super::strings::{is_xml_space, normalize_space, translate};

impl Plan {
    /// The selected nodes, in document order, without duplicates.
    pub fn select(&self, arena: &Arena) -> Vec<Item> {
        let mut ctx: Vec<u32> = vec![0];
        for step in &self.steps {
            ctx = step.apply(arena, &ctx);
            if ctx.is_empty() {
                return Vec::new();
            }
        }
        match &self.attr {
            None => ctx.into_iter().map(Item::Node).collect(),
            Some((descendant, name)) => {
                let owners = if *descendant {
                    descendant_or_self(arena, &ctx)
                } else {
                    ctx
                };
                owners
                    .into_iter()
                    .filter(|&i| arena.nodes[i as usize].kind == Kind::Element)
                    .filter(|&i| arena.attr(i, name).is_some())
                    .map(|i| Item::Attr(i, name.clone()))
                    .collect()
            }
        }
    }

    /// Text of an item: a node's string-value or an attribute's value.
    pub fn item_string(arena: &Arena, item: &Item) -> String {
        match item {
            Item::Node(i) => arena.string_value(*i),
            Item::Attr(i, name) => arena.attr(*i, name).unwrap_or_default(),
        }
    }
}

/// Elements (and the root) among the descendants-or-self of a sorted set, sorted.
fn descendant_or_self(arena: &Arena, ctx: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut covered = 0u32;
    for &c in ctx {
        if c < covered {
            continue;
        }
        let end = arena.nodes[c as usize].end;
        for j in c..end {
            if arena.nodes[j as usize].kind != Kind::Text {
                out.push(j);
            }
        }
        covered = end;
    }
    out
}

impl Step {
    fn name_ok(&self, arena: &Arena, i: u32) -> bool {
        let n = &arena.nodes[i as usize];
        match &self.name {
            None => n.kind == Kind::Element,
            Some(want) => n.name.as_ref() == Some(want),
        }
    }

    fn positional(&self) -> bool {
        self.preds.iter().any(|p| matches!(p, Pred::Position(_)))
    }

    /// Apply the step to a sorted, duplicate-free context; the result is the same.
    fn apply(&self, arena: &Arena, ctx: &[u32]) -> Vec<u32> {
        let mut out = Vec::new();
        if self.descendant && !self.positional() {
            // Every element strictly below a context node: one scan of each subtree.
            let mut covered = 0u32;
            for &c in ctx {
                if c < covered {
                    continue;
                }
                let end = arena.nodes[c as usize].end;
                for j in c + 1..end {
                    if self.name_ok(arena, j)
                        && self.preds.iter().all(|p| match p {
                            Pred::Bool(b) => b.eval(arena, j),
                            Pred::Position(_) => unreachable!(),
                        })
                    {
                        out.push(j);
                    }
                }
                covered = end;
            }
            return out;
        }
        let parents: Vec<u32>;
        let parents: &[u32] = if self.descendant {
            parents = descendant_or_self(arena, ctx);
            &parents
        } else {
            ctx
        };
        let mut cand: Vec<u32> = Vec::new();
        for &p in parents {
            cand.clear();
            cand.extend(arena.children(p).filter(|&c| self.name_ok(arena, c)));
            for pred in &self.preds {
                match pred {
                    Pred::Position(n) => {
                        let keep = cand.get(n - 1).copied();
                        cand.clear();
                        cand.extend(keep);
                    }
                    Pred::Bool(b) => cand.retain(|&c| b.eval(arena, c)),
                }
                if cand.is_empty() {
                    break;
                }
            }
            out.extend_from_slice(&cand);
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl BExpr {
    fn eval(&self, arena: &Arena, i: u32) -> bool {
        match self {
            BExpr::Or(a, b) => a.eval(arena, i) || b.eval(arena, i),
            BExpr::And(a, b) => a.eval(arena, i) && b.eval(arena, i),
            BExpr::Not(a) => !a.eval(arena, i),
            BExpr::HasAttr(name) => {
                arena.with_attrs(i, |attrs| attrs.iter().any(|a| &*a.name.local == name))
            }
            BExpr::AttrCmp(name, v, neg) => arena.with_attrs(i, |attrs| {
                attrs
                    .iter()
                    .rev()
                    .find(|a| &*a.name.local == name)
                    .is_some_and(|a| &*a.value == v.as_str())
                    != *neg
            }),
            BExpr::AttrHas(name, v, prefix) => arena.with_attrs(i, |attrs| {
                let a = attrs
                    .iter()
                    .rev()
                    .find(|a| &*a.name.local == name)
                    .map_or("", |a| &*a.value);
                if *prefix {
                    a.starts_with(v.as_str())
                } else {
                    a.contains(v.as_str())
                }
            }),
            BExpr::AttrWord(name, v) => arena.with_attrs(i, |attrs| {
                attrs
                    .iter()
                    .rev()
                    .find(|a| &*a.name.local == name)
                    .is_some_and(|a| a.value.split(is_xml_space).any(|w| w == v.as_str()))
            }),
            BExpr::StrCmp(a, b, neg) => (a.eval(arena, i) == b.eval(arena, i)) != *neg,
            BExpr::Contains(a, b) => a.eval(arena, i).contains(b.eval(arena, i).as_str()),
            BExpr::StartsWith(a, b) => a.eval(arena, i).starts_with(b.eval(arena, i).as_str()),
            BExpr::TextStarts(v, normalize) => text_starts(arena, i, v, *normalize),
        }
    }
}

impl SExpr {
    fn eval(&self, arena: &Arena, i: u32) -> String {
        match self {
            SExpr::Attr(name) => arena.attr(i, name).unwrap_or_default(),
            SExpr::Dot => arena.string_value(i),
            SExpr::Lit(s) => s.clone(),
            SExpr::NormalizeSpace(a) => normalize_space(&a.eval(arena, i)),
            SExpr::Concat(parts) => parts.iter().map(|p| p.eval(arena, i)).collect(),
            SExpr::Translate(s, from, to) => {
                translate(&s.eval(arena, i), &from.eval(arena, i), &to.eval(arena, i))
            }
        }
    }
}

/// Whether the string-value of node `i` (whitespace-normalized when `normalize`) starts
/// with `prefix`: its text nodes are read only until `prefix.len()` bytes of it are
/// known. Normalized, a space is written only before the next word, so what is built is
/// always a prefix of `normalize-space(.)`.
fn text_starts(arena: &Arena, i: u32, prefix: &str, normalize: bool) -> bool {
    let mut got = String::new();
    let mut space = false;
    let end = arena.nodes[i as usize].end;
    for j in i..end {
        if got.len() >= prefix.len() {
            break;
        }
        arena.with_text(j, |t| {
            if !normalize {
                got.push_str(t);
                return;
            }
            for c in t.chars() {
                if is_xml_space(c) {
                    space = !got.is_empty();
                } else {
                    if space {
                        got.push(' ');
                        space = false;
                    }
                    got.push(c);
                }
            }
        });
    }
    got.starts_with(prefix)
}
