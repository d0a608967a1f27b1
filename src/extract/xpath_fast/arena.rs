//! The page index the fast evaluator runs on: the html5ever tree's elements and text nodes
//! in document order, each with its parent and the end of its subtree, indexed exactly as
//! `xml::to_xml` converts the tree (see the module comment of `xpath_fast`).

use html5ever::LocalName;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

use super::plan::Item;
use crate::extract::dom::MAX_DEPTH;

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

    /// Whether one of nodes `a` and `b` holds the other (either way round; a node holds
    /// itself).
    pub fn nested(&self, a: u32, b: u32) -> bool {
        let holds =
            |outer: u32, inner: u32| outer <= inner && inner < self.nodes[outer as usize].end;
        holds(a, b) || holds(b, a)
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
