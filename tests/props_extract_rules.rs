//! Property tests of the extractor and the rule loader (issue 14, item 5): random HTML
//! trees (any nesting, unclosed tags, hidden and boilerplate marks, NUL bytes, scripts)
//! and random rule files (well-formed YAML with random XPaths, damaged YAML, random
//! text). The extractor must answer without panicking or hanging and never write a
//! letter the page does not hold; the loader must turn every problem into a `Problem`,
//! and the rules it keeps must apply to pages without panicking. Fixed seed.

use std::path::PathBuf;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use thresher::extract::heuristic::{Heuristic, HeuristicConfig};
use thresher::extract::rules::{RuleSet, Rules};
use thresher::extract::{dom, Cascade, PageContext};

fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x6578_7472_6163),
        failure_persistence: None,
        max_shrink_iters: 256,
        ..Config::default()
    }
}

/// See `props_readers.rs`: a case not done within a minute is a hang.
fn no_hang<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(move || {
            let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
        })
        .unwrap();
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(Ok(v)) => v,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => panic!("no result within 60 s: a hang"),
    }
}

const TAGS: &[&str] = &[
    "div",
    "p",
    "span",
    "a",
    "article",
    "main",
    "nav",
    "footer",
    "header",
    "aside",
    "section",
    "ul",
    "ol",
    "li",
    "table",
    "tr",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "pre",
    "code",
    "blockquote",
    "form",
    "button",
    "details",
    "summary",
    "noscript",
    "script",
    "style",
    "template",
    "iframe",
    "svg",
    "math",
    "select",
    "option",
    "textarea",
    "b",
    "i",
    "em",
    "strong",
    "br",
    "img",
    "font",
    "center",
    "dl",
    "dt",
    "dd",
    "figure",
    "figcaption",
    "x-widget",
];

const ATTRS: &[&str] = &[
    "",
    " class=content",
    " class=\"post entry-content\"",
    " class=nav",
    " class=footer",
    " class=\"comment reply\"",
    " class=sidebar",
    " class=hidden",
    " class=sr-only",
    " class=\"d-none d-md-block\"",
    " id=main",
    " id=comments",
    " hidden",
    " aria-hidden=true",
    " style=\"display:none\"",
    " role=main",
    " role=navigation",
    " role=tabpanel",
    " itemprop=articleBody",
    " href=/x",
    " href=\"http://example.com/a\"",
    " aria-expanded=false",
];

const WORDS: &[&str] = &[
    "river",
    "stone",
    "garden",
    "winter",
    "lantern",
    "orchard",
    "meadow",
    "Москва",
    "город",
    "新闻",
    "报道",
    "Αθήνα",
    "Kraków",
    "naïve",
    "2024",
    "x",
    "the",
    "of",
    "and",
];

/// Text of words, sometimes with a NUL, a stray `<` or `>`, or a very long run.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(prop::sample::select(WORDS), 1..30).prop_map(|w| w.join(" ")),
        1 => Just("a\0b \0 nul".to_string()),
        1 => Just("3 < 4 > 2 <<>> </ <! <?".to_string()),
        1 => (1..3000usize).prop_map(|n| "long ".repeat(n)),
    ]
}

fn html_tree() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        6 => text(),
        1 => Just("<!-- a comment -->".to_string()),
        1 => Just("<br>".to_string()),
        1 => Just("<img src=x.png alt=\"\">".to_string()),
    ];
    leaf.prop_recursive(10, 400, 8, |inner| {
        (
            prop::sample::select(TAGS),
            prop::sample::select(ATTRS),
            prop::collection::vec(inner, 0..8),
            prop::bool::weighted(0.85),
        )
            .prop_map(|(tag, attr, kids, close)| {
                let end = if close {
                    format!("</{tag}>")
                } else {
                    String::new()
                };
                format!("<{tag}{attr}>{}{end}", kids.concat())
            })
    })
}

