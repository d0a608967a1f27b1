//! Style-inbreeding on small invented groups: what is template, what is kept, when it
//! falls back.

use super::*;
use crate::extract::dom;
use crate::extract::PageContext;

const STORIES: [&str; 6] = [
    "The river ferry returned to service on Monday after the winter repairs, and the first \
     passengers crossed before dawn with bicycles, baskets of bread and a brass band.",
    "A small bakery on the market square has kept its wood-fired oven for ninety years; \
     the owners explain why rye loaves need a slow fire and patient hands every night.",
    "Volunteers counted the swallows nesting under the old railway bridge and found twice \
     as many as last spring, which the local society puts down to the wet summer.",
    "The violin maker in the harbour street shows how a spruce top is carved, bent and \
     varnished, and why an instrument needs a year of rest before its first concert.",
    "Children of the hill school planted an orchard of forty apple trees along the lane, \
     each labelled with the name of the class that will look after it for ten years.",
    "The town library opened a reading room in the former signal box, with a stove, two \
     armchairs and a shelf of timetables that nobody has consulted since the sixties.",
];

/// A page of the invented site: menu, article (`k`), a "latest" link column whose titles
/// change from page to page, footer.
fn page(k: usize) -> String {
    let menu: String = [
        "Home",
        "Town news",
        "Sports",
        "Culture",
        "Weather",
        "Contact",
    ]
    .iter()
    .map(|m| format!("<li><a href='/{m}'>{m}</a></li>"))
    .collect();
    let latest: String = (0..5)
        .map(|i| {
            format!(
                "<li><a href='/n/{k}{i}'>Latest headline {} of the day</a></li>",
                ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
                    [(k + i) % 10]
            )
        })
        .collect();
    let story = STORIES[k % STORIES.len()];
    format!(
        "<html><head><title>Story {k}</title></head><body>\
         <div class='menu'><ul class='nav'>{menu}</ul></div>\
         <div class='main'><h1>Story number {k}</h1>\
         <p>{story}</p><p>{story} Told again in other words for the second paragraph.</p></div>\
         <div class='side'><h3>Latest</h3><ul class='latest'>{latest}</ul></div>\
         <div class='footer'><p>About us: the Riverside Courier is written by a small team of \
         neighbours who meet every Thursday evening in the back room of the library.</p>\
         <p>Copyright 2024 Riverside Courier, all rights reserved.</p></div></body></html>"
    )
}

fn url(k: usize) -> String {
    format!("http://courier.test/news/{k}.html")
}

fn learned(pages: &[(String, String)], config: &InbreedingConfig) -> Inbreeding {
    let mut learner = Learner::new(config);
    for (u, html) in pages {
        learner.add(u, Profile::of(&dom::parse(html), config));
    }
    Inbreeding::new(
        learner.learn(config),
        config.clone(),
        HeuristicConfig::default(),
    )
}

fn answer(ex: &Inbreeding, url: &str, html: &str) -> Option<Answer> {
    let page = dom::parse_page(html);
    let ctx = PageContext { url, group: "" };
    ex.answer(&page, &ctx)
}

fn counter(ex: &Inbreeding, name: &str) -> u64 {
    ex.report().unwrap()[name].as_u64().unwrap()
}

#[test]
fn shared_menu_footer_and_latest_column_are_template_and_the_article_is_kept() {
    let config = InbreedingConfig::default();
    let pages: Vec<(String, String)> = (0..5).map(|k| (url(k), page(k))).collect();
    let ex = learned(&pages, &config);
    for (k, (u, html)) in pages.iter().enumerate() {
        let dom = dom::parse(html);
        let mask = ex.template_mask(&dom, u).expect("a template");
        let marked = |needle: &str| {
            dom.blocks
                .iter()
                .zip(&mask)
                .filter(|(b, _)| b.text.contains(needle))
                .all(|(_, &m)| m)
        };
        assert!(marked("Town news") && marked("About us") && marked("Copyright"));
        // The "latest" column changes its titles from page to page; its path is a link
        // column on every page.
        assert!(marked("Latest headline"));
        assert!(!marked(&STORIES[k][..30]));
        let a = answer(&ex, u, html).expect("cleaned");
        assert_eq!(a.method, "inbreeding+heuristic");
        let text = &a.extracted.text;
        assert!(text.contains(&STORIES[k][..40]), "{text}");
        for gone in ["Town news", "About us", "Copyright", "Latest headline"] {
            assert!(!text.contains(gone), "{gone} in {text}");
        }
        assert!(a.extracted.template_ratio.unwrap() > 0.3);
    }
    assert_eq!(counter(&ex, "pages_cleaned"), 5);
    assert_eq!(counter(&ex, "groups_learned"), 2); // courier.test/news/ and courier.test/
}

