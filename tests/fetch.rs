//! `thresher fetch` / `run --fetch` against HTTP servers started here on loopback
//! addresses: slow host, endless body, gzip bomb, redirect loop, 404/500/429, robots.txt,
//! a windows-1251 page declared only in the header, a PDF, SSRF refusals, resume.
//! Every timeout is short and every server loop bounded; nothing asserts on elapsed time
//! except lower bounds that politeness guarantees. (HTTPS, conditional re-fetch, robots.txt
//! and redirect records, the Crawl-delay cap: `fetch_recrawl.rs`.)

mod common;
mod fetch_server;

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;

use fetch_server::{article, html, manifest, redirect, Reply, Server, FAST};
use serde_json::Value;

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn the_site() -> Server {
    // windows-1251 bytes of a Russian paragraph, declared only in the Content-Type header.
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(
        "<html><body><article><h1>Новости</h1><p>Городская дума утвердила программу ремонта школ на следующий год, \
         депутаты обсудили сроки и подрядчиков.</p><p>Работы начнутся весной и завершатся до первого сентября.</p></article></body></html>",
    );
    let cp1251 = cp1251.into_owned();
    let bomb = gzip(&vec![b' '; 64 << 20]);
    Server::start("127.0.0.1", move |path, nth| match path {
        "/robots.txt" => Reply::Full {
            status: 200,
            headers: vec![("Content-Type", "text/plain".into())],
            body: b"User-agent: *\nDisallow: /private\n".to_vec(),
        },
        "/ok.html" => html(200, &article("Compost heaps")),
        "/moved" => redirect(301, "/ok2.html"),
        "/ok2.html" => html(200, &article("Apple trees")),
        "/slow.html" => Reply::Slow(Duration::from_secs(6)),
        "/endless.html" => Reply::Endless,
        "/bomb.html" => Reply::Full {
            status: 200,
            headers: vec![
                ("Content-Type", "text/html".into()),
                ("Content-Encoding", "gzip".into()),
            ],
            body: bomb.clone(),
        },
        "/loop/a" => redirect(302, "/loop/b"),
        "/loop/b" => redirect(302, "/loop/a"),
        "/missing.html" => html(404, "<p>not here</p>"),
        "/broken.html" => html(500, "<p>oops</p>"),
        "/busy.html" if nth == 0 => Reply::Full {
            status: 429,
            headers: vec![("Retry-After", "1".into())],
            body: Vec::new(),
        },
        "/busy.html" => html(200, &article("Patience")),
        "/busy-long.html" => Reply::Full {
            status: 429,
            headers: vec![("Retry-After", "3600".into())],
            body: Vec::new(),
        },
        "/private/secret.html" => html(200, "<p>secret</p>"),
        "/cp1251.html" => Reply::Full {
            status: 200,
            headers: vec![("Content-Type", "text/html; charset=windows-1251".into())],
            body: cp1251.clone(),
        },
        "/doc.pdf" => Reply::Full {
            status: 200,
            headers: vec![
                ("Content-Type", "application/pdf".into()),
                ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT".into()),
            ],
            body: b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\n".repeat(1000),
        },
        _ => html(404, "<p>no such page</p>"),
    })
}

const PATHS: &[&str] = &[
    "/ok.html",
    "/moved",
    "/slow.html",
    "/endless.html",
    "/bomb.html",
    "/loop/a",
    "/missing.html",
    "/broken.html",
    "/busy.html",
    "/busy-long.html",
    "/private/secret.html",
    "/cp1251.html",
    "/doc.pdf",
];

