//! A fast evaluator for the XPath subset that rule files use, directly on the html5ever
//! tree (no sxd-document copy, no per-step allocation of node sets by sxd-xpath).
//!
//! - [`Plan::compile`] parses an expression once (per rule set load) into a small plan,
//!   or returns `None` when the expression is outside the subset; such expressions keep
//!   going through sxd-xpath (`rules.rs`). Plans are plain data (`Send + Sync`).
//! - The subset: absolute location paths of `/` and `//` steps with a name test or `*`,
//!   an optional final attribute step `/@name` (or `//@name`), and predicates made of
//!   `@a`, `@a = 'v'`, `@a != 'v'`, `contains(S, S)`, `starts-with(S, S)`, `not(..)`,
//!   `and`, `or`, parentheses and positional `[n]`, where `S` is `@a`, a string literal,
//!   `normalize-space(S)`, `concat(S, S, ..)` or `translate(S, S, S)`. Everything else
//!   (other axes, `text()`, `node()`, `.`, numbers other than a bare `[n]`, unions,
//!   string-valued top-level expressions…) is left to sxd-xpath.
//! - [`Arena::build`] indexes the tree once per page in document order, exactly as
//!   `xml::to_xml` converts it (elements and text only; only the first root element;
//!   elements deeper than `MAX_DEPTH` flattened into their ancestor; attribute names that
//!   are not XML names invisible), so a plan selects the nodes sxd-xpath would select on
//!   the converted document — the differential tests in `rules.rs` check this on every
//!   fixture page.

use html5ever::LocalName;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

use super::dom::MAX_DEPTH;
use super::xml::is_xml_name;

// ───────────────────────────── the page index ─────────────────────────────

/// What an arena node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Root,
    Element,
    Text,
}

/// One node of the page, in document order.
pub struct ANode {
    pub handle: Option<Handle>,
    /// The element's local name (kept here so that name tests need no pointer chase).
    pub name: Option<LocalName>,
    pub kind: Kind,
    /// Index of the parent (0 for the root itself).
    pub parent: u32,
    /// One past the last descendant: the subtree is `index..end`.
    pub end: u32,
}

/// The page's nodes in document order (index 0 = the document root).
pub struct Arena {
    pub nodes: Vec<ANode>,
}

impl Arena {
    /// Index the tree the way `xml::to_xml` converts it.
    pub fn build(tree: &RcDom) -> Arena {
        let mut nodes = Vec::with_capacity(256);
        nodes.push(ANode {
            handle: None,
            name: None,
            kind: Kind::Root,
            parent: 0,
            end: 0,
        });
        // (node, parent index, depth); `end` is filled in afterwards, from the parents.
        let mut stack: Vec<(Handle, u32, usize)> = Vec::with_capacity(64);
        let mut have_root_element = false;
        for child in tree.document.children.borrow().iter().rev() {
            stack.push((child.clone(), 0, 0));
        }
        // The document-level children come in order; only the first element is kept.
        while let Some((node, parent, depth)) = stack.pop() {
            {
                match &node.data {
                    NodeData::Element { name, .. } => {
                        if depth >= MAX_DEPTH {
                            for c in node.children.borrow().iter().rev() {
                                stack.push((c.clone(), parent, depth));
                            }
                            continue;
                        }
                        if parent == 0 {
                            if have_root_element {
                                continue;
                            }
                            have_root_element = true;
                        }
                        let i = nodes.len() as u32;
                        for c in node.children.borrow().iter().rev() {
                            stack.push((c.clone(), i, depth + 1));
                        }
                        let name = Some(name.local.clone());
                        nodes.push(ANode {
                            handle: Some(node),
                            name,
                            kind: Kind::Element,
                            parent,
                            end: i + 1,
                        });
                    }
                    NodeData::Text { .. } if parent != 0 => {
                        let i = nodes.len() as u32;
                        nodes.push(ANode {
                            handle: Some(node),
                            name: None,
                            kind: Kind::Text,
                            parent,
                            end: i + 1,
                        });
                    }
                    _ => {}
                }
            }
        }
        // A subtree ends where its last descendant's does (children come after parents).
        nodes[0].end = nodes.len() as u32;
        for i in (1..nodes.len()).rev() {
            let (end, parent) = (nodes[i].end, nodes[i].parent as usize);
            if nodes[parent].end < end {
                nodes[parent].end = end;
            }
        }
        Arena { nodes }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The element's local name (`None` for text and the root).
    pub fn name(&self, i: u32) -> Option<&LocalName> {
        self.nodes[i as usize].name.as_ref()
    }

    /// An attribute's value as the XML document has it (the last attribute with that
    /// local name; names that are not XML names do not exist there).
    pub fn attr(&self, i: u32, name: &str) -> Option<String> {
        match &self.nodes[i as usize].handle.as_ref()?.data {
            NodeData::Element { attrs, .. } => attrs
                .borrow()
                .iter()
                .rev()
                .find(|a| &*a.name.local == name)
                .map(|a| a.value.to_string()),
            _ => None,
        }
    }

    /// Calls `f` with the element's attributes (an empty list for other nodes).
    pub fn with_attrs<R>(&self, i: u32, f: impl FnOnce(&[html5ever::Attribute]) -> R) -> R {
        match self.nodes[i as usize].handle.as_ref().map(|h| &h.data) {
            Some(NodeData::Element { attrs, .. }) => f(&attrs.borrow()),
            _ => f(&[]),
        }
    }

    /// Children of `i`, in order.
    pub fn children(&self, i: u32) -> impl Iterator<Item = u32> + '_ {
        let end = self.nodes[i as usize].end;
        let mut next = i + 1;
        std::iter::from_fn(move || {
            if next >= end {
                return None;
            }
            let c = next;
            next = self.nodes[c as usize].end;
            Some(c)
        })
    }

