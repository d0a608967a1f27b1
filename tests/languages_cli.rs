//! `thresher extract` on hand-written pages in languages the development corpora do not
//! hold (fixtures/languages: German, Japanese), in a flat layout where only the
//! line-level phrase lists tell the article from what follows it: the photo credit, the
//! advertisement's label, the comment section, the "related articles" box and the
//! publisher's imprint are dropped, the article's paragraphs kept, and the byline's date
//! written with a month name or with 年月日 is read.

mod common;
use common::*;

#[test]
fn phrase_lists_of_other_languages_drop_what_follows_the_article() {
    let failures = fixture_dir_failures(&fixtures().join("languages"), |name, rec, e| {
        (rec["published"] != e["published"]).then(|| {
            format!(
                "{name}: published {}, written {}",
                rec["published"], e["published"]
            )
        })
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
