//! Interface labels at the written text's end: "Tagi:", "Share this on:", "分享到:",
//! "Оцените статью:", "Статьи по теме:". A label ending in a colon introduces what
//! follows it (tag links, share buttons, a rating widget, related links, a code box);
//! what followed was left out as links or boilerplate, so the label dangles as the
//! text's last line. A text does not end by introducing something: such short lines at
//! the end are the page's interface, whatever their language.

use super::settings::{HeuristicConfig, LABEL_MAX_WORDS};
use crate::extract::dom::Block;

/// The end (exclusive) of the written text among `kept[first..end]` without the short
/// lines ending in a colon at its end ([`is_dangling_label`]), one after the other; the
/// first written block always stays. Only with `drop_dangling_labels`.
pub(super) fn without_dangling_labels(
    config: &HeuristicConfig,
    kept: &[(usize, &Block)],
    first: usize,
    end: usize,
) -> usize {
    let mut end = end;
    while config.drop_dangling_labels && end > first + 1 && is_dangling_label(kept[end - 1].1) {
        end -= 1;
    }
    end
}

/// Whether a block is one short line that ends in a colon (an asterisk of a required
/// field after it allowed): a label of something that is not written.
fn is_dangling_label(b: &Block) -> bool {
    let text = b
        .text
        .trim_end_matches(|c: char| c.is_whitespace() || c == '*');
    b.words <= LABEL_MAX_WORDS && !text.contains('\n') && text.ends_with([':', '：', '︰'])
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};
    use super::super::{extract, HeuristicConfig};
    use crate::extract::dom::parse;

    fn page(end: &str) -> String {
        format!(
            "<html><head><title>Harbour cranes lifted the old ferry out of the water</title></head><body>\
             <div class=text><h1>Harbour cranes lifted the old ferry out of the water</h1>\
             <p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p>{end}</div></body></html>"
        )
    }

    #[test]
    fn labels_of_links_left_out_do_not_end_the_text() {
        let html = page(
            "<p>Source: the harbour office.</p><b>Related articles:</b><br>\
             <div><a href=/a>Ferry</a> <a href=/b>Cranes</a> <a href=/c>Harbour</a></div><p>Tags:</p>",
        );
        let mut config = HeuristicConfig::default();
        config.drop_dangling_labels = false;
        let without = extract(&parse(&html), &config).text;
        assert!(without.ends_with("Related articles:\nTags:"), "{without}");
        let out = run(&html);
        assert!(out.text.contains("Second."), "{}", out.text);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Related articles"), "{}", out.text);
        assert!(!out.text.contains("Tags"), "{}", out.text);
    }

    #[test]
    fn a_label_with_its_text_after_it_stays() {
        let out = run(&page("<p>The harbour master said:</p><p>We are glad.</p>"));
        assert!(
            out.text.contains("The harbour master said:"),
            "{}",
            out.text
        );
        assert!(out.text.contains("We are glad."), "{}", out.text);
    }
}