    /// XPath string-value: all text below the node, in order.
    pub fn string_value(&self, i: u32) -> String {
        let mut out = String::new();
        let end = self.nodes[i as usize].end;
        for j in i..end {
            self.push_text(j, &mut out);
        }
        out
    }

    /// Calls `f` with the text of a text node (nothing for other nodes).
    pub fn with_text(&self, j: u32, f: impl FnOnce(&str)) {
        let n = &self.nodes[j as usize];
        if let Some(NodeData::Text { contents }) = n.handle.as_ref().map(|h| &h.data) {
            f(&contents.borrow());
        }
    }

    /// Append the text of node `j` when it is a text node.
    pub fn push_text(&self, j: u32, out: &mut String) {
        let n = &self.nodes[j as usize];
        if n.kind == Kind::Text {
            if let Some(NodeData::Text { contents }) = n.handle.as_ref().map(|h| &h.data) {
                out.push_str(&contents.borrow());
            }
        }
    }

    /// Whether selecting this node means selecting the whole page: the root, the root
    /// element, or `body` right under it (as `rules::is_whole_document`).
    pub fn is_whole_document(&self, i: u32) -> bool {
        let n = &self.nodes[i as usize];
        match n.kind {
            Kind::Root => true,
            Kind::Element => {
                n.parent == 0
                    || (self.name(i).is_some_and(|l| &**l == "body")
                        && self.nodes[n.parent as usize].parent == 0)
            }
            Kind::Text => false,
        }
    }

    /// `/html/body/div[@id='content']`: where a node is (as `rules::node_path`).
    pub fn node_path(&self, item: Item) -> String {
        let (mut i, last) = match item {
            Item::Node(i) => (i, None),
            Item::Attr(i, name) => (i, Some(format!("@{name}"))),
        };
        let mut parts: Vec<String> = last.into_iter().collect();
        loop {
            let n = &self.nodes[i as usize];
            match n.kind {
                Kind::Root => break,
                Kind::Text => parts.push("text()".into()),
                Kind::Element => {
                    let name = self.name(i).map(|l| l.to_string()).unwrap_or_default();
                    let part = if let Some(id) = self.attr(i, "id") {
                        format!("{name}[@id='{id}']")
                    } else if let Some(class) = self.attr(i, "class") {
                        format!("{name}[@class='{class}']")
                    } else {
                        name
                    };
                    parts.push(part);
                }
            }
            i = n.parent;
        }
        parts.reverse();
        format!("/{}", parts.join("/"))
    }
}

// ───────────────────────────── plans ─────────────────────────────

/// A compiled expression of the subset: an absolute location path.
#[derive(Debug, Clone)]
pub struct Plan {
    steps: Vec<Step>,
    /// Final attribute step: (preceded by `//`, name).
    attr: Option<(bool, String)>,
}

#[derive(Debug, Clone)]
struct Step {
    /// Preceded by `//` (descendant-or-self of the context, then child).
    descendant: bool,
    /// `None` = `*`.
    name: Option<LocalName>,
    preds: Vec<Pred>,
}