#[test]
fn hostile_and_ordinary_pages_each_get_the_right_record() {
    let site = the_site();
    let dir = tempfile::tempdir().unwrap();
    let urls_file = dir.path().join("urls.txt");
    let urls: Vec<String> = PATHS.iter().map(|p| site.url(p)).collect();
    std::fs::write(&urls_file, format!("# test crawl\n{}\n\n", urls.join("\n"))).unwrap();
    let out = dir.path().join("out");
    let mut args = vec![
        "run",
        "--fetch",
        "--urls",
        urls_file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(FAST);
    args.extend_from_slice(&[
        "--max-body",
        "256K",
        "--max-decompressed",
        "1M",
        "--max-redirects",
        "4",
    ]);
    let run = common::run(&args);
    let stderr = String::from_utf8_lossy(&run.stderr);
    // Timeouts count as failed URLs: exit 1, the rest of the run complete.
    assert_eq!(run.status.code(), Some(1), "{stderr}");

    let m = manifest(&out.join("crawl.manifest.jsonl"));
    assert_eq!(m.len(), PATHS.len(), "one line per URL: {m:#?}");
    let rec = |p: &str| &m[&site.url(p)];
    let mut failures = Vec::new();
    let mut expect = |p: &str, field: &str, want: Value| {
        let got = &rec(p)[field];
        if *got != want {
            failures.push(format!("{p}: {field} = {got}, want {want}\n  {}", rec(p)));
        }
    };
    expect("/ok.html", "outcome", "page".into());
    expect("/ok.html", "status", 200.into());
    expect("/moved", "outcome", "page".into());
    expect("/moved", "final_url", site.url("/ok2.html").into());
    expect("/moved", "redirects", 1.into());
    expect("/slow.html", "outcome", "error".into());
    expect("/slow.html", "error_kind", "timeout".into());
    expect("/slow.html", "attempts", 2.into());
    expect("/slow.html", "retryable", true.into());
    expect("/endless.html", "outcome", "page".into());
    expect("/endless.html", "truncated", "length".into());
    expect("/endless.html", "bytes", (256 << 10).into());
    expect("/bomb.html", "outcome", "page".into());
    expect("/bomb.html", "truncated", "decoded".into());
    expect("/bomb.html", "bytes", (1 << 20).into());
    expect("/loop/a", "outcome", "error".into());
    expect("/loop/a", "error_kind", "too_many_redirects".into());
    expect("/loop/a", "retryable", false.into());
    expect("/missing.html", "outcome", "http_error".into());
    expect("/missing.html", "status", 404.into());
    expect("/missing.html", "attempts", 1.into());
    expect("/missing.html", "retryable", false.into());
    expect("/broken.html", "outcome", "http_error".into());
    expect("/broken.html", "status", 500.into());
    expect("/broken.html", "attempts", 2.into());
    expect("/broken.html", "retryable", true.into());
    expect("/busy.html", "outcome", "page".into());
    expect("/busy.html", "status", 200.into());
    expect("/busy.html", "attempts", 2.into());
    expect("/busy-long.html", "outcome", "http_error".into());
    expect(
        "/busy-long.html",
        "error_kind",
        "retry_after_too_long".into(),
    );
    expect("/busy-long.html", "attempts", 1.into());
    expect("/private/secret.html", "outcome", "robots".into());
    expect(
        "/private/secret.html",
        "error_kind",
        "robots_disallowed".into(),
    );
    expect("/cp1251.html", "outcome", "page".into());
    expect(
        "/cp1251.html",
        "content_type",
        "text/html; charset=windows-1251".into(),
    );
    expect("/doc.pdf", "outcome", "not_html".into());
    expect("/doc.pdf", "content_type", "application/pdf".into());
    expect("/doc.pdf", "bytes", 0.into());
    expect("/doc.pdf", "last_modified", "2015-10-21T07:28:00Z".into());
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Politeness and identity, seen from the server.
    assert_eq!(site.hits("/robots.txt"), 1, "robots.txt once per host");
    assert_eq!(
        site.hits("/private/secret.html"),
        0,
        "disallowed path never requested"
    );
    for h in site.all_hits() {
        assert!(h.user_agent.starts_with("thresher/"), "{h:?}");
    }
    // Redirect loop: at most max_redirects + 1 requests.
    assert_eq!(site.hits("/loop/a") + site.hits("/loop/b"), 5);

    // The pipeline ran on the fetched pages: the header-only cp1251 page reads as Cyrillic.
    let pages = common::jsonl(&out.join("pages.jsonl"));
    let by_url: HashMap<&str, &Value> = pages
        .iter()
        .map(|p| (p["url"].as_str().unwrap(), p))
        .collect();
    let ru = by_url[site.url("/cp1251.html").as_str()];
    assert_eq!(ru["charset"], "windows-1251 (header)");
    assert!(
        ru["text"]
            .as_str()
            .unwrap()
            .contains("Городская дума утвердила программу ремонта школ"),
        "{ru}"
    );
    assert!(by_url[site.url("/ok.html").as_str()]["text"]
        .as_str()
        .unwrap()
        .contains("Compost heaps is the subject"));
    assert!(
        by_url.contains_key(site.url("/ok2.html").as_str()),
        "redirect target is a page"
    );
    assert!(by_url[site.url("/busy.html").as_str()]["text"]
        .as_str()
        .unwrap()
        .contains("Patience"));
    assert!(!by_url.contains_key(site.url("/doc.pdf").as_str()));
    assert!(!by_url.contains_key(site.url("/missing.html").as_str()));

    // Resume: a second run fetches only what is retryable (timeout, 500, long Retry-After).
    let before: Vec<String> = site.all_hits().into_iter().map(|h| h.path).collect();
    let run2 = common::run(&args);
    assert_eq!(
        run2.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&run2.stderr)
    );
    let after: Vec<String> = site.all_hits().into_iter().map(|h| h.path).collect();
    let mut new: Vec<&str> = after[before.len()..].iter().map(String::as_str).collect();
    new.sort();
    new.dedup();
    assert_eq!(
        new,
        [
            "/broken.html",
            "/busy-long.html",
            "/robots.txt",
            "/slow.html"
        ]
    );
    let lines = common::jsonl(&out.join("crawl.manifest.jsonl"));
    assert_eq!(lines.len(), PATHS.len() + 3);
    // Pages only: each run's pages.jsonl also holds the fetch failures of that run as
    // error records, and the second run fetched fewer URLs.
    let pages_only = |p: &[Value]| p.iter().filter(|r| r.get("error").is_none()).count();
    let pages2 = common::jsonl(&out.join("pages.jsonl"));
    assert_eq!(
        pages_only(&pages2),
        pages_only(&pages),
        "the WARC still holds every page once"
    );
}

