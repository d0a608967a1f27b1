//! Differential tests: the fast evaluator (`xpath_fast/`, run through `eval.rs` and
//! `apply.rs`) against sxd-xpath, the reference engine, on every fixture page — every
//! shipped XPath, fixed expressions and expressions generated from the page's classes
//! and ids must select the same nodes, and rules built from them must write the same
//! text.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use sxd_document::dom::Root;
use sxd_xpath::nodeset::Node;
use sxd_xpath::Value;

use super::compile::compile;
use super::eval::PageTrees;
use super::sxd::{value_text, XPATH_CONTEXT};
use super::RuleSet;
use crate::extract::dom::{self, ParsedPage};
use crate::extract::xml::{to_xml, XmlOptions};
use crate::extract::xpath_fast::{Arena, Item, Plan, StrPlan};

/// Every HTML page under `fixtures/`, parsed.
pub(super) fn fixture_pages() -> Vec<(PathBuf, ParsedPage)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut stack = vec![root];
    let mut files = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "html" || x == "htm") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 16, "{files:?}");
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            let text = crate::charset::decode_html(&bytes, None, None).text;
            (p, dom::parse_page(&text))
        })
        .collect()
}

/// Each sxd node's document-order index, numbered as the page index numbers them.
fn sxd_numbers<'d>(root: Root<'d>) -> HashMap<Node<'d>, u32> {
    let mut out = HashMap::new();
    let mut stack = vec![Node::Root(root)];
    while let Some(n) = stack.pop() {
        match n {
            Node::Root(_) | Node::Element(_) | Node::Text(_) => {
                out.insert(n, out.len() as u32);
                for c in n.children().into_iter().rev() {
                    stack.push(c);
                }
            }
            _ => {}
        }
    }
    out
}

fn sxd_items<'d>(v: &Value<'d>, numbers: &HashMap<Node<'d>, u32>) -> Vec<Item> {
    let Value::Nodeset(ns) = v else {
        panic!("not nodes: {v:?}")
    };
    ns.document_order()
        .into_iter()
        .map(|n| match n {
            Node::Attribute(a) => Item::Attr(
                numbers[&Node::Element(a.parent().unwrap())],
                a.name().local_part().to_string(),
            ),
            n => Item::Node(numbers[&n]),
        })
        .collect()
}

/// Expressions of the subset, page-independent ones and ones made from the classes
/// and ids found on the page.
fn generated_xpaths(arena: &Arena) -> Vec<String> {
    let mut out: Vec<String> = [
        "/html",
        "/html/body",
        "/html/body/*",
        "/html/body/div[1]",
        "/html/body/*[2]",
        "/html/head/title",
        "//div",
        "//p",
        "//*",
        "//div[1]",
        "//p[2]",
        "//div/p[1]",
        "//div//p[1]",
        "//div[@id]",
        "//div[not(@id)]",
        "//*[@id][1]",
        "//div[@class][2]",
        "//div[2][@class]",
        "//span[1][@class]",
        "//a/@href",
        "//@href",
        "//@class",
        "//meta/@content",
        "//meta[@name='description']/@content",
        "//div//a[starts-with(@href, 'http')]",
        "//a[@href != '#']",
        "//a[@href = '#']",
        "//li[2]//a",
        "//ul/li[1]",
        "//table//tr[2]/td[1]",
        "//tr/td[2]//p",
        "//div[@class and @id]",
        "//div[@class or @id]",
        "//*[contains(@class, 'a') and not(contains(@class, 'nav'))]",
        "//*[(@id or @class) and not(@style)]",
        "//div[translate(@class, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = 'content']",
        "//*[normalize-space(@class) = 'post-body']",
        "//*[concat(@class, 'x') = 'textx']",
        "//*[contains(@class, '')]",
        "//*[starts-with(@id, '')][3]",
        "//body//*[3]",
        "//body/div/div/div",
        "//div/*/*[1]",
        "//head/*",
        "//script",
        "//*[@lang]",
        "//p[@class='text'][1]",
        "//h1 | //h2",
        "//p/text()",
        "//div[position() = 1]",
        "//p[starts-with(normalize-space(.), 'The')]",
        "//div[starts-with(normalize-space(.), '')]",
        "//*[starts-with(., ' ')]",
        "//li[starts-with(., 'a')]",
        "//p[contains(., 'the') and not(contains(., 'and'))]",
        "//div[. = '']",
        "//span[normalize-space(.) != '']",
        "//*[normalize-space(.) = normalize-space(@title)]",
        "//td[translate(normalize-space(.), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = 'name']",
        "//p[starts-with(normalize-space(concat(., ' ')), 'A')]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut seen = HashSet::new();
    for i in 0..arena.len() as u32 {
        let Some(tag) = arena.name(i).map(|t| t.to_string()) else {
            continue;
        };
        for (attr, v) in [
            ("class", arena.attr(i, "class")),
            ("id", arena.attr(i, "id")),
        ] {
            let Some(v) = v else { continue };
            if v.contains(['\'', '"']) || !seen.insert((tag.clone(), v.clone())) || seen.len() > 40
            {
                continue;
            }
            let tok = v.split_whitespace().next().unwrap_or("").to_string();
            out.push(format!("//{tag}[@{attr}='{v}']"));
            out.push(format!("//*[@{attr}='{v}']/*"));
            out.push(format!("//*[@{attr}='{v}']//p[1]"));
            out.push(format!("//*[contains(@{attr}, '{tok}')]"));
            out.push(format!(
                "//{tag}[contains(concat(' ', normalize-space(@{attr}), ' '), ' {tok} ')][1]"
            ));
            out.push(format!("//{tag}[starts-with(@{attr}, '{tok}')]/@{attr}"));
        }
    }
    // Label tests on the page's own text: the first one and two words of an element's
    // text, with and without whitespace normalization, and a word anywhere in it.
    let mut labels = HashSet::new();
    for i in 0..arena.len() as u32 {
        let Some(tag) = arena.name(i).map(|t| t.to_string()) else {
            continue;
        };
        let text = arena.string_value(i);
        let words: Vec<&str> = text.split_whitespace().take(2).collect();
        if words.is_empty()
            || text.contains(['\'', '"'])
            || labels.len() > 30
            || !labels.insert((tag.clone(), words.join(" ")))
        {
            continue;
        }
        let two = words.join(" ");
        let raw: String = text.chars().take(6).collect();
        out.push(format!("//{tag}[starts-with(normalize-space(.), '{two}')]"));
        out.push(format!(
            "//*[starts-with(normalize-space(.), '{}')]",
            words[0]
        ));
        out.push(format!("//{tag}[starts-with(., '{raw}')]"));
        out.push(format!("//*[contains(., '{}')][1]", words[words.len() - 1]));
        out.push(format!("//{tag}[normalize-space(.) = '{two}']"));
    }
    out
}

/// What sxd-xpath, the reference engine, gives for `expr` on the document.
fn reference<'d>(expr: &str, root: Root<'d>) -> Value<'d> {
    XPATH_CONTEXT
        .with(|ctx| compile(expr).unwrap().evaluate(ctx, root))
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// String-valued expressions of the subset (titles, dates).
const STRING_XPATHS: &[&str] = &[
    "normalize-space(//h1)",
    "string(//title)",
    "substring-after(//title, ' ')",
    "substring-before(//p, '.')",
    "substring-after(//p, '')",
    "substring-before(//p, '')",
    "substring-after(//p, 'no such text anywhere')",
    "concat(//h1, ' | ', //title)",
    "translate(//h1, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')",
    "translate(//h1, 'aeiou', 'AE')",
    "string(//meta[@name='description']/@content)",
    "normalize-space(substring-before(substring-after(//div[@class='date'], 'Опубликовано'), '|'))",
    "normalize-space(//*[@class='nothing-has-this'])",
    "normalize-space('  a  b ')",
];