fn page() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (html_tree(), prop::option::of(text())).prop_map(|(body, title)| format!(
            "<!doctype html><html><head><title>{}</title></head><body>{body}</body></html>",
            title.unwrap_or_default()
        )),
        1 => html_tree(),
        // Deep nesting, opened and never closed, or closed in the wrong order.
        1 => (1..6000usize, prop::sample::select(TAGS), text()).prop_map(|(n, tag, t)| {
            format!("<html><body>{}<p>{t}</p>{}</body></html>", format!("<{tag}>").repeat(n), "</div>".repeat(n / 2))
        }),
        // Attribute-dense: tags of up to 1,500 attributes (past a tag's 1,000, dropped).
        1 => (1..1500usize, 1..8usize, text()).prop_map(|(n, tags, t)| {
            let attrs: String = (0..n).map(|i| format!(" a{i}=\"{i}\"")).collect();
            format!("<html><body>{}</body></html>", format!("<span{attrs}>{t}</span>").repeat(tags))
        }),
        // Wide: one element with up to 20,000 children.
        1 => (1..20_000usize, text()).prop_map(|(n, t)| {
            format!("<html><body><div><p>{t}</p>{}</div></body></html>", "<i>w</i>".repeat(n))
        }),
    ]
}

/// An attribute as pages write them, quoted or not, with `>` and quotes in values; names
/// that mark nothing (no `hidden`, `class`, `style`), so dropping them changes no text.
fn attribute() -> impl Strategy<Value = String> {
    (0..40usize, 0..6usize).prop_map(|(i, form)| match form {
        0 => format!(" a{i}"),
        1 => format!(" a{i}=v{i}"),
        2 => format!(" a{i}=\"{i} > {i}\""),
        3 => format!(" a{i}='say \"{i}\"'"),
        4 => format!(" data-{i} = 'x'"),
        _ => format!("\ta{i}=\"\""),
    })
}

/// Letters and digits of `s`, counted: the extractor writes a subset of the page's.
fn letters(s: &str) -> std::collections::HashMap<char, usize> {
    let mut m = std::collections::HashMap::new();
    for c in s.chars().filter(|c| c.is_alphanumeric()) {
        *m.entry(c).or_default() += 1;
    }
    m
}

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn random_pages_extract_without_inventing_text(html in page()) {
        let source = html.clone();
        let (text, title) = no_hang(move || {
            let parsed = dom::parse_page(&source);
            let cascade = Cascade::local(HeuristicConfig::default());
            let ctx = PageContext { url: "http://example.com/a/b.html", group: "example.com/a/" };
            let answer = cascade.answer(&parsed, &ctx);
            let title = thresher::extract::title::page_title(&parsed.dom, Some(ctx.url));
            (answer.extracted.text, title)
        });
        let have = letters(&html);
        for (c, n) in letters(&text) {
            prop_assert!(have.get(&c).copied().unwrap_or(0) >= n, "{c:?} ×{n} not in the page");
        }
        let _ = title;
    }

    #[test]
    fn dropping_attributes_keeps_every_text(
        tags in prop::collection::vec(
            (prop::sample::select(TAGS), prop::collection::vec(attribute(), 0..12), text()),
            1..30,
        ),
        budget in 0..60usize,
    ) {
        let html: String = tags
            .iter()
            .map(|(tag, attrs, t)| format!("<{tag}{}>{t}</{tag}>", attrs.concat()))
            .collect();
        let (limited, dropped) = dom::limit_attributes(&html, budget);
        let total: usize = tags.iter().map(|(_, a, _)| a.len()).sum();
        prop_assert_eq!(dropped, total.saturating_sub(budget));
        let text = |h: &str| dom::parse(h).blocks.iter().map(|b| b.text.clone()).collect::<Vec<_>>();
        prop_assert_eq!(text(&limited), text(&html));
    }
}

/// An XPath as rule writers (and their typos) write them.
fn xpath() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("//"),
        Just("/"),
        Just("div"),
        Just("p"),
        Just("*"),
        Just("article"),
        Just("a"),
        Just("[@class='content']"),
        Just("[contains(@class, 'post')]"),
        Just("[1]"),
        Just("[last()]"),
        Just("/text()"),
        Just("/@href"),
        Just(" | "),
        Just("("),
        Just(")"),
        Just("normalize-space("),
        Just("[not(@hidden)]"),
        Just("ancestor::"),
        Just("following-sibling::"),
        Just("'"),
        Just("$var"),
        Just("h:div"),
        Just("matches(.,'x')"),
        Just("[position()<3]"),
        Just("count(//p)"),
        Just("string(//h1)"),
        Just("concat('a',"),
        Just("]"),
        Just("["),
        Just("@"),
        Just(".."),
    ];
    prop::collection::vec(piece, 1..8).prop_map(|p| p.concat())
}

