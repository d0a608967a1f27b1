//! Class/id vocabulary of the local heuristic, in one place. An element's lower-cased
//! `id class` value is split into tokens at every character that is not a letter or a
//! digit (`site-footer__inner` → `site`, `footer`, `inner`), and tokens are compared
//! whole or by prefix, so `threads` is not `ads` and `canvas` is not `nav`.
//!
//! Words are English, Russian, and the Latin transliterations Russian sites use in class
//! names (`reklama`, `podval`). No list here is of words of the page's *text*; the
//! heuristic's such lists, the headings of comment sections and the names of boxes
//! that follow articles ("read also", "share"), are in `heuristic/comment_headings.rs`
//! and `heuristic/labels.rs`.

use std::sync::LazyLock;

/// Tokens (exact) that mark boilerplate containers.
const BOILERPLATE_EXACT: &[&str] = &[
    "nav",
    "navbar",
    "navigation",
    "menu",
    "menubar",
    "megamenu",
    "footer",
    "header",
    "masthead",
    "topbar",
    "sidebar",
    "aside",
    "breadcrumb",
    "breadcrumbs",
    "crumbs",
    "banner",
    "cookie",
    "cookies",
    "ad",
    "ads",
    "adv",
    "advert",
    "advertisement",
    "advertising",
    "promo",
    "sponsor",
    "sponsored",
    "social",
    "share",
    "sharing",
    "sharebar",
    "related",
    "recommended",
    "recommendations",
    "popular",
    "trending",
    "subscribe",
    "subscription",
    "newsletter",
    "signup",
    "login",
    "copyright",
    "legal",
    "pagination",
    "pager",
    "toolbar",
    "skip",
    "tags",
    "tagcloud",
    "popup",
    "modal",
    "overlay",
    "consent",
    "gdpr",
    "byline",
    "disclaimer",
    "caption",
    "credit",
    "credits",
    "outbrain",
    "taboola",
    // A post's date, categories and tags under it (`postmetadata` of WordPress's classic
    // theme and its descendants).
    "postmetadata",
    "postmeta",
    "entrymeta",
    // Appeals for donations after the article.
    "donate",
    "donation",
    "donations",
    // Paywall prompts and buy boxes standing for the rest of a paid article.
    "paywall",
    "buybox",
    // Russian and transliterated.
    "меню",
    "подвал",
    "шапка",
    "реклама",
    "навигация",
    "баннер",
    "reklama",
    "podval",
    "shapka",
    "menyu",
    // Polish, Czech, German and transliterated Russian `kontakt`: the publisher's
    // contact box (addresses, telephones, subscriptions) under the article; the English
    // `contact` names contact *pages'* own forms and text, so it is left out.
    "kontakt",
];

/// [`BOILERPLATE_EXACT`] sorted, for a binary search: every token of every class and id
/// of a page is looked up (a linear scan of the list was 1–2 % of extraction).
static BOILERPLATE_SORTED: LazyLock<Vec<&str>> = LazyLock::new(|| {
    let mut words = BOILERPLATE_EXACT.to_vec();
    words.sort_unstable();
    words
});

fn is_boilerplate_word(t: &str) -> bool {
    BOILERPLATE_SORTED.binary_search(&t).is_ok()
}

/// Token prefixes that mark boilerplate (`navbar-top`, `sidebar1`, `socialicons`).
const BOILERPLATE_PREFIX: &[&str] = &[
    "nav",
    "menu",
    "footer",
    "sidebar",
    "breadcrumb",
    "cookie",
    "advert",
    "newsletter",
    "subscri",
    "social",
    "share",
    "related",
    "recommend",
    "banner",
    "popup",
    "reklam",
    "реклам",
    "навиг",
];

/// Tokens that mark boilerplate only as the head of a class name (`widget`,
/// `widget_recent_entries` in a sidebar; page builders' `elementor-widget-container`
/// wraps the content itself).
const BOILERPLATE_HEAD: &[&str] = &["widget", "widgets"];