#[test]
fn the_fast_evaluator_selects_what_sxd_selects_on_every_fixture_page() {
    let set = RuleSet::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("site-rules")).unwrap();
    let shipped: Vec<String> = set.xpaths.iter().map(|x| x.expr.clone()).collect();
    let mut compared = 0;
    let mut fast_shipped = HashSet::new();
    for (path, page) in fixture_pages() {
        let arena = Arena::build(&page.tree);
        let package = to_xml(&page.tree, XmlOptions::default());
        let doc = package.as_document();
        let numbers = sxd_numbers(doc.root());
        assert_eq!(numbers.len(), arena.len(), "{}", path.display());
        let generated = generated_xpaths(&arena);
        for expr in shipped.iter().chain(&generated) {
            let Some(plan) = Plan::compile(expr) else {
                continue;
            };
            if shipped.contains(expr) {
                fast_shipped.insert(expr.clone());
            }
            let v = reference(expr, doc.root());
            let want = sxd_items(&v, &numbers);
            let got = plan.select(&arena);
            assert_eq!(got, want, "{expr} on {}", path.display());
            // Titles and dates: the first node's text.
            let got_text = got
                .first()
                .map(|it| dom::collapse(&Plan::item_string(&arena, it)))
                .unwrap_or_default();
            assert_eq!(got_text, value_text(&v), "{expr} on {}", path.display());
            compared += 1;
        }
        // String expressions (titles, dates).
        let strings: Vec<String> = STRING_XPATHS.iter().map(|s| s.to_string()).collect();
        for expr in shipped.iter().chain(&strings) {
            let Some(plan) = StrPlan::compile(expr) else {
                continue;
            };
            if shipped.contains(expr) {
                fast_shipped.insert(expr.clone());
            }
            let v = reference(expr, doc.root());
            assert_eq!(
                dom::collapse(&plan.eval(&arena)),
                value_text(&v),
                "{expr} on {}",
                path.display()
            );
            compared += 1;
        }
        // Outside the subset: left to sxd-xpath.
        assert!(Plan::compile("//h1 | //h2").is_none());
    }
    assert!(compared > 2_000, "{compared}");
    // Every shipped XPath takes the fast path.
    let slow: Vec<&String> = shipped
        .iter()
        .filter(|x| !fast_shipped.contains(*x))
        .collect();
    assert!(slow.is_empty(), "{slow:?}");
    for x in STRING_XPATHS {
        assert!(StrPlan::compile(x).is_some(), "{x}");
    }
}

