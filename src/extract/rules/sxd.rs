//! Small helpers over sxd-xpath's values and nodes, shared by rule application, the
//! XPath checks and `rules try`: the per-thread function library, what counts as "the
//! whole document", a value's kind, truth and text, and a node's path for messages.

use sxd_xpath::nodeset::Node;
use sxd_xpath::{Context, Value};

use crate::extract::dom;

thread_local! {
    /// The XPath 1.0 core function library, built once per thread.
    pub(super) static XPATH_CONTEXT: Context<'static> = Context::new();
}

pub(super) fn is_whole_document(n: Node<'_>) -> bool {
    match n {
        Node::Root(_) => true,
        Node::Element(e) => {
            let name = e.name().local_part();
            match e.parent() {
                Some(sxd_document::dom::ParentOfChild::Root(_)) => true,
                Some(sxd_document::dom::ParentOfChild::Element(p)) => {
                    name == "body"
                        && matches!(p.parent(), Some(sxd_document::dom::ParentOfChild::Root(_)))
                }
                None => false,
            }
        }
        _ => false,
    }
}

pub(super) fn value_kind(v: &Value<'_>) -> &'static str {
    match v {
        Value::Boolean(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Nodeset(_) => "node-set",
    }
}

pub(super) fn to_bool(v: &Value<'_>) -> bool {
    match v {
        Value::Boolean(b) => *b,
        Value::Number(n) => *n != 0.0 && !n.is_nan(),
        Value::String(s) => !s.is_empty(),
        Value::Nodeset(ns) => ns.size() > 0,
    }
}

/// A title or date: the first selected node's text, or the string the XPath gives.
pub(super) fn value_text(v: &Value<'_>) -> String {
    match v {
        Value::Nodeset(ns) => ns
            .document_order_first()
            .map(|n| dom::collapse(&n.string_value()))
            .unwrap_or_default(),
        Value::String(s) => dom::collapse(s),
        Value::Number(n) => n.to_string(),
        Value::Boolean(b) => b.to_string(),
    }
}

pub(super) fn ancestors_or_self(n: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    std::iter::successors(Some(n), |n| n.parent())
}

/// `/html/body/div[@id='content']/p`: where a node is, for people writing rules.
pub fn node_path(n: Node<'_>) -> String {
    let mut parts = Vec::new();
    for a in ancestors_or_self(n) {
        match a {
            Node::Element(e) => {
                let name = e.name().local_part().to_string();
                let part = if let Some(id) = e.attribute_value("id") {
                    format!("{name}[@id='{id}']")
                } else if let Some(class) = e.attribute_value("class") {
                    format!("{name}[@class='{class}']")
                } else {
                    name
                };
                parts.push(part);
            }
            Node::Attribute(at) => parts.push(format!("@{}", at.name().local_part())),
            Node::Text(_) => parts.push("text()".into()),
            _ => {}
        }
    }
    parts.reverse();
    format!("/{}", parts.join("/"))
}