#[test]
fn fetch_writes_a_warc_that_extract_reads() {
    let site = the_site();
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("c.warc");
    let list = dir.path().join("urls.txt");
    std::fs::write(&list, format!("{}\n", site.url("/ok.html"))).unwrap();
    let mut args = vec![
        "fetch",
        "--out",
        warc.to_str().unwrap(),
        "--urls",
        list.to_str().unwrap(),
    ];
    args.extend_from_slice(FAST);
    let urls = [site.url("/cp1251.html"), site.url("/doc.pdf")];
    args.extend(urls.iter().map(String::as_str));
    let run = common::run(&args);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read(&warc).unwrap();
    let text = String::from_utf8_lossy(&text);
    // Three pages and the host's robots.txt, each a response and its request.
    assert_eq!(text.matches("WARC-Type: response").count(), 4);
    assert_eq!(text.matches("WARC-Type: request").count(), 4);
    assert_eq!(text.matches("WARC-Type: warcinfo").count(), 1);
    assert!(
        text.contains("WARC-Truncated: unspecified"),
        "the PDF's body is not stored"
    );
    let ex = common::run(&["extract", warc.to_str().unwrap()]);
    let recs = common::stdout_jsonl(&ex);
    assert_eq!(
        recs.len(),
        2,
        "robots.txt and the PDF are not pages: {recs:?}"
    );
    assert!(recs.iter().all(|r| r["fetched_at"].is_string()));
    // The manifest's offsets point at the response records.
    let m = manifest(&dir.path().join("c.manifest.jsonl"));
    let off = m[&site.url("/ok.html")]["warc_offset"].as_u64().unwrap() as usize;
    let raw = std::fs::read(&warc).unwrap();
    let at = String::from_utf8_lossy(&raw[off..off + 200]).into_owned();
    assert!(at.starts_with("WARC/1.1\r\nWARC-Type: response"), "{at}");
    assert!(at.contains(&site.url("/ok.html")), "{at}");
}

