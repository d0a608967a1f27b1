//! The html5ever tree as a well-formed XML document (sxd-document), for the methods
//! that work on the whole tree with XPath: per-site rules (`rules/`) and Infholder
//! (algorithms.md §2, step 3 "make the DOM a well-formed XML tree").
//!
//! html5ever puts HTML elements in the XHTML namespace; the XML document gets only the
//! *local* names (no namespace), so that `//div` matches without a prefix. Comments,
//! doctypes and processing instructions are left out. The walk is iterative, and elements
//! nested deeper than [`dom::MAX_DEPTH`](super::dom::MAX_DEPTH) are flattened into their
//! ancestor at that depth (their text is kept), as in the flat page model.

use markup5ever_rcdom::{Handle, NodeData, RcDom};
use sxd_document::dom::Element;
use sxd_document::Package;

use super::dom::MAX_DEPTH;

/// What the XML document keeps besides elements and text.
#[derive(Debug, Clone, Copy)]
pub struct XmlOptions {
    /// Copy attributes (rules select on `@class`, `@id`; Infholder drops them).
    pub attributes: bool,
}

impl Default for XmlOptions {
    fn default() -> Self {
        XmlOptions { attributes: true }
    }
}

/// Build the XML document of a parsed page. The document's root element is `<html>`
/// (html5ever always creates one).
pub fn to_xml(tree: &RcDom, options: XmlOptions) -> Package {
    let package = Package::new();
    {
        let doc = package.as_document();
        // (node, parent element or None for the document root, depth)
        let mut stack: Vec<(Handle, Option<Element<'_>>, usize)> = Vec::new();
        for child in tree.document.children.borrow().iter().rev() {
            stack.push((child.clone(), None, 0));
        }
        while let Some((node, parent, depth)) = stack.pop() {
            match &node.data {
                NodeData::Element { name, attrs, .. } => {
                    let (target, child_depth) = if depth >= MAX_DEPTH {
                        // Too deep: the children go to the ancestor at the limit.
                        (parent, depth)
                    } else {
                        let el = doc.create_element(&*name.local);
                        if options.attributes {
                            for a in attrs.borrow().iter() {
                                let local: &str = &a.name.local;
                                if is_xml_name(local) {
                                    el.set_attribute_value(local, &a.value);
                                }
                            }
                        }
                        match parent {
                            Some(p) => p.append_child(el),
                            None => {
                                // Only one root element in XML; html5ever gives one.
                                if doc.root().children().is_empty() {
                                    doc.root().append_child(el);
                                } else {
                                    continue;
                                }
                            }
                        }
                        (Some(el), depth + 1)
                    };
                    for child in node.children.borrow().iter().rev() {
                        stack.push((child.clone(), target, child_depth));
                    }
                }
                NodeData::Text { contents } => {
                    if let Some(p) = parent {
                        p.append_child(doc.create_text(&contents.borrow()));
                    }
                }
                _ => {}
            }
        }
    }
    package
}

/// Whether `s` can be an XML attribute name (html5ever accepts names such as `@click`
/// or `"` that XML does not; they could never be selected anyway).
pub(crate) fn is_xml_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse_page;

    #[test]
    fn local_names_let_plain_xpaths_match() {
        let page = parse_page(
            "<!doctype html><html><body><!-- c --><div class='post' @click='x'><p>One</p><p>Two</p></div></body></html>",
        );
        let package = to_xml(&page.tree, XmlOptions::default());
        let doc = package.as_document();
        let v = sxd_xpath::evaluate_xpath(&doc, "count(//div[@class='post']/p)").unwrap();
        assert_eq!(v, sxd_xpath::Value::Number(2.0));
        let v = sxd_xpath::evaluate_xpath(&doc, "string(/html/body/div)").unwrap();
        assert_eq!(v.string(), "OneTwo");
    }

    #[test]
    fn attributes_can_be_left_out() {
        let page = parse_page("<div id=a class=b>t</div>");
        let package = to_xml(&page.tree, XmlOptions { attributes: false });
        let doc = package.as_document();
        let v = sxd_xpath::evaluate_xpath(&doc, "count(//@*)").unwrap();
        assert_eq!(v, sxd_xpath::Value::Number(0.0));
    }

    #[test]
    fn deep_nesting_is_flattened_without_losing_text() {
        let depth = 5_000;
        let html = format!("{}deep{}", "<div>".repeat(depth), "</div>".repeat(depth));
        let page = parse_page(&html);
        let package = to_xml(&page.tree, XmlOptions::default());
        let doc = package.as_document();
        let v = sxd_xpath::evaluate_xpath(&doc, "count(//div)").unwrap();
        assert_eq!(v, sxd_xpath::Value::Number((MAX_DEPTH - 2) as f64));
        let v = sxd_xpath::evaluate_xpath(&doc, "string(//body)").unwrap();
        assert_eq!(v.string(), "deep");
    }
}
