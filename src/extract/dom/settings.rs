//! Every tuning knob of the DOM code (size thresholds, shares, depth and scan caps), each
//! with what it does, its unit and why its value; figures are word F1 on the dev corpora.
//! The first three are `pub`, re-exported from `dom/mod.rs`
//! (`thresher::extract::dom::MAX_DEPTH` and so on): they are limits a library caller's
//! input meets.

/// A `<noscript>` with less raw markup than this (bytes) is skipped (tracking pixels,
/// "enable JavaScript" notes); a larger one is parsed as a fragment and walked as a
/// `noscript` element (Discourse and Flarum forums serve the whole thread there for
/// clients without JavaScript). Hand-set, not swept: a bound between a tracking pixel or
/// a short note and a served page.
pub const NOSCRIPT_MIN_BYTES: usize = 2_000;

/// Elements deeper than this are not given their own arena entry (their text still
/// counts, attributed to the ancestor at this depth): real pages stay far below it, and
/// it bounds the work on pathological nesting. Also the depth cap of the XML conversion
/// (`xml.rs`) and of the rules' fast XPath path (`xpath_fast/`). A safety bound,
/// hand-set, not swept.
pub const MAX_DEPTH: usize = 512;

/// `max_page_bytes` unless the configuration says otherwise (32 MiB; `config.rs`).
pub const DEFAULT_MAX_PAGE_BYTES: usize = 32 << 20;

/// Bytes of `max_page_bytes` per opening tag a page may have ([`max_tags`]): memory
/// follows the tags, not the bytes. A `<span>w</span>` (14 bytes, two nodes) costs about
/// 700 bytes in work (html5ever's tree, the flat model, the text: 8 MiB of them peaked
/// at 309 MB, 37 × the page; 49 MB at 1.17 GB). At 64 bytes a tag the work on a
/// tag-dense page stays under 14 × `max_page_bytes` (8 MiB of spans: 106 MB peak at 64
/// bytes a tag, 153 MB at 48), and the default cap (32 MiB) allows 524,288
/// opening tags, fifty times those of a large real page. A safety bound, hand-set.
pub const BYTES_PER_TAG: usize = 64;

/// The opening tags a page may have under `max_page_bytes`: past them, the rest of the
/// page is cut before parsing ([`limit_tags`](super::limit_tags)).
pub fn max_tags(max_page_bytes: usize) -> usize {
    (max_page_bytes / BYTES_PER_TAG).max(1)
}

/// Bytes of `max_page_bytes` per attribute a page may have ([`max_attributes`]): the
/// attributes past them are dropped before parsing (`attr_limits.rs`), tags and text
/// kept. An attribute costs about 44 bytes in work whatever its length (a page of tags
/// with fifty 2-letter attributes each, 10.5 million attributes in 32 MiB, peaked at
/// 635 MB, 19 × the page), so at 16 bytes each the attributes of a page cost at most
/// about 2.75 × `max_page_bytes`, and with the tag budget (about 10.75 ×) the page stays
/// under 14 ×. The default cap allows 2,097,152 attributes, over a hundred times those of
/// a large real page. A safety bound, hand-set.
pub const BYTES_PER_ATTRIBUTE: usize = 16;

/// The attributes a page may have under `max_page_bytes`.
pub fn max_attributes(max_page_bytes: usize) -> usize {
    (max_page_bytes / BYTES_PER_ATTRIBUTE).max(1)
}

/// Attributes one tag may have; past them the tag's further attributes are dropped before
/// parsing. html5ever compares each attribute's name with those before it in its tag, so
/// a tag's cost is quadratic in its attributes (20,000 in one tag, repeated over 32 MiB:
/// 3 minutes; 2,000: 15 s); real tags have a few dozen. A safety bound, hand-set.
pub const MAX_ATTRIBUTES_PER_TAG: usize = 1_000;

/// Nesting depth in the source beyond which opening tags are dropped before parsing
/// ([`limit_nesting`](super::limit_nesting)). html5ever's tree builder scans its stack
/// of open elements for many tags, so a page nested 100,000 deep costs it minutes; real
/// pages stay below a few hundred. A safety bound, hand-set, not swept.
pub const MAX_SOURCE_DEPTH: usize = 2_000;

/// Largest text (bytes of all text below the element, whitespace included) of an
/// element that a hiding utility class (`d-none`, `hidden`, `sr-only`,
/// `visually-hidden`, `screen-reader-text`) hides: "Skip to content", "Posted on",
/// "opens in a new window". A larger one is kept, since CSS may show it on some screens.
/// Dropping such small elements took WCXB dev from 0.818 to 0.821, no page type worse;
/// the value is hand-set, not swept.
pub(crate) const HIDDEN_CLASS_MAX_BYTES: usize = 200;

/// Least readable text (non-whitespace bytes outside scripts and styles) a hidden element
/// must hold to be a wrapper hidden until scripts run (`wrappers.rs`), so that a small
/// hidden element is never walked for holding "most" of a near-empty page. Equal to
/// [`HIDDEN_CLASS_MAX_BYTES`]: the same bound between a small hidden element and a large
/// one; hand-set, not swept.
pub(crate) const HIDDEN_WRAPPER_MIN_BYTES: usize = HIDDEN_CLASS_MAX_BYTES;

/// Share of the document's readable text a hidden element must hold (strictly more) to
/// be a page-level wrapper hidden only until scripts run (Next.js
/// `<div style="visibility:hidden">` around everything, `aria-hidden` on the app root
/// while a consent dialog is open), walked as visible. Walking such wrappers took WCXB dev
/// documentation pages from 0.9114 to 0.9315 (overall 0.8456 → 0.8478, ScrapingHub 0.9654
/// unchanged); "more than half" is hand-set, not swept.
pub(crate) const HIDDEN_WRAPPER_MIN_SHARE: f64 = 0.5;

/// Share of its `<main>` region's readable text a hidden element must hold (strictly
/// more) to be that region's wrapper hidden until scripts run (Shopify lock-down and
/// age-gate apps wrap the product section in `<div style="display:none">` inside
/// `<main>`); the rest of the region is then nearly empty. A hidden copy of a visible
/// text (a blog's raw Markdown in `<pre hidden>`) holds only about half of its region,
/// well below. Hand-set, not swept.
pub(crate) const HIDDEN_MAIN_MIN_SHARE: f64 = 0.8;

/// Children of one parent beyond which a hidden element's previous sibling is not looked
/// for (keeps the walk linear on a long list of hidden items; panels have few siblings).
/// A work bound, hand-set, not swept.
pub(crate) const MAX_SIBLINGS_SCANNED: usize = 1024;

/// How many levels an accordion toggle is looked for before a hidden panel: its previous
/// element sibling, that sibling's last element child, and that one's last element child
/// (a `<button>` wrapped in a heading in a `<div>`); hand-set, not swept.
pub(crate) const TOGGLE_SEARCH_LEVELS: usize = 3;