#[derive(Debug, Clone)]
enum Pred {
    Position(usize),
    Bool(BExpr),
}

#[derive(Debug, Clone)]
enum BExpr {
    Or(Box<BExpr>, Box<BExpr>),
    And(Box<BExpr>, Box<BExpr>),
    Not(Box<BExpr>),
    /// `@a`: the attribute exists.
    HasAttr(String),
    /// `contains(@a, 'v')` / `starts-with(@a, 'v')` (`true` for starts-with).
    AttrHas(String, String, bool),
    /// `contains(concat(' ', normalize-space(@a), ' '), ' v ')`: `v` is one of the
    /// space-separated words of `@a`.
    AttrWord(String, String),
    /// `@a = 'v'`: there is such an attribute with that value. `@a != 'v'` is, as in
    /// sxd-xpath, `not(@a = 'v')` (also true when there is no such attribute).
    AttrCmp(String, String, bool),
    /// `S = S` (or `!=`) on strings, neither side a bare attribute.
    StrCmp(SExpr, SExpr, bool),
    Contains(SExpr, SExpr),
    StartsWith(SExpr, SExpr),
}

#[derive(Debug, Clone)]
enum SExpr {
    /// `@a` as a string ("" when missing).
    Attr(String),
    Lit(String),
    NormalizeSpace(Box<SExpr>),
    Concat(Vec<SExpr>),
    Translate(Box<SExpr>, Box<SExpr>, Box<SExpr>),
}

/// A selected node: a tree node, or an attribute of an element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Node(u32),
    Attr(u32, String),
}

impl Item {
    pub fn owner(&self) -> u32 {
        match self {
            Item::Node(i) | Item::Attr(i, _) => *i,
        }
    }
}

impl Plan {
    /// Compile `expr` when it is inside the subset; `None` otherwise.
    pub fn compile(expr: &str) -> Option<Plan> {
        let tokens = tokenize(expr)?;
        let mut p = Parser { t: &tokens, i: 0 };
        let plan = p.path()?;
        (p.i == tokens.len()).then_some(plan)
    }

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
        }
    }
}

fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

impl SExpr {
    fn eval(&self, arena: &Arena, i: u32) -> String {
        match self {
            SExpr::Attr(name) => arena.attr(i, name).unwrap_or_default(),
            SExpr::Lit(s) => s.clone(),
            SExpr::NormalizeSpace(a) => normalize_space(&a.eval(arena, i)),
            SExpr::Concat(parts) => parts.iter().map(|p| p.eval(arena, i)).collect(),
            SExpr::Translate(s, from, to) => {
                translate(&s.eval(arena, i), &from.eval(arena, i), &to.eval(arena, i))
            }
        }
    }
}

// ───────────────────────────── string expressions ─────────────────────────────

/// A compiled string-valued expression (a `title` or `date` such as
/// `normalize-space(substring-before(substring-after(//div[@class='date'], 'on'), '|'))`):
/// string literals, location paths of the subset (the first node's string-value), and
/// `normalize-space`, `substring-before`, `substring-after`, `concat`, `translate`,
/// `string` of those.
#[derive(Debug, Clone)]
pub struct StrPlan(TExpr);

#[derive(Debug, Clone)]
enum TExpr {
    Lit(String),
    Path(Plan),
    NormalizeSpace(Box<TExpr>),
    Before(Box<TExpr>, Box<TExpr>),
    After(Box<TExpr>, Box<TExpr>),
    Concat(Vec<TExpr>),
    Translate(Box<TExpr>, Box<TExpr>, Box<TExpr>),
}

impl StrPlan {
    /// Compile a string function call of the subset; `None` otherwise (a bare path is
    /// a [`Plan`]).
    pub fn compile(expr: &str) -> Option<StrPlan> {
        let tokens = tokenize(expr)?;
        let mut p = Parser { t: &tokens, i: 0 };
        if !matches!(p.peek(), Some(Tok::Name(_))) {
            return None;
        }
        let e = p.text()?;
        (p.i == tokens.len()).then_some(StrPlan(e))
    }

    pub fn eval(&self, arena: &Arena) -> String {
        self.0.eval(arena)
    }
}

