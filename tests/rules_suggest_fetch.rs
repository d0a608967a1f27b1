//! `thresher rules suggest` on URLs it fetches itself, from a server started here on a
//! loopback address serving the invented site of `fixtures/suggest/`: the fetcher's
//! politeness holds (robots.txt read and obeyed, the user agent sent), a missing page and
//! an unreachable host are reported by URL without stopping the others, the draft passes
//! `rules test` with its test pages copied beside it, and fewer than three pages that
//! come back are refused with the reason, writing nothing.

mod common;
mod fetch_server;

use std::path::Path;

use common::*;
use fetch_server::{html, Reply, Server, FAST};

/// The fixture site: its pages under their paths, a robots.txt keeping out `/private/`,
/// 404 for the rest.
fn the_site() -> Server {
    let dir = fixtures().join("suggest");
    Server::start("127.0.0.1", move |path, _| {
        if path == "/robots.txt" {
            return Reply::Full {
                status: 200,
                headers: vec![("Content-Type", "text/plain".into())],
                body: b"User-agent: *\nDisallow: /private/\n".to_vec(),
            };
        }
        let file = dir.join(path.trim_start_matches('/'));
        match std::fs::read_to_string(&file) {
            Ok(body) if path.ends_with(".html") => html(200, &body),
            _ => html(404, "<p>not here</p>"),
        }
    })
}

/// A loopback port nothing listens on.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

fn suggest(urls: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "rules",
        "suggest",
        "--urls",
        urls.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--user-agent",
        "thresher-test/1 (rules suggest)",
    ];
    args.extend_from_slice(FAST);
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn a_draft_from_fetched_urls_passes_its_tests_and_failures_are_named() {
    let site = the_site();
    let dead = format!("http://127.0.0.1:{}/news/story-9.html", closed_port());
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("urls.txt");
    std::fs::write(
        &list,
        format!(
            "# news pages of the site\n{}\n{}\n\n{}\n{}\n{}\n{}\n{dead}\n",
            site.url("/news/story-1.html"),
            site.url("/news/story-2.html"),
            site.url("/news/gone.html"),
            site.url("/private/story-1.html"),
            site.url("/news/story-3.html"),
            site.url("/news/story-4.html"),
        ),
    )
    .unwrap();
    let out = dir.path().join("rules").join("site.yaml");
    let res = suggest(&list, &out, &[]);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert_eq!(res.status.code(), Some(0), "{stderr}");
    // Each URL that gave no page is named, with why.
    assert!(
        stderr.contains(&format!(
            "{}: no page (http_error: HTTP 404)",
            site.url("/news/gone.html")
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&site.url("/private/story-1.html")),
        "{stderr}"
    );
    assert!(stderr.contains(&dead), "{stderr}");
    // Politeness: robots.txt asked once, obeyed, and every request carried the agent.
    assert_eq!(site.hits("/robots.txt"), 1);
    assert_eq!(site.hits("/private/story-1.html"), 0);
    assert!(site
        .all_hits()
        .iter()
        .all(|h| h.user_agent == "thresher-test/1 (rules suggest)"));
    // The draft, from the four pages that came back, passes check and test as written;
    // its test pages (WARC records) are copied beside it.
    let yaml = std::fs::read_to_string(&out).unwrap();
    assert!(yaml.contains("from 4 pages"), "{yaml}");
    assert!(yaml.contains("share-box"), "{yaml}");
    assert!(yaml.contains("127.0.0.1.pages/story-1.html"), "{yaml}");
    let rules = out.parent().unwrap().to_str().unwrap();
    let test = run(&["rules", "test", rules]);
    let stdout = String::from_utf8_lossy(&test.stdout);
    assert_eq!(test.status.code(), Some(0), "{stdout}\n{yaml}");
    assert!(
        stdout.lines().filter(|l| l.starts_with("PASS")).count() >= 2,
        "{stdout}"
    );
}

#[test]
fn the_crawl_is_kept_with_crawl_and_not_fetched_again() {
    let site = the_site();
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("urls.txt");
    let urls: Vec<String> = (1..=4)
        .map(|i| site.url(&format!("/news/story-{i}.html")))
        .collect();
    std::fs::write(&list, urls.join("\n")).unwrap();
    let warc = dir.path().join("crawl.warc.gz");
    let w = warc.to_str().unwrap();
    let out = dir.path().join("a.yaml");
    let res = suggest(&list, &out, &["--crawl", w]);
    assert_eq!(
        res.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    assert!(warc.exists() && dir.path().join("crawl.manifest.jsonl").exists());
    assert_eq!(site.hits("/news/story-1.html"), 1);
    // Again with the same crawl: nothing is requested, the same draft is written.
    let again = dir.path().join("b.yaml");
    let res = suggest(&list, &again, &["--crawl", w]);
    assert_eq!(
        res.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    assert_eq!(site.hits("/news/story-1.html"), 1);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        std::fs::read_to_string(&again).unwrap()
    );
}

#[test]
fn fewer_than_three_pages_back_are_refused_and_nothing_is_written() {
    let site = the_site();
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("urls.txt");
    std::fs::write(
        &list,
        format!(
            "{}\n{}\n{}\n{}\n",
            site.url("/news/story-1.html"),
            site.url("/news/story-2.html"),
            site.url("/news/nope-1.html"),
            site.url("/news/nope-2.html"),
        ),
    )
    .unwrap();
    let out = dir.path().join("site.yaml");
    let res = suggest(&list, &out, &[]);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert_eq!(res.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no rule drafted, nothing written"),
        "{stderr}"
    );
    assert!(stderr.contains("needs 3"), "{stderr}");
    assert!(stderr.contains(&site.url("/news/nope-2.html")), "{stderr}");
    assert!(!out.exists());
    assert!(!dir.path().join("127.0.0.1.pages").exists());

    // No page at all: said so, exit 1.
    std::fs::write(&list, format!("{}\n", site.url("/news/nope-3.html"))).unwrap();
    let res = suggest(&list, &out, &[]);
    let stderr = String::from_utf8_lossy(&res.stderr);
    assert_eq!(res.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no page could be read"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn fetch_options_without_urls_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let pages = fixtures().join("suggest").display().to_string();
    let warc = dir.path().join("c.warc.gz").display().to_string();
    let res = run(&["rules", "suggest", &pages, "--crawl", &warc]);
    assert_eq!(res.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&res.stderr).contains("--crawl needs URLs"));
}