/// Tokens (exact or prefix) that say "this is the content"; they overrule the lists
/// above (`content-with-sidebar`, `post-footer` stays boilerplate only by tag).
const CONTENT_PREFIX: &[&str] = &[
    "article",
    "content",
    "main",
    "post",
    "entry",
    "story",
    "body",
    "statya",
    "stati",
    "novost",
    "tekst",
    "kontent",
    "статья",
    "новост",
    "текст",
    "контент",
];

/// Comment sections: tokens or prefixes, in the languages whose sites name their classes
/// in their own words (Latin transliterations and native script): `koment` (Polish
/// `komentarze`, Czech, Slovak, Croatian, Slovene `komentar`), `kommentar` (German, Scandinavian), `коммент`/`коментар` (Russian; Ukrainian,
/// Bulgarian, Serbian), `σχόλι`/`σχολι` (Greek `σχόλια`), `pinglun` (Chinese 评论).
/// All but the first eight are there for daniel-dev's Polish and Greek pages.
/// (Spanish/Portuguese `coment` cost a WCXB store page whose `comentarios` are its
/// customer reviews, part of its gold text: left out.)
const COMMENT_PREFIX: &[&str] = &[
    "comment",
    "disqus",
    "respond",
    "reply",
    "replies",
    "kommentari",
    "коммент",
    "отзыв",
    "koment",
    "kommentar",
    "коментар",
    "σχόλι",
    "σχολι",
    "pinglun",
];

/// The first two bytes of every entry of `lists`, as a set (a bit per byte pair). Every
/// entry is two bytes or longer, so a token whose first two bytes are not in the set
/// equals and starts with none of them: [`named_by_head_noun`] and [`is_comment_name`]
/// skip such a token (most tokens of a page's names: `col`, `md`, `flex`, `item`, `img`)
/// without comparing it with each entry (a third of the vocabulary test's cost on
/// ScrapingHub).
fn heads_of(lists: &[&[&str]]) -> Box<[u64; 1024]> {
    let mut set = Box::new([0u64; 1024]);
    for w in lists.iter().flat_map(|l| l.iter()) {
        let h = head(w).expect("vocabulary entries are two bytes or longer");
        set[h >> 6] |= 1 << (h & 63);
    }
    set
}

/// A token's first two bytes as one number (`None` for a one-byte token).
fn head(t: &str) -> Option<usize> {
    match t.as_bytes() {
        [a, b, ..] => Some((*a as usize) << 8 | *b as usize),
        _ => None,
    }
}

/// Whether `t` may equal or start with an entry of the lists `set` was built from.
fn may_match(set: &[u64; 1024], t: &str) -> bool {
    head(t).is_some_and(|h| set[h >> 6] & (1 << (h & 63)) != 0)
}

/// [`heads_of`] the lists [`named_by_head_noun`] reads.
static NAME_HEADS: LazyLock<Box<[u64; 1024]>> = LazyLock::new(|| {
    heads_of(&[
        BOILERPLATE_EXACT,
        BOILERPLATE_PREFIX,
        BOILERPLATE_HEAD,
        CONTENT_PREFIX,
    ])
});

/// [`heads_of`] the comment prefixes.
static COMMENT_HEADS: LazyLock<Box<[u64; 1024]>> = LazyLock::new(|| heads_of(&[COMMENT_PREFIX]));

fn tokens(id_class: &str) -> impl Iterator<Item = &str> {
    id_class
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
}

/// The class/id vocabulary names a boilerplate container: by the head noun of its
/// names ([`named_by_head_noun`]), or as an image caption/credit, a copyright notice, an
/// author box or an overlay.
pub fn is_boilerplate_name(id_class: &str) -> bool {
    // Most elements have no class or id; every element of every page is asked.
    !id_class.is_empty()
        && (named_by_head_noun(id_class)
            || tokens(id_class).any(|t| is_caption_token(t) || is_legal_notice_token(t))
            || is_author_box(id_class)
            || is_overlay_name(id_class))
}