impl TExpr {
    fn eval(&self, arena: &Arena) -> String {
        match self {
            TExpr::Lit(s) => s.clone(),
            TExpr::Path(p) => p
                .select(arena)
                .first()
                .map(|it| Plan::item_string(arena, it))
                .unwrap_or_default(),
            TExpr::NormalizeSpace(a) => normalize_space(&a.eval(arena)),
            TExpr::Before(a, b) => {
                let (a, b) = (a.eval(arena), b.eval(arena));
                a.find(b.as_str())
                    .map(|k| a[..k].to_string())
                    .unwrap_or_default()
            }
            TExpr::After(a, b) => {
                let (a, b) = (a.eval(arena), b.eval(arena));
                a.find(b.as_str())
                    .map(|k| a[k + b.len()..].to_string())
                    .unwrap_or_default()
            }
            TExpr::Concat(parts) => parts.iter().map(|p| p.eval(arena)).collect(),
            TExpr::Translate(s, from, to) => {
                translate(&s.eval(arena), &from.eval(arena), &to.eval(arena))
            }
        }
    }
}

fn normalize_space(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split(is_xml_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// XPath `translate`: each character of `from` becomes the one at the same place in
/// `to` (the first occurrence in `from` counts), or is dropped when `to` is shorter.
fn translate(s: &str, from: &str, to: &str) -> String {
    let to: Vec<char> = to.chars().collect();
    s.chars()
        .filter_map(|c| match from.chars().position(|f| f == c) {
            Some(k) => to.get(k).copied(),
            None => Some(c),
        })
        .collect()
}

// ───────────────────────────── parsing ─────────────────────────────

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Slash,
    DSlash,
    LBracket,
    RBracket,
    LParen,
    RParen,
    At,
    Eq,
    Ne,
    Comma,
    Star,
    Name(String),
    Lit(String),
    Num(String),
    /// Anything else (`.`, `|`, `::`, `$`, `<`…): the expression is outside the subset.
    Other,
}

fn tokenize(expr: &str) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let cs: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if is_xml_space(c) {
            i += 1;
            continue;
        }
        let tok = match c {
            '/' if cs.get(i + 1) == Some(&'/') => {
                i += 1;
                Tok::DSlash
            }
            '/' => Tok::Slash,
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '@' => Tok::At,
            '=' => Tok::Eq,
            '!' if cs.get(i + 1) == Some(&'=') => {
                i += 1;
                Tok::Ne
            }
            ',' => Tok::Comma,
            '*' => Tok::Star,
            '\'' | '"' => {
                let close = cs[i + 1..].iter().position(|&x| x == c)?;
                let s: String = cs[i + 1..i + 1 + close].iter().collect();
                i += close + 1;
                Tok::Lit(s)
            }
            d if d.is_ascii_digit() => {
                let start = i;
                while i + 1 < cs.len() && (cs[i + 1].is_ascii_digit() || cs[i + 1] == '.') {
                    i += 1;
                }
                Tok::Num(cs[start..=i].iter().collect())
            }
            a if a.is_alphabetic() || a == '_' => {
                let start = i;
                while i + 1 < cs.len()
                    && (cs[i + 1].is_alphanumeric() || matches!(cs[i + 1], '-' | '_' | '.'))
                {
                    i += 1;
                }
                // `a:b` and `axis::` are outside the subset.
                if cs.get(i + 1) == Some(&':') {
                    return None;
                }
                Tok::Name(cs[start..=i].iter().collect())
            }
            _ => Tok::Other,
        };
        if tok == Tok::Other {
            return None;
        }
        out.push(tok);
        i += 1;
    }
    Some(out)
}

/// `concat(' ', normalize-space(@a), ' ')` tested for `' w '` (one word, no spaces):
/// the class-token idiom, decided without building the strings.
fn word_test(parts: &[SExpr], v: &str) -> Option<BExpr> {
    let [SExpr::Lit(l), SExpr::NormalizeSpace(inner), SExpr::Lit(r)] = parts else {
        return None;
    };
    let SExpr::Attr(a) = &**inner else {
        return None;
    };
    let w = v.strip_prefix(' ')?.strip_suffix(' ')?;
    (l == " " && r == " " && !w.is_empty() && !w.contains(is_xml_space))
        .then(|| BExpr::AttrWord(a.clone(), w.to_string()))
}