#[test]
fn a_group_of_two_pages_learns_only_what_both_say() {
    let config = InbreedingConfig::default();
    let pages: Vec<(String, String)> = (0..2).map(|k| (url(k), page(k))).collect();
    let ex = learned(&pages, &config);
    for (k, (u, html)) in pages.iter().enumerate() {
        let dom = dom::parse(html);
        let mask = ex.template_mask(&dom, u).expect("shared texts");
        let marked = |needle: &str| {
            dom.blocks
                .iter()
                .zip(&mask)
                .any(|(b, &m)| m && b.text.contains(needle))
        };
        // The footer's lines are on both pages; two pages tell nothing of link columns
        // (the menu and the "latest" column, whose titles change, stay to the heuristic).
        assert!(marked("About us") && marked("Copyright"));
        for kept in ["Town news", "Latest headline", &STORIES[k][..30]] {
            assert!(!marked(kept), "{kept}");
        }
        let text = answer(&ex, u, html).expect("cleaned").extracted.text;
        assert!(text.contains(&STORIES[k][..40]), "{text}");
        assert!(!text.contains("About us"), "{text}");
    }
    // courier.test/news/ and courier.test/
    assert_eq!(counter(&ex, "groups_learned"), 2);
    // Switched off, a group of two has no model.
    let off = InbreedingConfig {
        small_groups: false,
        ..InbreedingConfig::default()
    };
    let ex = learned(&pages, &off);
    let dom = dom::parse(&pages[0].1);
    assert_eq!(
        ex.template_mask(&dom, &pages[0].0),
        Err(Fallback::SmallGroup)
    );
    // The operator report says why in words.
    assert_eq!(
        Fallback::SmallGroup.to_string(),
        "the group has too few pages"
    );
    assert!(answer(&ex, &pages[0].0, &pages[0].1).is_none());
    assert_eq!(counter(&ex, "fallback_small_group"), 1);
    assert_eq!(counter(&ex, "groups_learned"), 0);
}

#[test]
fn two_copies_of_one_page_are_no_template() {
    // A story filed twice (a print copy): its text is on both pages, but it is the
    // page's own; the copies guard leaves the pages to the local heuristic.
    let config = InbreedingConfig::default();
    let pages: Vec<(String, String)> = (0..2)
        .map(|k| (format!("http://courier.test/news/{k}.html"), page(0)))
        .collect();
    let ex = learned(&pages, &config);
    let dom = dom::parse(&pages[1].1);
    assert_eq!(
        ex.template_mask(&dom, &pages[1].0),
        Err(Fallback::SharedText)
    );
}

#[test]
fn two_editions_of_one_story_in_a_group_of_two_are_no_template() {
    // The same story twice in one section, around it a footer rewritten in between: the
    // shared text is not the whole page (the shared-text guard lets it through), but it
    // is most of what the heuristic keeps; masked, each page would keep its menus.
    let config = InbreedingConfig::default();
    let first = page(0);
    let second = first.replace(
        "About us: the Riverside Courier is written by a small team of \
         neighbours who meet every Thursday evening in the back room of the library.",
        "The Courier moved its office to the old customs house by the harbour this spring, \
         where readers can bring letters and photographs on weekday mornings from nine.",
    );
    assert_ne!(first, second);
    let pages = vec![(url(0), first), (url(1), second)];
    let ex = learned(&pages, &config);
    for (u, html) in &pages {
        let dom = dom::parse(html);
        assert_eq!(ex.template_mask(&dom, u), Err(Fallback::SharedText));
        assert!(answer(&ex, u, html).is_none());
    }
}