/// Overlays: modal dialogs (`modal`, run-together `memberModal`, `v8Modal`), popups and
/// cookie/consent banners (`cmplz-cookiebanner`, `cookie-notice`, `gdpr-consent`,
/// OneTrust, Didomi). They sit beside the page (often at the end of `<body>`, shown by
/// scripts) and are never its content, whatever a content token in the same name says
/// (`modal-content`, `cmplz-body`). Used by the heuristic to keep such marks even on
/// elements holding most of a short page's text.
pub fn is_overlay_name(id_class: &str) -> bool {
    let mut cookie = false;
    let mut notice = false;
    for t in tokens(id_class) {
        if t == "modal"
            || t == "popup"
            || t.starts_with("consent")
            || t.starts_with("gdpr")
            || t == "onetrust"
            || t == "didomi"
            || (t.len() > "cookies".len() && t.starts_with("cookie"))
            || (t.len() > "modal".len() && (t.ends_with("modal") || t.ends_with("popup")))
        {
            return true;
        }
        cookie |= t == "cookie" || t == "cookies";
        notice |= matches!(
            t,
            "banner" | "notice" | "bar" | "law" | "message" | "policy"
        );
    }
    cookie && notice
}

/// Each class name (and the id) is decided by its last decisive token, as compound
/// names put the head noun last (`main-nav` is navigation, `entry-content` content,
/// `post-footer` a footer); the element is boilerplate when some name says boilerplate
/// and none says content.
fn named_by_head_noun(id_class: &str) -> bool {
    let heads: &[u64; 1024] = &NAME_HEADS;
    let mut boiler = false;
    for name in id_class.split_ascii_whitespace() {
        let mut decision = None;
        for (k, t) in tokens(name).enumerate() {
            if !may_match(heads, t) {
                continue; // in none of the lists: decides nothing
            }
            if k == 0 && BOILERPLATE_HEAD.contains(&t) {
                decision = Some(true);
                continue;
            }
            // A listed word is decided before the content prefixes, which would read
            // `postmetadata` as `post`.
            if is_boilerplate_word(t) {
                decision = Some(true);
            } else if is_content_token(t) {
                decision = Some(false);
            } else if BOILERPLATE_PREFIX.iter().any(|p| t.starts_with(p)) {
                decision = Some(true);
            }
        }
        match decision {
            Some(false) => return false,
            Some(true) => boiler = true,
            None => {}
        }
    }
    boiler
}

/// Image captions and credits named in camelCase or run-together class names
/// (`imageEmbedCaption`, `newsCaption`, `photocredit`): the vocabulary matches the whole
/// tokens `caption`/`credit`, these end with them. A caption describes a picture the text
/// does not contain; a credit line names its photographer or agency.
fn is_caption_token(t: &str) -> bool {
    t.len() > "caption".len()
        && (t.ends_with("caption") || t.ends_with("credit") || t.ends_with("credits"))
}

/// Legal notices named in camelCase or run-together class names (`articleCopyright`,
/// `footerCopyright`): the vocabulary matches the whole token `copyright`, these end with
/// it. A publisher's reproduction notice under each article says nothing about the story;
/// its long sentences otherwise read as a paragraph of the text (a news site's "no part
/// of this work may be copied…" box after every item). Names ending in `disclaimer` are
/// not matched: WCXB's gold keeps market-data and affiliate disclaimers.
fn is_legal_notice_token(t: &str) -> bool {
    t.len() > "copyright".len() && t.ends_with("copyright")
}

/// Author and reviewer boxes (`author-bio`, `about-author`, `author-box`,
/// `author-info`, `author-details`, `author-description`): the writer's portrait, short
/// biography and links, shown after (sometimes before) the article on blogs, health and
/// finance sites. They describe the author, not the subject, and are not part of the
/// text. One class name must hold both an author token and a box/biography token, so a
/// plain `author` byline class or a forum post's `author` name is not matched; the two
/// may also run together (`TestReport__AuthorBox`, `authorbio`, `authorDescription`,
/// `aboutTheAuthor`).
fn is_author_box(id_class: &str) -> bool {
    id_class.split_ascii_whitespace().any(|name| {
        let mut author = false;
        let mut boxed = false;
        for t in name.split(|c: char| !c.is_alphanumeric()) {
            if AUTHOR_WORDS.contains(&t) {
                author = true;
            } else if AUTHOR_BOX_WORDS.contains(&t) {
                boxed = true;
            } else if is_run_together_author_box(t) {
                return true;
            }
        }
        author && boxed
    })
}