/// Every rule of `set` on `page`: the fast evaluator and sxd-xpath select the same text
/// (or fail alike), and title/date expressions give the same string. Returns the number
/// of rules compared.
fn compare_rules(set: &RuleSet, page: &ParsedPage) -> usize {
    let trees = PageTrees::new(page);
    let mut compared = 0;
    for file in &set.files {
        for rule in file.rules.iter().filter(|r| !r.disabled) {
            let plans: Vec<&Plan> = rule
                .remove
                .iter()
                .chain(&rule.content)
                .map(|&i| set.xpaths[i].fast.as_ref().unwrap())
                .collect();
            let fast = set.select_fast(rule, &plans, trees.arena());
            let slow = set.select_sxd(rule, trees.root());
            match (fast, slow) {
                (Ok(f), Ok(s)) => {
                    assert_eq!(f.text, s.text, "{}#{}", file.name, rule.name);
                    assert_eq!(f.words, s.words, "{}#{}", file.name, rule.name);
                }
                (Err(f), Err(s)) => assert_eq!(f, s, "{}#{}", file.name, rule.name),
                (f, s) => panic!("{}#{}: {f:?} vs {s:?}", file.name, rule.name),
            }
            for idx in rule.title.iter().chain(rule.date.iter()) {
                if set.xpaths[*idx].fast.is_some() || set.xpaths[*idx].fast_str.is_some() {
                    let f = set.eval_text(*idx, &trees);
                    let s = set.eval(*idx, trees.root()).ok().map(|v| value_text(&v));
                    assert_eq!(f, s, "{}", set.xpaths[*idx].expr);
                }
            }
            compared += 1;
        }
    }
    compared
}

#[test]
fn rules_write_the_same_text_with_and_without_the_fast_evaluator() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("site-rules");
    let mut sources: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| {
            let t = std::fs::read_to_string(&p).unwrap();
            (p, t)
        })
        .collect();
    sources.sort();
    let shipped = RuleSet::from_sources(sources);
    let pages = fixture_pages();
    let mut compared = 0;
    // The shipped rule files on every fixture page; generated rules (content and remove
    // from the generated expressions of a page) on that page and the next one. Every
    // page's generated rules on every page would grow with the square of the fixtures
    // (sxd-xpath takes seconds on a large page), for little more coverage.
    for (k, (_, page)) in pages.iter().enumerate() {
        compared += compare_rules(&shipped, page);
        let arena = Arena::build(&page.tree);
        let g: Vec<String> = generated_xpaths(&arena)
            .into_iter()
            .filter(|x| Plan::compile(x).is_some())
            .collect();
        let mut yaml = format!("site:\n  host: gen{k}.example\nrules:\n");
        for i in 0..g.len() {
            let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
            yaml.push_str(&format!(
                "  - name: r{i}\n    content: [{}, {}]\n    remove: [{}]\n    title: {}\n",
                q(&g[i]),
                q(&g[(i + 7) % g.len()]),
                q(&g[(i * 3 + 1) % g.len()]),
                q(&g[(i + 2) % g.len()]),
            ));
        }
        let generated = RuleSet::from_sources(vec![(PathBuf::from(format!("gen{k}.yaml")), yaml)]);
        compared += compare_rules(&generated, page);
        if let Some((_, next)) = pages.get(k + 1) {
            compared += compare_rules(&generated, next);
        }
    }
    assert!(compared > 1_000, "{compared}");
}

#[test]
fn the_fast_evaluator_agrees_on_pages_deeper_than_the_depth_cap() {
    let depth = dom::MAX_DEPTH + 100;
    let html = format!(
        "<html><body>{}<p class=x>deep <b>text</b></p>{}<p class=x>after</p></body></html>",
        "<div class='d e'><span>s</span>".repeat(depth),
        "</div>".repeat(depth)
    );
    let page = dom::parse_page(&html);
    let arena = Arena::build(&page.tree);
    let package = to_xml(&page.tree, XmlOptions::default());
    let doc = package.as_document();
    let numbers = sxd_numbers(doc.root());
    assert_eq!(numbers.len(), arena.len());
    for expr in [
        "//p",
        "//div/p",
        "//div[@class='d e'][1]",
        "//div[contains(concat(' ', normalize-space(@class), ' '), ' e ')][2]",
        "//span[1]",
        "//div/span/@class",
        "//p[@class='x']",
        "//div[1]/div[1]/div[1]",
        "//p[starts-with(normalize-space(.), 'deep text')]",
        "//div[starts-with(normalize-space(.), 'sdeep')]",
        "//*[contains(., 'after')]",
        "//div[. = 's']",
    ] {
        let v = XPATH_CONTEXT
            .with(|ctx| compile(expr).unwrap().evaluate(ctx, doc.root()))
            .unwrap();
        let got = Plan::compile(expr).unwrap().select(&arena);
        assert_eq!(got, sxd_items(&v, &numbers), "{expr}");
    }
}