/// Pages of one directory with nothing in common: a blog post, a shop, a forum, a table
/// layout, a documentation page.
fn unrelated(k: usize) -> String {
    let story = STORIES[k];
    match k {
        0 => format!("<html><body><article class='post'><header class='entry'><h1>Post</h1></header><section class='entry-content'><p>{story}</p></section></article><aside class='widget'><p>Follow the blog for more recipes and walks.</p></aside></body></html>"),
        1 => format!("<html><body><main id='shop'><div class='product'><h2 class='name'>Teapot</h2><span class='price'>12</span><div class='desc'><p>{story}</p></div></div></main></body></html>"),
        2 => format!("<html><body><table class='forum'><tr><td class='author'>anna</td><td class='post'>{story}</td></tr><tr><td class='author'>ben</td><td class='post'>Agreed, and thanks for writing it down.</td></tr></table></body></html>"),
        3 => format!("<html><body><center><table><tr><td><font size=2>{story}</font></td></tr></table></center><blockquote><p>Quoted: a line from an older letter.</p></blockquote></body></html>"),
        _ => format!("<html><body><nav class='toc'><ol><li><a href='#a'>Install</a></li><li><a href='#b'>Use</a></li></ol></nav><div class='doc'><h2 id='a'>Install</h2><pre>make install</pre><dl><dt>Note</dt><dd>{story}</dd></dl></div></body></html>"),
    }
}

#[test]
fn a_group_of_unrelated_layouts_falls_back() {
    let config = InbreedingConfig::default();
    let pages: Vec<(String, String)> = (0..5).map(|k| (url(k), unrelated(k))).collect();
    let ex = learned(&pages, &config);
    for (u, html) in &pages {
        let dom = dom::parse(html);
        assert_eq!(ex.template_mask(&dom, u), Err(Fallback::TooVaried));
        assert!(answer(&ex, u, html).is_none());
    }
    assert_eq!(counter(&ex, "fallback_too_varied"), 5);
    assert_eq!(counter(&ex, "groups_too_varied"), 2);
}

#[test]
fn a_page_of_another_layout_in_a_known_group_falls_back() {
    let config = InbreedingConfig::default();
    let pages: Vec<(String, String)> = (0..5).map(|k| (url(k), page(k))).collect();
    let ex = learned(&pages, &config);
    let odd = unrelated(2);
    let dom = dom::parse(&odd);
    assert_eq!(
        ex.template_mask(&dom, "http://courier.test/news/odd.html"),
        Err(Fallback::LayoutMismatch)
    );
}

#[test]
fn a_story_on_two_of_five_pages_is_no_template_but_copies_of_one_page_are_refused() {
    let config = InbreedingConfig::default();
    // Pages 0 and 1 carry the same story (filed twice): 2 of 5 is no majority.
    let mut pages: Vec<(String, String)> = (0..5).map(|k| (url(k), page(k))).collect();
    pages[1].1 = page(0).replace("Story number 0", "Story number 1");
    let ex = learned(&pages, &config);
    let a = answer(&ex, &pages[1].0, &pages[1].1).expect("cleaned");
    assert!(a.extracted.text.contains(&STORIES[0][..40]));
    // Three copies of one page out of four: its whole text recurs, it is a copy, not
    // a template, and the page is left to the local method.
    let copies: Vec<(String, String)> = (0..4)
        .map(|k| (url(k), if k < 3 { page(0) } else { page(3) }))
        .collect();
    let ex = learned(&copies, &config);
    let dom = dom::parse(&copies[0].1);
    assert_eq!(
        ex.template_mask(&dom, &copies[0].0),
        Err(Fallback::SharedText)
    );
}

#[test]
fn text_is_compared_without_digits_case_or_punctuation() {
    let mut a = String::new();
    let mut b = String::new();
    normalized_text("Comments (4) — Copyright 2011", &mut a);
    normalized_text("comments (12): copyright 2024!", &mut b);
    assert_eq!(a, "comments copyright");
    assert_eq!(a, b);
}

