//! Guards for hidden panels a reader opens with a click, so their text is part of the
//! page: tab panels (`role=tabpanel`) and switchable panels (an accordion body after its
//! toggle, a sibling of a shown panel of the same kind in a tab set without ARIA).

use markup5ever_rcdom::{Handle, NodeData};

use super::attrs::attr_value;
use super::hidden::{aria_hidden, is_display_hiding_token};
use super::settings::TOGGLE_SEARCH_LEVELS;
use super::tree::{last_element_child, prev_element_sibling};

/// An inactive tab of a tab set (`role="tabpanel"`, hidden until its tab is clicked):
/// documentation sites show one code sample or install recipe per language or platform
/// this way (Docusaurus, Sphinx tabs, design-system tabs); every panel is part of the
/// page's text, the hidden ones only a click away.
pub(super) fn is_tab_panel<'a>(attr: &impl Fn(&str) -> Option<&'a str>) -> bool {
    attr("role").is_some_and(|r| {
        r.split_ascii_whitespace()
            .any(|t| t.eq_ignore_ascii_case("tabpanel"))
    })
}

/// A panel that a control on the page shows, hidden only until clicked; its text is part
/// of the page (FAQ answers, "read more" bodies, the other tabs of a tab set). Two markups,
/// seen from the panel's previous element sibling:
/// - an accordion: the sibling is the toggle (`<button>`, `<summary>`, `role=button`,
///   `aria-expanded`), or wraps it as its last element;
/// - a tab set without ARIA roles: the sibling is a panel of the same kind shown (same
///   tag, the same class tokens but for the hiding one).
pub(super) fn is_switchable_panel(node: &Handle) -> bool {
    let Some(prev) = prev_element_sibling(node) else {
        return false;
    };
    let mut toggle = Some(prev.clone());
    for _ in 0..TOGGLE_SEARCH_LEVELS {
        let Some(t) = toggle else {
            break;
        };
        if is_toggle(&t) {
            return true;
        }
        if is_form(&t) {
            break;
        }
        toggle = last_element_child(&t);
    }
    let (
        NodeData::Element {
            name: n1,
            attrs: a1,
            ..
        },
        NodeData::Element {
            name: n2,
            attrs: a2,
            ..
        },
    ) = (&node.data, &prev.data)
    else {
        return false;
    };
    let (a1, a2) = (a1.borrow(), a2.borrow());
    if n1.local != n2.local || aria_hidden(&|n| attr_value(&a1, n)) {
        return false;
    }
    // The class tokens but for the hiding ones, sorted.
    fn kind(a: &[html5ever::Attribute]) -> Vec<&str> {
        let mut tokens: Vec<&str> = attr_value(a, "class")
            .unwrap_or("")
            .split_ascii_whitespace()
            .filter(|t| !is_display_hiding_token(t))
            .collect();
        tokens.sort_unstable();
        tokens
    }
    let own = kind(&a1);
    !own.is_empty() && own == kind(&a2)
}

/// A `<form>`: its last button submits it, and the hidden element after it is the
/// form's "thank you" message, not a panel that button opens.
fn is_form(h: &Handle) -> bool {
    matches!(&h.data, NodeData::Element { name, .. } if &*name.local == "form")
}

/// An accordion toggle: a `<button>` or `<summary>`, or an element with `role=button` or
/// `aria-expanded`.
fn is_toggle(h: &Handle) -> bool {
    let NodeData::Element { name, attrs, .. } = &h.data else {
        return false;
    };
    let attrs = attrs.borrow();
    let role = attr_value(&attrs, "role");
    let opens_popup = attr_value(&attrs, "aria-haspopup").is_some()
        || role.is_some_and(|r| !r.eq_ignore_ascii_case("button"));
    !opens_popup
        && (matches!(&*name.local, "button" | "summary")
            || attr_value(&attrs, "aria-expanded").is_some()
            || role.is_some_and(|r| r.eq_ignore_ascii_case("button")))
}

#[cfg(test)]
mod tests {
    use super::super::parse;

    #[test]
    fn hidden_accordion_bodies_and_tab_siblings_are_walked() {
        let body = "the whole page text is here ".repeat(10);
        let long = |w: &str| format!("{w} {}", "and some more words ".repeat(12).trim());
        let (answer, detail, two, three, thanks, clone) = (
            long("answer"),
            long("detail"),
            long("two"),
            long("three"),
            long("thanks"),
            long("clone"),
        );
        let page = parse(&format!(
            "<p>{body}</p><p>{body}</p><p>{body}</p>\
             <div><div><button>Question?</button></div><div class='answer hidden'><p>{answer}</p></div></div>\
             <details><summary>More</summary><div style='display:none'><p>{detail}</p></div></details>\
             <ul class='list'><li>one</li></ul><ul class='list hidden'><li>{two}</li></ul><ul class='list hidden'><li>{three}</li></ul>\
             <form><button>Send</button></form><div class='hidden'><p>{thanks}</p></div>\
             <div class='slide'><p>a</p></div><div class='slide' aria-hidden=true><p>{clone}</p></div>"
        ));
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert!(text.contains(&answer.as_str()), "{text:?}");
        assert!(text.contains(&detail.as_str()));
        assert!(text.contains(&two.as_str()) && text.contains(&three.as_str()));
        assert!(!text.contains(&thanks.as_str()));
        assert!(!text.contains(&clone.as_str()));
    }

    #[test]
    fn hidden_tab_panels_are_walked() {
        let page = parse(
            "<div role=tabpanel><p>pip install x</p></div><div role=tabpanel hidden style='display:none'><p>npm install x</p></div><p>intro</p><p>intro</p><p>intro</p><p>intro</p>",
        );
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text[..2], ["pip install x", "npm install x"]);
    }
}