const AUTHOR_WORDS: &[&str] = &["author", "authors", "reviewer"];

/// What an author's box is called beside the author token.
const AUTHOR_BOX_WORDS: &[&str] = &[
    "bio",
    "box",
    "about",
    "info",
    "details",
    "profile",
    "card",
    "description",
];

/// One token made of an author word and a box word (`authorbox`, `authorbio`,
/// `authordescription`, `aboutauthor`, `abouttheauthor`); a box word may be followed by
/// more (`authorprofilewrapper`).
fn is_run_together_author_box(t: &str) -> bool {
    if t.len() < "authorbio".len() || !t.is_ascii() {
        return false;
    }
    let about_author = t
        .strip_prefix("about")
        .map(|rest| rest.strip_prefix("the").unwrap_or(rest))
        .is_some_and(|rest| AUTHOR_WORDS.contains(&rest));
    about_author
        || AUTHOR_WORDS.iter().any(|a| {
            t.strip_prefix(a)
                .is_some_and(|rest| AUTHOR_BOX_WORDS.iter().any(|b| rest.starts_with(b)))
        })
}

fn is_content_token(t: &str) -> bool {
    CONTENT_PREFIX.iter().any(|p| t.starts_with(p)) && !LIST_OF_OTHERS.contains(&t)
}

/// Plural content nouns name a list of *other* pages' items (`related-posts`,
/// `popular-articles`, `more-stories`, `recent-entries`), not the page's own text: they
/// decide nothing, so the modifier before them does (`related` → boilerplate), and a
/// plain `posts` wrapper stays unmarked.
const LIST_OF_OTHERS: &[&str] = &["posts", "articles", "stories", "entries"];

/// The class/id vocabulary names a comment section (or a comment).
pub fn is_comment_name(id_class: &str) -> bool {
    let heads: &[u64; 1024] = &COMMENT_HEADS;
    !id_class.is_empty()
        && tokens(id_class)
            .any(|t| may_match(heads, t) && COMMENT_PREFIX.iter().any(|p| t.starts_with(p)))
}

/// Customer reviews on a store's product page: a class/id token that starts with
/// `review` (`review`, `reviews`, `customer-review`, `jdgm-review-widget`,
/// `reviewText`), or `itemprop=review` (in `role`, which holds `itemprop` values).
/// `itemprop=reviewBody` is a content role and is decided before this.
pub fn is_review_name(id_class: &str, role: &str) -> bool {
    tokens(id_class).any(|t| t.starts_with("review") || t.starts_with("отзыв"))
        || role.split(' ').any(|r| r == "review")
}

/// Tags that are boilerplate by themselves.
pub fn is_boilerplate_tag(tag: &str) -> bool {
    matches!(
        tag,
        "nav"
            | "footer"
            | "aside"
            | "header"
            | "menu"
            | "dialog"
            | "search"
            | "noscript"
            | "figcaption"
    )
}

/// ARIA roles of boilerplate landmarks.
pub fn is_boilerplate_role(role: &str) -> bool {
    role.split(' ').any(|r| {
        matches!(
            r,
            "navigation"
                | "banner"
                | "contentinfo"
                | "complementary"
                | "search"
                | "dialog"
                | "alertdialog"
                | "menu"
                | "menubar"
        )
    })
}