fn rule_file() -> impl Strategy<Value = String> {
    let rule = (
        "[a-z0-9#. -]{0,8}",
        prop::collection::vec(xpath(), 0..3),
        prop::collection::vec(xpath(), 0..2),
        prop::option::of(xpath()),
        prop::option::of(xpath()),
        prop::option::of(prop_oneof![Just("/".to_string()), "[a-z/*]{0,10}"]),
        prop::option::of(-2.0f64..2.0),
    )
        .prop_map(|(name, content, remove, title, when, glob, ratio)| {
            let list = |xs: &[String]| {
                xs.iter()
                    .map(|x| format!("\n      - {:?}", x))
                    .collect::<String>()
            };
            let mut r = format!(
                "  - name: {name:?}\n    content:{}\n",
                if content.is_empty() {
                    " []".into()
                } else {
                    list(&content)
                }
            );
            if !remove.is_empty() {
                r += &format!("    remove:{}\n", list(&remove));
            }
            if let Some(t) = title {
                r += &format!("    title: {t:?}\n");
            }
            if let Some(w) = when {
                r += &format!("    when: {w:?}\n");
            }
            if let Some(g) = glob {
                r += &format!("    path_glob: {g:?}\n");
            }
            if let Some(m) = ratio {
                r += &format!("    min_ratio: {m}\n");
            }
            r
        });
    (
        prop_oneof![
            Just("example.com"),
            Just("EXAMPLE.com."),
            Just(""),
            Just("xn--e1afmkfd.xn--p1ai"),
            Just("*.example.com")
        ],
        any::<bool>(),
        prop::collection::vec(rule, 0..4),
    )
        .prop_map(|(host, sub, rules)| {
            format!(
                "site:\n  host: {host:?}\n  subdomains: {sub}\nrules:\n{}",
                rules.concat()
            )
        })
}

/// A rule file, damaged: bytes overwritten, inserted, removed (then read as UTF-8, lossy).
fn damaged_yaml() -> impl Strategy<Value = String> {
    (
        rule_file(),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..6),
    )
        .prop_map(|(y, edits)| {
            let mut v = y.into_bytes();
            for (at, b, op) in edits {
                if v.is_empty() {
                    break;
                }
                let i = at.index(v.len());
                match op {
                    0 => v[i] = b,
                    1 => v.insert(i, b),
                    _ => {
                        v.remove(i);
                    }
                }
            }
            String::from_utf8_lossy(&v).into_owned()
        })
}

const RULE_PAGE: &str = "<html><head><title>T</title></head><body><nav><a href=/>Home</a></nav><article class=content><h1>Head line</h1><p class=post>The article text, long enough for a rule to yield words.</p><p hidden>hidden</p></article><div class=post>Second post block</div><footer>Copyright</footer></body></html>";

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn random_rule_files_load_into_problems_and_apply(yaml in prop_oneof![
        4 => rule_file(),
        3 => damaged_yaml(),
        1 => "\\PC{0,200}",
    ]) {
        let source = yaml.clone();
        let (problems, texts) = no_hang(move || {
            let set = RuleSet::from_sources(vec![(PathBuf::from("site-rules/example.com.yaml"), source)]);
            let problems: Vec<String> = set.problems().iter().map(|p| p.to_string()).collect();
            let cascade = Cascade::new(vec![
                Box::new(Rules::new(set)),
                Box::new(Heuristic::new(HeuristicConfig::default())),
            ]);
            let parsed = dom::parse_page(RULE_PAGE);
            let mut texts = Vec::new();
            for url in ["http://example.com/", "http://www.example.com/news/a.html", "http://sub.example.com/x", "http://other.example/"] {
                let ctx = PageContext { url, group: "example.com/" };
                texts.push(cascade.answer(&parsed, &ctx).extracted.text);
                cascade.end_batch();
            }
            (problems, texts)
        });
        for p in &problems {
            prop_assert!(p.contains("example.com.yaml"), "a problem names its file: {p}");
        }
        let have = letters(RULE_PAGE);
        for t in &texts {
            for (c, n) in letters(t) {
                // Rules may select the same node twice through two XPaths; a letter
                // that is not on the page at all would be invented.
                prop_assert!(have.contains_key(&c), "{c:?} ×{n} not in the page");
            }
        }
    }
}