/// A page of an invented wire service: the article in `div.main`, and a "wire" of
/// timed one-line headlines (plain text, different on every page) in `div.sidebar` beside
/// it; on page 0 the wire sits inside `div.main` instead, `at` 0 after the article or
/// 1 between its two paragraphs. Both places have one element path (`div > div.wire >
/// p`: the ancestors above the parent name only their tag).
fn wire_page(k: usize, inside_at: Option<usize>) -> String {
    let wire: String = (0..4)
        .map(|i| {
            format!(
                "<p class='line'>1{i}:0{k} Minister visits the {} valley to open the bridge over the mill stream</p>",
                ["north", "south", "east", "west", "upper", "lower", "green", "stone", "river"]
                    [(k + i) % 9]
            )
        })
        .collect();
    let wire = format!("<div class='wire'>{wire}</div>");
    let story = STORIES[k % STORIES.len()];
    let (middle, after, side) = match inside_at {
        Some(1) => (wire.as_str(), "", ""),
        Some(_) => ("", wire.as_str(), ""),
        None => ("", "", wire.as_str()),
    };
    format!(
        "<html><head><title>Wire {k}</title></head><body>\
         <div class='top'><p>The Valley Wire</p></div>\
         <div class='main'><h1>Report number {k}</h1><p>{story}</p>{middle}\
         <p>{story} The second paragraph adds what the first one left out.</p>{after}</div>\
         <div class='sidebar'>{side}</div></body></html>"
    )
}

/// A group learned with each sample page's local answer (the learning pass's profiles).
fn learned_with_local(pages: &[(String, String)], config: &InbreedingConfig) -> Inbreeding {
    let heuristic = HeuristicConfig::default();
    let mut learner = Learner::new(config);
    for (u, html) in pages {
        let dom = dom::parse(html);
        learner.add(u, Profile::with_local(&dom, &config, &heuristic));
    }
    Inbreeding::new(learner.learn(config), config.clone(), heuristic)
}

#[test]
fn a_path_the_group_keeps_outside_its_text_is_template_whatever_it_says() {
    let config = InbreedingConfig::default();
    let mut pages: Vec<(String, String)> = (0..6).map(|k| (url(k), wire_page(k, None))).collect();
    pages[0].1 = wire_page(0, Some(0));
    let html = &pages[0].1;
    // Locally the wire after the article is part of it: nothing on the page says otherwise.
    let local = crate::extract::heuristic::extract(&dom::parse(html), &HeuristicConfig::default());
    assert!(local.text.contains("Minister visits"), "{}", local.text);
    let ex = learned_with_local(&pages, &config);
    let a = answer(&ex, &pages[0].0, html).expect("cleaned");
    let text = &a.extracted.text;
    assert!(text.contains(&STORIES[0][..40]), "{text}");
    assert!(text.contains("second paragraph adds"), "{text}");
    assert!(!text.contains("Minister visits"), "{text}");
    // Learned without the local answers, the group has no such path.
    let ex = learned(&pages, &config);
    let a = answer(&ex, &pages[0].0, html);
    assert!(a.map_or(true, |a| a.extracted.text.contains("Minister visits")));
}

#[test]
fn an_outside_path_inside_the_article_is_kept() {
    let config = InbreedingConfig::default();
    let mut pages: Vec<(String, String)> = (0..6).map(|k| (url(k), wire_page(k, None))).collect();
    pages[0].1 = wire_page(0, Some(1));
    let html = &pages[0].1;
    let ex = learned_with_local(&pages, &config);
    let text = match answer(&ex, &pages[0].0, html) {
        Some(a) => a.extracted.text,
        None => {
            crate::extract::heuristic::extract(&dom::parse(html), &HeuristicConfig::default()).text
        }
    };
    // Between the article's paragraphs the lines are the article's own.
    assert!(text.contains(&STORIES[0][..40]), "{text}");
    assert!(text.contains("Minister visits"), "{text}");
    assert!(text.contains("second paragraph adds"), "{text}");
}

#[test]
fn the_blocks_written_out_are_found_again() {
    let html = "<html><body><p>One two three.</p><p>Menu</p><p>Four five six.</p><p>Four five six.</p></body></html>";
    let dom = dom::parse(html);
    let kept = kept_blocks(&dom, "One two three.\nFour five six.");
    assert_eq!(kept, vec![true, false, true, false]);
    assert_eq!(kept_blocks(&dom, ""), vec![false; 4]);
}