/// Roles and `itemprop`s of the main content.
pub fn is_content_role(role: &str) -> bool {
    role.split(' ').any(|r| {
        matches!(
            r,
            "main" | "articlebody" | "article" | "text" | "description" | "reviewbody"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_boilerplate_word_is_found() {
        for w in BOILERPLATE_EXACT {
            assert!(is_boilerplate_word(w), "{w}");
        }
        assert!(!is_boilerplate_word("navx"));
        assert!(!is_boilerplate_word(""));
    }

    #[test]
    fn the_head_filter_passes_every_listed_word() {
        for w in BOILERPLATE_EXACT
            .iter()
            .chain(BOILERPLATE_PREFIX)
            .chain(BOILERPLATE_HEAD)
            .chain(CONTENT_PREFIX)
        {
            assert!(may_match(&NAME_HEADS, w), "{w}");
            assert!(may_match(&NAME_HEADS, &format!("{w}x")), "{w}");
        }
        for w in COMMENT_PREFIX {
            assert!(may_match(&COMMENT_HEADS, w), "{w}");
        }
        assert!(!may_match(&NAME_HEADS, "flex"));
        assert!(!may_match(&NAME_HEADS, "x"));
        assert!(!may_match(&COMMENT_HEADS, "article"));
    }

    #[test]
    fn tokens_not_substrings() {
        assert!(is_boilerplate_name("site-footer__inner"));
        assert!(is_boilerplate_name("main-nav"));
        assert!(!is_boilerplate_name("threads list"));
        assert!(!is_boilerplate_name("canvas"));
        assert!(!is_boilerplate_name("sidebar content"));
        assert!(!is_boilerplate_name("entry-content"));
        assert!(is_boilerplate_name("widget widget_text"));
        assert!(!is_boilerplate_name("elementor-widget-container"));
        assert!(is_boilerplate_name("post-footer"));
        assert!(is_boilerplate_name("блок реклама"));
        assert!(is_comment_name("comments-area"));
        assert!(!is_comment_name("commerce"));
        // Other languages name comment sections in their own words.
        for name in [
            "art-komentarze",
            "dodaj-komentarz",
            "σχόλια",
            "коментарі",
            "kommentarer",
            "pinglun-list",
        ] {
            assert!(is_comment_name(name), "{name}");
        }
        assert!(!is_comment_name("kompozycja"));
        assert!(is_caption_token("newscaption"));
        assert!(!tokens("caption-less content").any(is_caption_token));
        assert!(is_boilerplate_name("articlecopyright"));
        assert!(is_boilerplate_name("stgfootercopyright"));
        assert!(!tokens("copyright-free-text").any(is_legal_notice_token));
        assert!(is_boilerplate_name("kontakt"));
        assert!(!is_boilerplate_name("ic_vkontakte"));
        for boxed in [
            "author-bio clearfix",
            "about-author",
            "testreport__authorbox",
            "author-description",
            "authorprofilewrapper",
            "abouttheauthor",
        ] {
            assert!(is_author_box(boxed), "{boxed}");
        }
        for name in ["author", "post-info", "authorname", "authorization"] {
            assert!(!is_author_box(name), "{name}");
        }
        // Listed words before the content prefix `post`; paywalls and buy boxes.
        for name in [
            "postmetadata",
            "donation",
            "content-form-account-paywall",
            "buybox__info",
        ] {
            assert!(is_boilerplate_name(name), "{name}");
        }
        assert!(is_boilerplate_name("ast-single-related-posts-container"));
        assert!(is_boilerplate_name("popular-articles"));
        assert!(!is_boilerplate_name("posts"));
        assert!(!is_boilerplate_name("post-content"));
        assert!(is_overlay_name("membermodal"));
        assert!(is_overlay_name("v8modal"));
        assert!(is_overlay_name("cmplz-cookiebanner cmplz-hidden"));
        assert!(is_overlay_name("cookie-notice"));
        assert!(is_overlay_name("modal-content"));
        assert!(!is_overlay_name("cookies recipe"));
        assert!(!is_overlay_name("modality"));
        assert!(is_overlay_name("onetrust-pc-sdk"));
        assert!(is_overlay_name("didomi-host"));
    }
}