struct Parser<'t> {
    t: &'t [Tok],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.t.get(self.i)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.t.get(self.i + k)
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn path(&mut self) -> Option<Plan> {
        let mut steps = Vec::new();
        let mut attr = None;
        loop {
            let descendant = match self.peek() {
                Some(Tok::Slash) => false,
                Some(Tok::DSlash) => true,
                _ if !steps.is_empty() => break,
                _ => return None,
            };
            self.i += 1;
            if self.eat(&Tok::At) {
                let Some(Tok::Name(n)) = self.peek().cloned() else {
                    return None;
                };
                self.i += 1;
                if !is_xml_name(&n) {
                    return None;
                }
                attr = Some((descendant, n));
                break;
            }
            let name = match self.peek().cloned() {
                Some(Tok::Star) => None,
                Some(Tok::Name(n)) => {
                    if self.peek_at(1) == Some(&Tok::LParen) {
                        return None; // node(), text()…
                    }
                    Some(LocalName::from(n.as_str()))
                }
                _ => return None,
            };
            self.i += 1;
            let mut preds = Vec::new();
            while self.eat(&Tok::LBracket) {
                let pred = match (self.peek().cloned(), self.peek_at(1)) {
                    (Some(Tok::Num(n)), Some(Tok::RBracket)) => {
                        self.i += 1;
                        let k: usize = n.parse().ok()?;
                        if k == 0 {
                            return None;
                        }
                        Pred::Position(k)
                    }
                    _ => Pred::Bool(self.or()?),
                };
                if !self.eat(&Tok::RBracket) {
                    return None;
                }
                preds.push(pred);
            }
            steps.push(Step {
                descendant,
                name,
                preds,
            });
        }
        if steps.is_empty() && attr.is_none() {
            return None;
        }
        Some(Plan { steps, attr })
    }

    /// A string expression at the top level (see [`StrPlan`]).
    /// The arguments of a function call up to and including its `)` (the name and `(`
    /// already consumed), each parsed by `arg`.
    fn call_args<T>(&mut self, arg: fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let mut args = Vec::new();
        if self.peek() != Some(&Tok::RParen) {
            loop {
                args.push(arg(self)?);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        self.eat(&Tok::RParen).then_some(args)
    }

    fn text(&mut self) -> Option<TExpr> {
        match self.peek().cloned()? {
            Tok::Lit(s) => {
                self.i += 1;
                Some(TExpr::Lit(s))
            }
            Tok::Slash | Tok::DSlash => Some(TExpr::Path(self.path()?)),
            Tok::Name(f) if self.peek_at(1) == Some(&Tok::LParen) => {
                self.i += 2;
                let args = self.call_args(Self::text)?;
                let mut a = args.into_iter().map(Box::new);
                let e = match (f.as_str(), a.len()) {
                    ("normalize-space", 1) => TExpr::NormalizeSpace(a.next()?),
                    ("string", 1) => *a.next()?,
                    ("substring-before", 2) => TExpr::Before(a.next()?, a.next()?),
                    ("substring-after", 2) => TExpr::After(a.next()?, a.next()?),
                    ("translate", 3) => TExpr::Translate(a.next()?, a.next()?, a.next()?),
                    ("concat", n) if n >= 2 => TExpr::Concat(a.map(|b| *b).collect()),
                    _ => return None,
                };
                Some(e)
            }
            _ => None,
        }
    }

    fn keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(n)) if n == k)
    }

    fn or(&mut self) -> Option<BExpr> {
        let mut left = self.and()?;
        while self.keyword("or") {
            self.i += 1;
            let right = self.and()?;
            left = BExpr::Or(Box::new(left), Box::new(right));
        }
        Some(left)
    }

    fn and(&mut self) -> Option<BExpr> {
        let mut left = self.comparison()?;
        while self.keyword("and") {
            self.i += 1;
            let right = self.comparison()?;
            left = BExpr::And(Box::new(left), Box::new(right));
        }
        Some(left)
    }

    /// A boolean primary, or a string expression compared with `=` / `!=`.
    fn comparison(&mut self) -> Option<BExpr> {
        // Boolean primaries first.
        match (self.peek().cloned(), self.peek_at(1)) {
            (Some(Tok::LParen), _) => {
                self.i += 1;
                let e = self.or()?;
                if !self.eat(&Tok::RParen) {
                    return None;
                }
                return self.no_comparison_after(e);
            }
            (Some(Tok::Name(n)), Some(Tok::LParen))
                if matches!(n.as_str(), "not" | "contains" | "starts-with") =>
            {
                self.i += 2;
                let e = match n.as_str() {
                    "not" => BExpr::Not(Box::new(self.or()?)),
                    _ => {
                        let a = self.string()?;
                        if !self.eat(&Tok::Comma) {
                            return None;
                        }
                        let b = self.string()?;
                        let contains = n == "contains";
                        match (a, b) {
                            (SExpr::Attr(a), SExpr::Lit(v)) => BExpr::AttrHas(a, v, !contains),
                            (SExpr::Concat(parts), SExpr::Lit(v)) if contains => {
                                match word_test(&parts, &v) {
                                    Some(e) => e,
                                    None => BExpr::Contains(SExpr::Concat(parts), SExpr::Lit(v)),
                                }
                            }
                            (a, b) if contains => BExpr::Contains(a, b),
                            (a, b) => BExpr::StartsWith(a, b),
                        }
                    }
                };
                if !self.eat(&Tok::RParen) {
                    return None;
                }
                return self.no_comparison_after(e);
            }
            _ => {}
        }
        let left = self.string()?;
        let neg = match self.peek() {
            Some(Tok::Eq) => false,
            Some(Tok::Ne) => true,
            _ => {
                // A bare string expression as a boolean: only `@a` (existence).
                return match left {
                    SExpr::Attr(a) => Some(BExpr::HasAttr(a)),
                    _ => None,
                };
            }
        };
        self.i += 1;
        let right = self.string()?;
        Some(match (left, right) {
            (SExpr::Attr(a), SExpr::Lit(v)) | (SExpr::Lit(v), SExpr::Attr(a)) => {
                BExpr::AttrCmp(a, v, neg)
            }
            // A bare attribute compared with anything else is a node-set comparison.
            (SExpr::Attr(_), _) | (_, SExpr::Attr(_)) => return None,
            (l, r) => BExpr::StrCmp(l, r, neg),
        })
    }

    /// `not(x) = …` compares booleans: outside the subset.
    fn no_comparison_after(&self, e: BExpr) -> Option<BExpr> {
        match self.peek() {
            Some(Tok::Eq) | Some(Tok::Ne) => None,
            _ => Some(e),
        }
    }

    fn string(&mut self) -> Option<SExpr> {
        match self.peek().cloned()? {
            Tok::At => {
                self.i += 1;
                let Some(Tok::Name(n)) = self.peek().cloned() else {
                    return None;
                };
                self.i += 1;
                if !is_xml_name(&n) || self.peek() == Some(&Tok::LParen) {
                    return None;
                }
                Some(SExpr::Attr(n))
            }
            Tok::Lit(s) => {
                self.i += 1;
                Some(SExpr::Lit(s))
            }
            Tok::Name(f) if self.peek_at(1) == Some(&Tok::LParen) => {
                self.i += 2;
                let mut args = self.call_args(Self::string)?;
                match (f.as_str(), args.len()) {
                    ("normalize-space", 1) => {
                        Some(SExpr::NormalizeSpace(Box::new(args.pop().expect("one"))))
                    }
                    ("concat", n) if n >= 2 => Some(SExpr::Concat(args)),
                    ("translate", 3) => {
                        let to = args.pop().expect("three");
                        let from = args.pop().expect("three");
                        let s = args.pop().expect("three");
                        Some(SExpr::Translate(Box::new(s), Box::new(from), Box::new(to)))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subset_compiles_and_the_rest_does_not() {
        for ok in [
            "//div",
            "/html/body/div[2]",
            "//div[@class='a']/div[@class='b']",
            "//article//div[contains(@class, 'x')]",
            "//*[@id='a' or not(@class)]//p[1]",
            "//div[contains(concat(' ', normalize-space(@class), ' '), ' post ')]",
            "//meta[@property='og:title']/@content",
            "//a[starts-with(@href, 'http') and @rel != 'nofollow']",
            "//div[translate(@class, 'ABC', 'abc') = 'x']",
            "//@href",
        ] {
            assert!(Plan::compile(ok).is_some(), "{ok}");
        }
        for no in [
            "//p/text()",
            "//div[1]/node()",
            "count(//p)",
            "normalize-space(//h1)",
            "//div | //p",
            "//div[position() < 3]",
            "//div[@a = 1]",
            "//div[p]",
            "//div[.='x']",
            "descendant::div",
            "//svg:svg",
            "div",
            "//div[last()]",
            "//div[0]",
            "//div[@class='a'",
            "//div[$x]",
        ] {
            assert!(Plan::compile(no).is_none(), "{no}");
        }
    }
}
