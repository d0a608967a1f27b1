//! The guard for wrappers hidden only until scripts run: a hidden element holding most of
//! the document's readable text, or most of its `<main>` region's, is walked as visible
//! ([`Builder::holds_most_text`]). Region sizes are computed once each and cached in the
//! builder.

use markup5ever_rcdom::{Handle, NodeData};

use super::attrs::attr_value;
use super::build::Builder;
use super::node_text::readable_text_bytes;
use super::settings::{HIDDEN_MAIN_MIN_SHARE, HIDDEN_WRAPPER_MIN_BYTES, HIDDEN_WRAPPER_MIN_SHARE};
use super::tree::parent_of;

impl Builder {
    /// Whether `node` holds most of the document's readable text. Single-page-app and
    /// theme templates hide the whole page until scripts or fonts load (Next.js
    /// `<div style="visibility:hidden">` around everything, `aria-hidden="true"` on the
    /// app root while a consent dialog is open); a reader sees that text, so such a
    /// page-level wrapper is not treated as hidden. Real hidden parts (menus, modals,
    /// the mobile copy of a section) hold a minority of the page.
    pub(super) fn holds_most_text(&mut self, node: &Handle) -> bool {
        // The node's own size first: most hidden elements are small (icons, menus), and
        // a page whose hidden elements are all small never walks the whole document.
        let own = readable_text_bytes(node);
        if own < HIDDEN_WRAPPER_MIN_BYTES {
            return false;
        }
        let total = match self.doc_text_bytes {
            Some(t) => t,
            None => {
                let t = self.document.as_ref().map_or(0, readable_text_bytes);
                self.doc_text_bytes = Some(t);
                t
            }
        };
        if own as f64 > HIDDEN_WRAPPER_MIN_SHARE * total as f64 {
            return true;
        }
        let Some(main) = enclosing_main(node) else {
            return false;
        };
        let key = std::rc::Rc::as_ptr(&main) as usize;
        let region = match self.main_text_bytes.iter().find(|(k, _)| *k == key) {
            Some(&(_, t)) => t,
            None => {
                let t = readable_text_bytes(&main);
                self.main_text_bytes.push((key, t));
                t
            }
        };
        own as f64 > HIDDEN_MAIN_MIN_SHARE * region as f64
    }
}

/// The nearest `<main>` (or `role=main`) ancestor of `node`. A hidden wrapper holding
/// most of the page's main region is hidden only until scripts run (Shopify lock-down
/// and age-gate apps wrap the product section in `<div style="display:none">` inside
/// `<main>`), even when menus and footers outweigh it in the whole document.
/// (A hidden copy of a visible text, such as a blog's raw Markdown in `<pre hidden>`,
/// holds only about half of its main region: see [`HIDDEN_MAIN_MIN_SHARE`].)
fn enclosing_main(node: &Handle) -> Option<Handle> {
    let mut cur = parent_of(node);
    while let Some(h) = cur {
        if let NodeData::Element { name, attrs, .. } = &h.data {
            let main = &*name.local == "main"
                || attr_value(&attrs.borrow(), "role")
                    .is_some_and(|r| r.eq_ignore_ascii_case("main"));
            if main {
                return Some(h);
            }
        }
        cur = parent_of(&h);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::parse;

    #[test]
    fn page_wrapper_hidden_until_scripts_run_is_walked() {
        let body = "the whole page text is here ".repeat(10);
        let html = format!(
            "<div style='visibility:hidden'><p style='display:none'>menu</p><p>{body}</p></div><p>foot</p>"
        );
        let page = parse(&html);
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text, [body.trim(), "foot"]);
        // A hidden part holding a minority of the text stays hidden.
        let page = parse(&format!(
            "<p>{body}</p><p>{body}</p><div aria-hidden=true><p>{body}</p></div>"
        ));
        assert_eq!(page.blocks.len(), 2);
    }

    #[test]
    fn main_region_hidden_until_scripts_run_is_walked() {
        let body = "the product description is here ".repeat(10);
        let menu = "<p>menu entry and another menu entry</p>".repeat(30);
        let html = format!(
            "<nav>{menu}</nav><main><div style='display:none'><p>{body}</p></div><p>x</p></main>"
        );
        let page = parse(&html);
        assert!(page.blocks.iter().any(|b| b.text == body.trim()));
        // A hidden copy of a visible text in the same region stays hidden.
        let html = format!("<nav>{menu}</nav><main><p>{body}</p><pre hidden>{body}</pre></main>");
        assert_eq!(
            parse(&html)
                .blocks
                .iter()
                .filter(|b| b.text == body.trim())
                .count(),
            1
        );
    }
}
