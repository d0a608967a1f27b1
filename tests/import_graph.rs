//! Rules of the source tree that a reader relies on, checked on every test run:
//!
//! - no circle of imports between files of `src/` (a file can be read knowing only the
//!   files below it), and no circle between the folders at any depth (each wing and each
//!   sub-wing sits on a floor: `extract` may use `charset` but `charset` never `extract`);
//! - no file of `src/` or `tests/` over 900 lines (one concern per file).
//!
//! The import graph is read from the source text: every `use` tree and every path
//! expression that starts at `crate`, `super`, `self`, a child module or a name a `use`
//! bound, resolved through re-exports (`pub use`, and the private `use` of a `mod.rs` that
//! its children reach with `super::`) to the file that defines the item. A folder's
//! `mod.rs` and its direct parts are read together (see [`face_and_part`]); code under
//! `#[cfg(test)]` is not part of the floors.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The longest source file allowed, in lines.
const MAX_LINES: usize = 900;

#[test]
fn no_import_cycle_between_files_or_folders() {
    let graph = Graph::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("src").as_path());
    let mut problems = Vec::new();
    for scc in graph.cycles(|f| f.to_string()) {
        problems.push(format!(
            "files import each other in a circle:\n{}",
            graph.explain(&scc, |f| f.to_string())
        ));
    }
    let max_depth = graph
        .files
        .iter()
        .map(|f| f.matches('/').count())
        .max()
        .unwrap_or(0);
    for depth in 1..=max_depth {
        let folder = |f: &str| folder_at(f, depth);
        // a circle of files only is reported above, at the file level
        for scc in graph
            .cycles(folder)
            .into_iter()
            .filter(|c| c.iter().any(|n| !n.ends_with(".rs")))
        {
            problems.push(format!(
                "folders at depth {depth} import each other in a circle:\n{}",
                graph.explain(&scc, folder)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_source_file_over_the_line_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut long = Vec::new();
    for dir in ["src", "tests", "benches"] {
        for file in rust_files(&root.join(dir)) {
            let lines = std::fs::read_to_string(&file).unwrap().lines().count();
            if lines > MAX_LINES {
                long.push(format!(
                    "{} has {lines} lines",
                    file.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them by concern):\n{}",
        long.join("\n")
    );
}

/// A test of the reader itself, so that a resolver that finds no edge cannot pass the rule.
#[test]
fn the_reader_sees_a_circle_through_a_reexport() {
    let files = [
        ("lib.rs", "pub mod a;"),
        (
            "a/mod.rs",
            "mod x; mod y; pub use x::Thing; pub struct Shared;",
        ),
        (
            "a/x.rs",
            "use super::y::helper; pub struct Thing; fn f() { helper(); }",
        ),
        ("a/y.rs", "pub fn helper() { let _ = crate::a::Thing; }"),
        (
            "a/z.rs",
            "use super::Shared; fn f() -> super::Thing { todo!() }",
        ),
    ];
    let graph = Graph::from_sources(
        files
            .iter()
            .map(|(p, s)| (p.to_string(), s.to_string()))
            .collect(),
    );
    let cycles = graph.cycles(|f| f.to_string());
    assert_eq!(
        cycles,
        vec![vec!["a/x.rs".to_string(), "a/y.rs".to_string()]]
    );
    assert!(
        graph.edges["a/z.rs"].contains_key("a/mod.rs"),
        "a child uses its folder's face"
    );
    // the face re-exports a part and a part uses the face: read together, no circle
    assert!(graph.edges["a/mod.rs"].contains_key("a/x.rs"));
}

/// The folder of `file` (relative to `src/`) at `depth`: `extract/dom/text.rs` at depth 1 is
/// `extract`, at depth 2 `extract/dom`. A file above that depth is its own node.
fn folder_at(file: &str, depth: usize) -> String {
    let parts: Vec<&str> = file.split('/').collect();
    if parts.len() <= depth {
        return file.to_string();
    }
    parts[..depth].join("/")
}

/// Whether `face` is the `mod.rs` (or `lib.rs`) of a folder and `part` one of that folder's
/// direct parts (a file, a sub-folder, or the sub-folder's `mod.rs`). A folder's face and
/// its parts are read together: the face declares the parts, holds what they share, and
/// runs them in order; circles between them are not counted, circles among the parts are.
fn face_and_part(face: &str, part: &str) -> bool {
    let face_dir = match face.strip_suffix("mod.rs") {
        Some(d) => d.trim_end_matches('/'),
        None if face == "lib.rs" => "",
        None => return false,
    };
    let part = part.strip_suffix("/mod.rs").unwrap_or(part);
    let part_dir = part.rsplit_once('/').map_or("", |(d, _)| d);
    part_dir == face_dir && part != face
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

type ModPath = Vec<String>;

/// What a module's source binds: items it defines, names its `use` statements bind, globs.
#[derive(Default)]
struct Scope {
    defines: BTreeSet<String>,
    binds: HashMap<String, ModPath>,
    globs: Vec<ModPath>,
}

struct Graph {
    files: Vec<String>,
    /// file -> file it uses -> one path that shows the use.
    edges: BTreeMap<String, BTreeMap<String, String>>,
}

impl Graph {
    fn read(src: &Path) -> Graph {
        let mut sources = Vec::new();
        for f in rust_files(src) {
            let rel = f
                .strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if rel == "main.rs" {
                continue; // the binary: a crate of its own on top of the library
            }
            sources.push((rel, std::fs::read_to_string(&f).unwrap()));
        }
        Graph::from_sources(sources)
    }

    fn from_sources(sources: Vec<(String, String)>) -> Graph {
        // module path -> file
        let mut module_file: HashMap<ModPath, String> = HashMap::new();
        for (rel, _) in &sources {
            module_file.insert(module_of(rel), rel.clone());
        }
        let mut scopes: HashMap<ModPath, Scope> = HashMap::new();
        let mut uses: Vec<(String, ModPath, ModPath)> = Vec::new(); // file, module, absolute path
        let token_lists: Vec<(String, Vec<String>)> = sources
            .iter()
            .map(|(rel, text)| (rel.clone(), tokens(&strip(text))))
            .collect();
        // files that only exist under test (`#[cfg(test)] mod tests;`)
        let mut test_files = BTreeSet::new();
        for (rel, toks) in &token_lists {
            for k in 0..toks.len() {
                if is_cfg_test(&toks[k..]) && toks.get(k + 7).map(String::as_str) == Some("mod") {
                    if let Some(name) = toks.get(k + 8) {
                        let mut m = module_of(rel);
                        m.push(name.clone());
                        if let Some(f) = module_file.get(&m) {
                            test_files.insert(f.clone());
                        }
                    }
                }
            }
        }
        let sources: Vec<(String, String)> = sources
            .into_iter()
            .filter(|(r, _)| !test_files.contains(r))
            .collect();
        let token_lists: Vec<(String, Vec<String>)> = token_lists
            .into_iter()
            .filter(|(r, _)| !test_files.contains(r))
            .collect();
        for (rel, toks) in &token_lists {
            read_file(rel, toks, &mut module_file, &mut scopes, &mut uses);
        }
        let resolver = Resolver {
            module_file: &module_file,
            scopes: &scopes,
        };
        let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for (rel, _) in &sources {
            edges.entry(rel.clone()).or_default();
        }
        for (file, module, path) in uses {
            let abs = match resolver.absolute(&module, &path) {
                Some(a) => a,
                None => continue,
            };
            if let Some(target) = resolver.resolve(&abs, 0) {
                if target != file {
                    edges
                        .entry(file)
                        .or_default()
                        .entry(target)
                        .or_insert_with(|| abs.join("::"));
                }
            }
        }
        Graph {
            files: sources.into_iter().map(|(r, _)| r).collect(),
            edges,
        }
    }

    /// The strongly connected groups of more than one node, nodes being `node(file)`.
    fn cycles(&self, node: impl Fn(&str) -> String) -> Vec<Vec<String>> {
        let mut adj: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, tos) in &self.edges {
            let a = node(from);
            adj.entry(a.clone()).or_default();
            for to in tos.keys() {
                let b = node(to);
                if a != b && !face_and_part(&a, &b) && !face_and_part(&b, &a) {
                    adj.entry(a.clone()).or_default().insert(b);
                }
            }
        }
        let mut out: Vec<Vec<String>> = tarjan(&adj).into_iter().filter(|c| c.len() > 1).collect();
        for c in &mut out {
            c.sort();
        }
        out.sort();
        out
    }

    /// The edges inside one circle, each with the path that makes it.
    fn explain(&self, scc: &[String], node: impl Fn(&str) -> String) -> String {
        let mut lines = Vec::new();
        for (from, tos) in &self.edges {
            for (to, why) in tos {
                let (a, b) = (node(from), node(to));
                if a != b
                    && scc.contains(&a)
                    && scc.contains(&b)
                    && !face_and_part(&a, &b)
                    && !face_and_part(&b, &a)
                {
                    lines.push(format!("  {from} -> {to}  (uses {why})"));
                }
            }
        }
        lines.join("\n")
    }
}

fn module_of(rel: &str) -> ModPath {
    let no_ext = rel.trim_end_matches(".rs");
    let mut parts: ModPath = no_ext.split('/').map(String::from).collect();
    if matches!(parts.last().map(String::as_str), Some("mod") | Some("lib")) {
        parts.pop();
    }
    parts
}

/// Walks one file's tokens: inline modules, item definitions, `use` trees, path expressions.
fn read_file(
    rel: &str,
    toks: &[String],
    module_file: &mut HashMap<ModPath, String>,
    scopes: &mut HashMap<ModPath, Scope>,
    uses: &mut Vec<(String, ModPath, ModPath)>,
) {
    let base = module_of(rel);
    // (module path, brace depth of its body)
    let mut stack: Vec<(ModPath, usize)> = vec![(base.clone(), 0)];
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let (module, mod_depth) = stack.last().cloned().unwrap();
        let at_module_level = depth == mod_depth;
        let t = toks[i].as_str();
        if t == "#" && is_cfg_test(&toks[i..]) {
            // test code (`#[cfg(test)] mod tests { .. }`, `#[cfg(test)] mod tests;`, a
            // test-only `use` or fn) is not part of the floors: skip the item it marks
            i = skip_item(toks, i + 7);
            continue;
        }
        match t {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if stack.len() > 1 && depth < stack.last().unwrap().1 {
                    stack.pop();
                }
            }
            "mod"
                if is_ident(toks.get(i + 1))
                    && toks.get(i + 2).map(String::as_str) == Some("{") =>
            {
                let mut inner = module.clone();
                inner.push(toks[i + 1].clone());
                module_file.insert(inner.clone(), rel.to_string());
                depth += 1;
                stack.push((inner, depth));
                i += 3;
                continue;
            }
            "use" => {
                let end = (i..toks.len())
                    .find(|&j| toks[j] == ";")
                    .unwrap_or(toks.len());
                let mut leaves = Vec::new();
                use_tree(&toks[i + 1..end], &mut Vec::new(), &mut leaves);
                let scope = scopes.entry(module.clone()).or_default();
                for (path, alias) in leaves {
                    if path.last().map(String::as_str) == Some("*") {
                        let mut g = path.clone();
                        g.pop();
                        scope.globs.push(g);
                    } else if let Some(name) = alias {
                        if name != "_" {
                            scope.binds.insert(name, path.clone());
                        }
                    }
                    uses.push((
                        rel.to_string(),
                        module.clone(),
                        path.into_iter().filter(|s| s != "*").collect(),
                    ));
                }
                i = end + 1;
                continue;
            }
            "fn" | "struct" | "enum" | "const" | "static" | "type" | "trait" | "union"
                if at_module_level && is_ident(toks.get(i + 1)) =>
            {
                scopes
                    .entry(module.clone())
                    .or_default()
                    .defines
                    .insert(toks[i + 1].clone());
            }
            _ if is_ident(Some(&toks[i])) && toks.get(i + 1).map(String::as_str) == Some("::") => {
                // a path expression: IDENT (:: IDENT)*
                let prev = if i > 0 { toks[i - 1].as_str() } else { "" };
                if prev != "::" && prev != "." {
                    let mut path = vec![toks[i].clone()];
                    let mut j = i + 1;
                    while toks.get(j).map(String::as_str) == Some("::") && is_ident(toks.get(j + 1))
                    {
                        path.push(toks[j + 1].clone());
                        j += 2;
                    }
                    uses.push((rel.to_string(), module.clone(), path));
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// `# [ cfg ( test ) ]` at `toks[0..7]`.
fn is_cfg_test(toks: &[String]) -> bool {
    let want = ["#", "[", "cfg", "(", "test", ")", "]"];
    toks.len() >= 7 && toks[..7].iter().zip(want).all(|(a, b)| a == b)
}

/// The index after the item that starts at `i` (its `;` or its closing brace).
fn skip_item(toks: &[String], i: usize) -> usize {
    let mut j = i;
    while j < toks.len() {
        match toks[j].as_str() {
            ";" => return j + 1,
            "{" => return matching(toks, j) + 1,
            _ => j += 1,
        }
    }
    j
}

/// Expands a `use` tree into (path, name bound) leaves.
fn use_tree(toks: &[String], prefix: &mut Vec<String>, out: &mut Vec<(ModPath, Option<String>)>) {
    let mut i = 0;
    let mut path = prefix.clone();
    while i < toks.len() {
        let t = toks[i].as_str();
        match t {
            "::" => {}
            "{" => {
                let close = matching(toks, i);
                for part in split_top(&toks[i + 1..close]) {
                    use_tree(part, &mut path.clone(), out);
                }
                return;
            }
            "*" => {
                path.push("*".into());
                out.push((path, None));
                return;
            }
            "as" => {
                let alias = toks.get(i + 1).cloned();
                let p = normalize_self(path);
                out.push((p, alias));
                return;
            }
            _ => path.push(t.to_string()),
        }
        i += 1;
    }
    if path.len() > prefix.len() || !path.is_empty() {
        let p = normalize_self(path);
        let name = p.last().cloned();
        out.push((p, name));
    }
}

/// `a::b::self` is `a::b`.
fn normalize_self(mut p: ModPath) -> ModPath {
    if p.len() > 1 && p.last().map(String::as_str) == Some("self") {
        p.pop();
    }
    p
}

fn matching(toks: &[String], open: usize) -> usize {
    let mut d = 0;
    for (j, t) in toks.iter().enumerate().skip(open) {
        if t == "{" {
            d += 1;
        } else if t == "}" {
            d -= 1;
            if d == 0 {
                return j;
            }
        }
    }
    toks.len()
}

fn split_top(toks: &[String]) -> Vec<&[String]> {
    let mut out = Vec::new();
    let (mut d, mut start) = (0, 0);
    for (j, t) in toks.iter().enumerate() {
        match t.as_str() {
            "{" => d += 1,
            "}" => d -= 1,
            "," if d == 0 => {
                out.push(&toks[start..j]);
                start = j + 1;
            }
            _ => {}
        }
    }
    if start < toks.len() {
        out.push(&toks[start..]);
    }
    out
}

struct Resolver<'a> {
    module_file: &'a HashMap<ModPath, String>,
    scopes: &'a HashMap<ModPath, Scope>,
}

impl Resolver<'_> {
    /// The path from the crate root that `path`, written in `module`, names; `None` when it
    /// starts outside the crate (std, a dependency, a local variable's type).
    fn absolute(&self, module: &ModPath, path: &ModPath) -> Option<ModPath> {
        let first = path.first()?.as_str();
        let mut base: ModPath = match first {
            "crate" => Vec::new(),
            "self" => module.clone(),
            "super" => {
                let mut m = module.clone();
                let mut k = 0;
                while path.get(k).map(String::as_str) == Some("super") {
                    m.pop();
                    k += 1;
                }
                let mut out = m;
                out.extend(path[k..].iter().cloned());
                return Some(out);
            }
            _ => {
                let mut child = module.clone();
                child.push(first.to_string());
                if self.module_file.contains_key(&child) {
                    child.extend(path[1..].iter().cloned());
                    return Some(child);
                }
                let scope = self.scopes.get(module)?;
                let bound = scope.binds.get(first)?;
                // a name bound by `use` is resolved from where that `use` was written
                let mut abs = self.absolute(module, bound).filter(|a| a != path)?;
                abs.extend(path[1..].iter().cloned());
                return Some(abs);
            }
        };
        base.extend(path[1..].iter().cloned());
        Some(base)
    }

    /// The file that defines the item `abs` names (following re-exports), or the file of
    /// the deepest module on the path when the item is not found; `None` for a bare module.
    fn resolve(&self, abs: &ModPath, hops: usize) -> Option<String> {
        if hops > 16 {
            return None;
        }
        let mut m: ModPath = Vec::new();
        for (k, seg) in abs.iter().enumerate() {
            let mut child = m.clone();
            child.push(seg.clone());
            if self.module_file.contains_key(&child) {
                m = child;
                continue;
            }
            let file = self.module_file.get(&m)?.clone();
            let Some(scope) = self.scopes.get(&m) else {
                return Some(file);
            };
            if scope.defines.contains(seg) {
                return Some(file);
            }
            if let Some(bound) = scope.binds.get(seg) {
                if let Some(mut target) = self.absolute(&m, bound) {
                    target.extend(abs[k + 1..].iter().cloned());
                    if &target != abs {
                        return self.resolve(&target, hops + 1).or(Some(file));
                    }
                }
            }
            for g in &scope.globs {
                if let Some(mut target) = self.absolute(&m, g) {
                    target.extend(abs[k..].iter().cloned());
                    if let Some(found) = self.resolve(&target, hops + 1) {
                        if self.defines_or_binds(&target[..target.len() - (abs.len() - k)], seg) {
                            return Some(found);
                        }
                    }
                }
            }
            return Some(file);
        }
        None
    }

    fn defines_or_binds(&self, module: &[String], name: &str) -> bool {
        self.scopes
            .get(&module.to_vec())
            .is_some_and(|s| s.defines.contains(name) || s.binds.contains_key(name))
    }
}

fn is_ident(t: Option<&String>) -> bool {
    t.is_some_and(|t| {
        t.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
    })
}

/// Identifiers, `::`, and single punctuation characters.
fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            let word: String = b[start..i].iter().collect();
            let word = word.strip_prefix("r#").map(String::from).unwrap_or(word);
            out.push(word);
            continue;
        }
        if c == ':' && b.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
            continue;
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
        i += 1;
    }
    out
}

/// The source without comments, string and char literals (so that neither a doc link nor a
/// message text reads as an import).
fn strip(s: &str) -> String {
    let b: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            let mut d = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    d += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    d -= 1;
                    i += 2;
                    if d == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            continue;
        }
        // raw strings r"..", r#".."#, br#".."#
        if (c == 'r' || (c == 'b' && next == Some('r')))
            && !b
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) == Some(&'"') {
                j += 1;
                loop {
                    if j >= b.len() {
                        break;
                    }
                    if b[j] == '"' && (0..hashes).all(|h| b.get(j + 1 + h) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                out.push_str(" \"\" ");
                i = j;
                continue;
            }
        }
        if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str(" \"\" ");
            continue;
        }
        if c == '\'' {
            // a char literal ('x', '\n', '\u{..}') or a lifetime ('a)
            if next == Some('\\') {
                let mut j = i + 2;
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
                out.push_str(" ' ");
                continue;
            }
            if b.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str(" ' ");
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Tarjan's strongly connected components.
fn tarjan(adj: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct St<'a> {
        adj: &'a BTreeMap<String, BTreeSet<String>>,
        index: HashMap<&'a str, usize>,
        low: HashMap<&'a str, usize>,
        on: BTreeSet<&'a str>,
        stack: Vec<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(st: &mut St<'a>, v: &'a str) {
        st.index.insert(v, st.next);
        st.low.insert(v, st.next);
        st.next += 1;
        st.stack.push(v);
        st.on.insert(v);
        if let Some(ws) = st.adj.get(v) {
            for w in ws {
                let w = w.as_str();
                if !st.index.contains_key(w) {
                    visit(st, w);
                    let l = st.low[w].min(st.low[v]);
                    st.low.insert(v, l);
                } else if st.on.contains(w) {
                    let l = st.index[w].min(st.low[v]);
                    st.low.insert(v, l);
                }
            }
        }
        if st.low[v] == st.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = st.stack.pop() {
                st.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            st.out.push(comp);
        }
    }
    let mut st = St {
        adj,
        index: HashMap::new(),
        low: HashMap::new(),
        on: BTreeSet::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in adj.keys() {
        if !st.index.contains_key(v.as_str()) {
            visit(&mut st, v);
        }
    }
    st.out
}
