//! What counts as hidden from a reader: the `hidden` attribute (not on React's streamed
//! segments), `aria-hidden`, inline `display:none` / `visibility:hidden`, the `hide`
//! class, display utility classes unless a breakpoint shows the element again, and
//! small elements with a hiding utility class. The guards that keep a hidden element
//! anyway live in `panels.rs` (tab and switchable panels) and `wrappers.rs` (page and
//! main-region wrappers hidden until scripts run); `skip_hidden.rs` weighs the two.

use markup5ever_rcdom::Handle;

use super::node_text::text_of;
use super::settings::HIDDEN_CLASS_MAX_BYTES;

/// Any class token that one of the class tests below reads as hiding: one look at the
/// class for such a token first, because most elements have none, and then the three
/// class tests all answer no (they were 2 % of extraction).
pub(super) fn is_hiding_token(t: &str) -> bool {
    t == "hide" || is_display_hiding_token(t) || is_utility_hiding_token(t)
}

/// `hidden`, `aria-hidden="true"`, `style="display:none"`: not shown to a reader.
pub(crate) fn is_hidden<'a>(attr: &impl Fn(&str) -> Option<&'a str>) -> bool {
    if attr("hidden").is_some() && !attr("id").is_some_and(is_streamed_segment_id) {
        return true;
    }
    if aria_hidden(attr) {
        return true;
    }
    attr("style").is_some_and(|s| {
        // Cheap test first: most styles say neither (every styled element is asked).
        let bytes = s.as_bytes();
        let may = |word: &[u8]| {
            bytes
                .windows(word.len())
                .any(|w| w.eq_ignore_ascii_case(word))
        };
        if !may(b"none") && !may(b"hidden") {
            return false;
        }
        let s: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        s.contains("display:none") || s.contains("visibility:hidden")
    })
}

/// `aria-hidden="true"`. (On a sibling of a hidden panel, see [`is_switchable_panel`],
/// it marks the off-screen slide or the cloned copy of a carousel or marquee, not a tab.)
pub(super) fn aria_hidden<'a>(attr: &impl Fn(&str) -> Option<&'a str>) -> bool {
    attr("aria-hidden").is_some_and(|v| v.eq_ignore_ascii_case("true"))
}

