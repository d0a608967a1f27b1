//! One iterative walk of html5ever's tree collecting what a page declares about itself:
//! `<meta>` name/property/itemprop → content, `<link rel=canonical|author>`, `<base href>`,
//! `<html lang>`, `<time datetime>` elements (with whether they are marked as the
//! publication date and whether they sit in boilerplate), JSON-LD texts, and the text of
//! `itemprop=author` elements. The field modules decide what to make of them.

use markup5ever_rcdom::{Handle, NodeData, RcDom};

use crate::extract::dom::collapse;

/// Nodes visited at most: metadata lives in the head and the article's first lines;
/// a page of millions of nodes must not cost more than its parse did. Hand-set, far above
/// real pages (daniel-dev's largest has ~40,000 nodes).
const MAX_NODES: usize = 2_000_000;

/// JSON-LD texts longer than this are not parsed (a page embedding a catalogue).
const MAX_LD_BYTES: usize = 1 << 20;

/// A `<time>` element (or an element with `itemprop=datePublished` and a `datetime` /
/// `content` attribute).
#[derive(Debug, Clone, Default)]
pub struct TimeFact {
    /// The `datetime` (or `content`) attribute.
    pub datetime: Option<String>,
    /// The element's text.
    pub text: String,
    /// `pubdate`, `itemprop=datePublished` or a class/id naming publication.
    pub marked_published: bool,
    /// `itemprop=dateModified` or a class naming an update: never the publication date.
    pub marked_modified: bool,
    /// Inside `nav`, `aside`, `footer` or an element named for comments, sidebars or
    /// related links (a "latest posts" list dates other pages).
    pub in_boilerplate: bool,
}

/// What the page says about itself, in document order.
#[derive(Debug, Default)]
pub struct Facts {
    /// (lower-cased `property` / `name` / `itemprop` / `http-equiv`, content) of every
    /// `<meta>` with content.
    pub metas: Vec<(String, String)>,
    pub canonical: Option<String>,
    pub base_href: Option<String>,
    pub html_lang: Option<String>,
    pub times: Vec<TimeFact>,
    pub ld_json: Vec<String>,
    /// Text of elements marked `itemprop=author` (their `itemprop=name` when they have one)
    /// and of `<a rel=author>` links.
    pub author_texts: Vec<String>,
}

impl Facts {
    /// The first meta content under any of `keys` (lower-case), in the order of `keys`.
    pub fn meta(&self, keys: &[&str]) -> Option<&str> {
        keys.iter().find_map(|k| {
            self.metas
                .iter()
                .find(|(name, v)| name == k && !v.is_empty())
                .map(|(_, v)| v.as_str())
        })
    }
}

fn attr<'a>(attrs: &'a [html5ever::Attribute], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| (*a.name.local).eq_ignore_ascii_case(name))
        .map(|a| &*a.value)
}

/// Whether an element's tag or class/id says it holds no article text (for dates).
fn is_boilerplate(tag: &str, attrs: &[html5ever::Attribute]) -> bool {
    if matches!(tag, "nav" | "aside" | "footer") {
        return true;
    }
    // Token by token, without building a lower-cased copy (this runs for every element).
    ["id", "class"]
        .iter()
        .filter_map(|n| attr(attrs, n))
        .any(|v| {
            v.split(|c: char| !c.is_ascii_alphanumeric()).any(|t| {
                [
                    "comment", "comments", "sidebar", "related", "widget", "footer", "nav", "menu",
                    "latest", "recent",
                ]
                .iter()
                .any(|w| t.eq_ignore_ascii_case(w))
            })
        })
}

/// Text of a subtree, whitespace collapsed (iterative; scripts and styles skipped).
fn text_of(node: &Handle, cap: usize) -> String {
    let mut out = String::new();
    let mut stack = vec![node.clone()];
    while let Some(n) = stack.pop() {
        match &n.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            NodeData::Element { name, .. }
                if matches!(&*name.local, "script" | "style" | "noscript") => {}
            _ => {
                for c in n.children.borrow().iter().rev() {
                    stack.push(c.clone());
                }
            }
        }
        if out.len() > cap {
            break;
        }
    }
    collapse(&out)
}