#[test]
fn non_public_addresses_and_other_schemes_are_refused() {
    let site = the_site();
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("c.warc.gz");
    let localhost = format!("http://localhost:{}/ok.html", site.addr.port());
    let run = common::run(&[
        "fetch",
        "--out",
        warc.to_str().unwrap(),
        "--timeout",
        "1500ms",
        &site.url("/ok.html"),
        &localhost,
        "file:///etc/passwd",
        "ftp://127.0.0.1/x",
        "not a url",
    ]);
    assert_eq!(run.status.code(), Some(1));
    let m = manifest(&dir.path().join("c.manifest.jsonl"));
    assert_eq!(m[&site.url("/ok.html")]["error_kind"], "blocked_address");
    assert_eq!(
        m[&localhost]["error_kind"], "blocked_address",
        "checked after DNS resolution"
    );
    assert_eq!(m["file:///etc/passwd"]["error_kind"], "bad_scheme");
    assert_eq!(m["ftp://127.0.0.1/x"]["error_kind"], "bad_scheme");
    assert_eq!(m["not a url"]["error_kind"], "bad_url");
    assert!(m.values().all(|r| r["outcome"] == "refused"));
    assert!(
        site.all_hits().is_empty(),
        "no request reached the server: {:?}",
        site.all_hits()
    );
}

#[test]
fn every_redirect_hop_is_checked() {
    // Allowed: 127.0.0.1 only. The redirect to 127.0.0.2 (still this machine) is refused
    // before connecting, and so is one to a non-http scheme.
    let other = Server::start("127.0.0.2", |_, _| {
        html(200, "<p>should not be reached</p>")
    });
    let target = other.url("/x.html");
    let site = Server::start("127.0.0.1", move |path, _| match path {
        "/to-other" => redirect(302, &target),
        "/to-file" => redirect(302, "file:///etc/passwd"),
        _ => html(404, ""),
    });
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("c.warc.gz");
    let run = common::run(&[
        "fetch",
        "--out",
        warc.to_str().unwrap(),
        "--allow-net",
        "127.0.0.1/32",
        "--delay",
        "0",
        "--timeout",
        "1500ms",
        &site.url("/to-other"),
        &site.url("/to-file"),
    ]);
    assert_eq!(run.status.code(), Some(1));
    let m = manifest(&dir.path().join("c.manifest.jsonl"));
    assert_eq!(
        m[&site.url("/to-other")]["error_kind"],
        "blocked_address",
        "{:?}",
        m
    );
    assert_eq!(m[&site.url("/to-file")]["error_kind"], "bad_scheme");
    assert_eq!(site.hits("/to-other"), 1);
    assert!(other.all_hits().is_empty(), "{:?}", other.all_hits());
}

#[test]
fn crawl_delay_and_per_host_limit_are_honoured() {
    let site = Server::start("127.0.0.1", |path, _| match path {
        "/robots.txt" => Reply::Full {
            status: 200,
            headers: vec![],
            body: b"User-agent: thresher\nCrawl-delay: 1\n".to_vec(),
        },
        p => html(200, &article(p)),
    });
    let busy = Server::start("127.0.0.1", |_, _| {
        std::thread::sleep(Duration::from_millis(100));
        html(200, &article("busy"))
    });
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("c.warc.gz");
    let mut args: Vec<String> = ["fetch", "--out", warc.to_str().unwrap(), "--per-host", "2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(FAST.iter().map(|s| s.to_string()));
    args.extend((0..2).map(|i| site.url(&format!("/p{i}.html"))));
    args.extend((0..8).map(|i| busy.url(&format!("/b{i}.html"))));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = common::run(&argv);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let hits = site.all_hits();
    assert_eq!(hits.len(), 3, "{hits:?}");
    // robots.txt, then the pages at least Crawl-delay apart (a lower bound: never flaky).
    for w in hits.windows(2) {
        assert!(
            w[1].at.duration_since(w[0].at) >= Duration::from_millis(900),
            "{hits:?}"
        );
    }
    assert!(busy.max_in_flight.load(Ordering::SeqCst) <= 2);
    assert_eq!(busy.all_hits().len(), 9);
}