/// A page whose headline and filing line sit in `div.head` above the article (`div.main`)
/// and whose local answer is the article alone: the group keeps both paths outside its
/// text.
fn headed_page(k: usize) -> String {
    let story = STORIES[k % STORIES.len()];
    let place = ["north", "south", "east", "west", "upper", "lower", "green"][k % 7];
    format!(
        "<html><head><title>Minister opens the {place} valley bridge | The Valley Wire</title></head><body>\
         <div class='top'><p>The Valley Wire</p></div>\
         <div class='head'><h1>Minister opens the {place} valley bridge</h1>\
         <p class='filed'>Filed at 1{k}:00 by the {place} desk</p></div>\
         <div class='main'><p>{story}</p>\
         <p>{story} The second paragraph adds what the first one left out.</p></div>\
         </body></html>"
    )
}

#[test]
fn the_headline_is_not_marked_as_a_path_outside_the_text() {
    let config = InbreedingConfig::default();
    let pages: Vec<(String, String)> = (0..6).map(|k| (url(k), headed_page(k))).collect();
    let ex = learned_with_local(&pages, &config);
    let dom = dom::parse(&pages[0].1);
    // The local answer is the article alone: both lines of `div.head` are outside it on
    // every page, so their paths are outside the group's text.
    let local = crate::extract::heuristic::extract(&dom, &HeuristicConfig::default());
    assert!(!local.text.contains("Minister opens"), "{}", local.text);
    let mask = ex.template_mask(&dom, &pages[0].0).expect("a mask");
    let at = |s: &str| {
        dom.blocks
            .iter()
            .position(|b| b.text.starts_with(s))
            .unwrap()
    };
    // The filing line is marked; the headline, which says the page's title, is not.
    assert!(mask[at("Filed at")], "{mask:?}");
    assert!(!mask[at("Minister opens")], "{mask:?}");
}

#[test]
fn a_site_sentence_nested_differently_on_one_page_is_template_there_too() {
    // The site's "follow us" sentence closes every article: on most pages as the last
    // line of a block that also says where the story comes from, on page 0 as a block of
    // its own inside the article's paragraph element. Its (path, text) is that page's
    // alone; the sentence, as a line, is on every page.
    const FOLLOW: &str = "Follow the Riverside Courier on the town's message board to read \
                          every story of the day, the weather and the ferry times first!";
    let html = |k: usize| {
        let story = STORIES[k % STORIES.len()];
        let closing = if k == 0 {
            format!("<div class='text'><p>{story}</p><p><br><br>{FOLLOW}</p></div>")
        } else {
            format!(
                "<div class='text'>{story}<br><br><p><br><br>{FOLLOW}<br><br>\
                 (Supplied by the Courier's news desk. Do not copy without permission.)</p></div>"
            )
        };
        page(k).replace(
            "</div><div class='side'>",
            &format!("{closing}</div><div class='side'>"),
        )
    };
    let config = InbreedingConfig::default();
    let pages: Vec<(String, String)> = (0..5).map(|k| (url(k), html(k))).collect();
    let ex = learned(&pages, &config);
    for (u, html) in &pages {
        let text = answer(&ex, u, html).expect("cleaned").extracted.text;
        assert!(!text.contains("Follow the Riverside"), "{text}");
    }
    let text = answer(&ex, &pages[0].0, &pages[0].1)
        .unwrap()
        .extracted
        .text;
    assert!(text.contains(&STORIES[0][..40]), "{text}");
    // A short line is no sentence: "Latest" alone says what it means only in its place.
    let dom = dom::parse(&pages[0].1);
    let keys = BlockKeys::of(&dom, &config);
    let latest = dom.blocks.iter().position(|b| b.text == "Latest").unwrap();
    assert!(keys.sentences[latest].keys.is_empty());
}

#[test]
fn two_pages_of_different_directories_learn_nothing() {
    // A story and its print copy in another section share much of their text and only
    // the site's root prefix: a group of two serves its own directory only.
    let config = InbreedingConfig::default();
    let pages = [
        ("http://courier.test/news/0.html".to_string(), page(0)),
        ("http://courier.test/print/0.html".to_string(), page(1)),
    ];
    let ex = learned(&pages, &config);
    for (u, html) in &pages {
        let dom = dom::parse(html);
        assert_eq!(ex.template_mask(&dom, u), Err(Fallback::SmallGroup));
    }
}