/// The first descendant with `itemprop=name`, else the element itself: its text.
fn author_text(node: &Handle) -> String {
    let mut stack = vec![node.clone()];
    while let Some(n) = stack.pop() {
        if let NodeData::Element { attrs, .. } = &n.data {
            let attrs = attrs.borrow();
            if !std::rc::Rc::ptr_eq(&n, node)
                && attr(&attrs, "itemprop").is_some_and(|p| p.eq_ignore_ascii_case("name"))
            {
                return attr(&attrs, "content")
                    .map(collapse)
                    .unwrap_or_else(|| text_of(&n, 400));
            }
        }
        for c in n.children.borrow().iter().rev() {
            stack.push(c.clone());
        }
    }
    text_of(node, 400)
}

/// Walk the tree once.
pub fn collect(tree: &RcDom) -> Facts {
    let mut facts = Facts::default();
    // (node, inside boilerplate)
    let mut stack: Vec<(Handle, bool)> = vec![(tree.document.clone(), false)];
    let mut visited = 0usize;
    while let Some((node, in_bp)) = stack.pop() {
        visited += 1;
        if visited > MAX_NODES {
            break;
        }
        let NodeData::Element { name, attrs, .. } = &node.data else {
            if matches!(node.data, NodeData::Document) {
                for c in node.children.borrow().iter().rev() {
                    stack.push((c.clone(), in_bp));
                }
            }
            continue;
        };
        let tag: &str = &name.local;
        let attrs = attrs.borrow();
        let a = |n: &str| attr(&attrs, n);
        let itemprop = a("itemprop").map(str::to_ascii_lowercase);
        match tag {
            "html" if facts.html_lang.is_none() => {
                facts.html_lang = a("lang").or_else(|| a("xml:lang")).map(collapse);
            }
            "meta" => {
                let key = a("property")
                    .or_else(|| a("name"))
                    .or_else(|| a("itemprop"))
                    .or_else(|| a("http-equiv"));
                if let (Some(k), Some(v)) = (key, a("content")) {
                    facts.metas.push((k.trim().to_lowercase(), collapse(v)));
                }
            }
            "link" => {
                let rel = a("rel").unwrap_or("").to_ascii_lowercase();
                let rels: Vec<&str> = rel.split_ascii_whitespace().collect();
                if rels.contains(&"canonical") && facts.canonical.is_none() {
                    facts.canonical = a("href").map(|h| h.trim().to_string());
                }
            }
            "base" if facts.base_href.is_none() => {
                facts.base_href = a("href").map(|h| h.trim().to_string());
            }
            "script" => {
                if a("type").is_some_and(|t| t.to_ascii_lowercase().contains("ld+json")) {
                    let text = text_of_script(&node);
                    if text.len() <= MAX_LD_BYTES {
                        facts.ld_json.push(text);
                    }
                }
                continue;
            }
            "style" | "noscript" | "template" => continue,
            _ => {}
        }
        let is_time = tag == "time"
            || (matches!(itemprop.as_deref(), Some("datepublished" | "datecreated"))
                && (a("datetime").is_some() || a("content").is_some()));
        if is_time && facts.times.len() < 64 {
            let marks = format!(
                "{} {} {}",
                a("class").unwrap_or(""),
                a("id").unwrap_or(""),
                itemprop.as_deref().unwrap_or("")
            )
            .to_ascii_lowercase();
            facts.times.push(TimeFact {
                datetime: a("datetime").or_else(|| a("content")).map(collapse),
                text: text_of(&node, 200),
                marked_published: a("pubdate").is_some()
                    || matches!(itemprop.as_deref(), Some("datepublished" | "datecreated"))
                    || marks.contains("publish")
                    || marks.contains("posted"),
                marked_modified: itemprop.as_deref() == Some("datemodified")
                    || marks.contains("modif")
                    || marks.contains("updated"),
                in_boilerplate: in_bp,
            });
        }
        let is_author = itemprop.as_deref() == Some("author")
            || (tag == "a"
                && a("rel").is_some_and(|r| {
                    r.to_ascii_lowercase()
                        .split_ascii_whitespace()
                        .any(|t| t == "author")
                }));
        if is_author && facts.author_texts.len() < 8 {
            let t = match a("content") {
                Some(c) if tag != "a" => collapse(c),
                _ => author_text(&node),
            };
            if !t.is_empty() {
                facts.author_texts.push(t);
            }
        }
        let in_bp = in_bp || is_boilerplate(tag, &attrs);
        for c in node.children.borrow().iter().rev() {
            stack.push((c.clone(), in_bp));
        }
    }
    facts
}

/// A script's raw text (its text children).
fn text_of_script(node: &Handle) -> String {
    let mut s = String::new();
    for c in node.children.borrow().iter() {
        if let NodeData::Text { contents } = &c.data {
            s.push_str(&contents.borrow());
        }
    }
    s
}