/// React's streaming server rendering (Next.js app router and others) sends each
/// Suspense boundary's content late in the document as `<div hidden id="S:0">…</div>`;
/// an inline script (`$RC("B:0","S:0")`) moves it into place on load, so a reader sees
/// it. Such pages put their whole product description or landing copy there.
fn is_streamed_segment_id(id: &str) -> bool {
    id.strip_prefix("S:")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Utility classes that hide an element (Bootstrap `d-none`, `sr-only`, `visually-hidden`,
/// WordPress `screen-reader-text`, plain `hidden`), as exact class tokens, on a small
/// element only: "Skip to content", "Posted on", "opens in a new window". A large one is
/// kept (CSS may show it on some screens, and missing text costs more than a stray line).
pub(super) fn hidden_by_class(class: Option<&str>, node: &Handle) -> bool {
    class.is_some_and(|c| c.split_ascii_whitespace().any(is_utility_hiding_token))
        && text_of(node).len() <= HIDDEN_CLASS_MAX_BYTES
}

/// The utility classes [`hidden_by_class`] reads.
fn is_utility_hiding_token(t: &str) -> bool {
    matches!(
        t,
        "d-none" | "hidden" | "sr-only" | "visually-hidden" | "screen-reader-text"
    )
}

/// The `hide` utility class (Bootstrap 2/3, Foundation, many themes: `.hide {display:
/// none}`): hidden like an inline `display:none`, at any size, and with the same guards
/// (a page-level wrapper hidden until scripts run, a tab panel). Unlike `hidden`, it is
/// not a Tailwind class that a responsive `lg:block` shows again on desktop.
pub(super) fn hidden_by_hide_class(class: Option<&str>) -> bool {
    class.is_some_and(|c| c.split_ascii_whitespace().any(|t| t == "hide"))
}

/// The display utility classes that hide an element at every size unless another class
/// shows it again (Tailwind `hidden`, Bootstrap 4/5 `d-none`, Bulma `is-hidden`): hidden
/// like an inline `display:none`, with the same guards. A responsive class that shows it
/// at a breakpoint (Tailwind `hidden lg:block`, Bootstrap `d-none d-md-flex`, Bulma
/// `is-hidden is-flex-desktop`) makes it visible on a desktop screen: kept.
/// (`sr-only` / `visually-hidden` are not here: screen-reader text, and a large one is
/// often the page's real heading or summary.)
pub(super) fn hidden_by_display_class(class: Option<&str>) -> bool {
    let Some(c) = class else {
        return false;
    };
    let mut hidden = false;
    for t in c.split_ascii_whitespace() {
        if is_display_hiding_token(t) {
            hidden = true;
        } else if shows_at_breakpoint(t) {
            return false;
        }
    }
    hidden
}

/// The display utility tokens that hide an element (see [`hidden_by_display_class`]).
pub(super) fn is_display_hiding_token(t: &str) -> bool {
    matches!(t, "hidden" | "d-none" | "is-hidden")
}

/// A responsive class token that sets a visible display value at some screen size:
/// Tailwind `md:block`, `lg:flex`, `xl:inline-grid`, `min-[900px]:table`; Bootstrap
/// `d-md-block`, `d-lg-flex`; Bulma `is-block-desktop`, `is-flex-tablet`. (Print-only
/// tokens such as `d-print-block` and `print:block` do not count.)
fn shows_at_breakpoint(t: &str) -> bool {
    fn visible(v: &str) -> bool {
        matches!(
            v,
            "block"
                | "flex"
                | "grid"
                | "inline"
                | "inline-block"
                | "inline-flex"
                | "inline-grid"
                | "table"
                | "contents"
                | "flow-root"
                | "list-item"
                | "table-cell"
                | "table-row"
        )
    }
    if let Some((prefix, value)) = t.rsplit_once(':') {
        return !prefix.ends_with("print") && visible(value.trim_start_matches('!'));
    }
    if let Some(rest) = t.strip_prefix("d-") {
        return rest
            .split_once('-')
            .is_some_and(|(bp, v)| bp != "print" && visible(v));
    }
    if let Some(rest) = t.strip_prefix("is-") {
        return rest.rsplit_once('-').is_some_and(|(v, bp)| {
            matches!(
                bp,
                "mobile" | "tablet" | "touch" | "desktop" | "widescreen" | "fullhd"
            ) && visible(v)
        });
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::parse;

    #[test]
    fn small_elements_hidden_by_utility_classes_are_skipped() {
        let page = parse("<p>seen <span class='sr-only'>skip me</span></p><p class='x hidden'>no</p><p class=hidden-md>kept</p>");
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text, ["seen", "kept"]);
    }

    #[test]
    fn hide_class_hides_at_any_size() {
        let body = "the whole page text is here ".repeat(10);
        let page = parse(&format!(
            "<p>{body}</p><p>{body}</p><dl class='info hide'><dt>{body}</dt></dl><p class=hide-mobile>kept</p>"
        ));
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text, [body.trim(), body.trim(), "kept"]);
        // A page-level wrapper hidden until scripts run is walked.
        let page = parse(&format!(
            "<main class='post hide'><p>{body}</p></main><p>foot</p>"
        ));
        assert_eq!(page.blocks.len(), 2);
    }

    #[test]
    fn display_classes_hide_unless_shown_at_a_breakpoint() {
        let body = "the whole page text is here ".repeat(10);
        let page = parse(&format!(
            "<p>{body}</p><p>{body}</p><div class='menu hidden'><p>{body}</p></div>\
             <div class='d-none'><p>{body}</p></div><div class='hidden lg:block'><p>desk {body}</p></div>\
             <div class='d-none d-md-flex'><p>md {body}</p></div><div class='d-none d-print-block'><p>{body}</p></div>"
        ));
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        let desk = format!("desk {}", body.trim());
        let md = format!("md {}", body.trim());
        assert_eq!(text, [body.trim(), body.trim(), &desk, &md]);
    }

    #[test]
    fn hidden_elements_are_skipped() {
        let page = parse("<p>seen</p><p style='display: none'>unseen</p><p hidden>no</p>");
        assert_eq!(page.blocks.len(), 1);
    }

    #[test]
    fn streamed_react_segments_are_not_hidden() {
        let page = parse(
            "<p>seen</p><div hidden id='S:1'><p>streamed</p></div><div hidden id='S:x'><p>no</p></div>",
        );
        let texts: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts, ["seen", "streamed"]);
    }
}
