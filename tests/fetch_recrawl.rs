//! Fetching as a site operator would check it, against servers started here on loopback:
//! HTTPS with a certificate authority generated for the test (trusted only through
//! `--ca-cert`), conditional re-fetch from the last crawl's WARC (304 → revisit record,
//! read back by `extract`/`run` with the earlier payload, across a chain of crawls and
//! after the crawl tree is moved), robots.txt and every redirect hop recorded in the WARC,
//! `--max-redirects`, and the `--max-crawl-delay` cap.

mod common;
mod fetch_server;

use std::collections::HashMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use fetch_server::{
    article, field, html, manifest, redirect, test_ca, warc_records, Reply, Server, FAST,
};
use serde_json::Value;

fn fetch(out: &Path, extra: &[&str], urls: &[String]) -> std::process::Output {
    let mut args = vec!["fetch", "--out", out.to_str().unwrap()];
    args.extend_from_slice(FAST);
    args.extend_from_slice(extra);
    args.extend(urls.iter().map(String::as_str));
    common::run(&args)
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Records of one WARC whose `WARC-Target-URI` is `url`, as (header block, record block).
fn records_for(warc: &Path, url: &str) -> Vec<(String, String)> {
    warc_records(warc)
        .into_iter()
        .filter(|(h, _)| field(h, "WARC-Target-URI") == Some(url))
        .collect()
}

#[test]
fn https_is_fetched_only_with_the_certificate_authority_given() {
    let ca = test_ca("site");
    let stranger = test_ca("stranger");
    let site = Server::start_with(
        "127.0.0.1",
        Some(ca.server.clone()),
        |path, _, _| match path {
            "/robots.txt" => Reply::Full {
                status: 200,
                headers: vec![("Content-Type", "text/plain".into())],
                body: b"User-agent: *\nDisallow: /private\n".to_vec(),
            },
            "/ok.html" => html(200, &article("Secure gardens")),
            _ => html(404, "<p>no</p>"),
        },
    );
    let dir = tempfile::tempdir().unwrap();
    let ca_pem = dir.path().join("ca.pem");
    std::fs::write(&ca_pem, &ca.ca_pem).unwrap();
    let stranger_pem = dir.path().join("stranger.pem");
    std::fs::write(&stranger_pem, &stranger.ca_pem).unwrap();
    let url = site.url("/ok.html");
    assert!(url.starts_with("https://127.0.0.1:"));

    // Trusted through --ca-cert: fetched, robots.txt honoured, the page extracted.
    let warc = dir.path().join("ok.warc.gz");
    let private = site.url("/private/x.html");
    let run = fetch(
        &warc,
        &["--ca-cert", ca_pem.to_str().unwrap()],
        &[url.clone(), private.clone()],
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let m = manifest(&dir.path().join("ok.manifest.jsonl"));
    assert_eq!(m[&url]["outcome"], "page", "{m:?}");
    assert_eq!(m[&private]["error_kind"], "robots_disallowed");
    let ex = common::run(&["extract", warc.to_str().unwrap()]);
    let recs = common::stdout_jsonl(&ex);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert!(recs[0]["text"]
        .as_str()
        .unwrap()
        .contains("Secure gardens is the subject"));
    let served = site.all_hits().len();
    assert_eq!(served, 2, "robots.txt and the page: {:?}", site.all_hits());

    // Without it, or with another authority: a TLS error per URL, no request served.
    for (name, extra) in [
        ("none", vec![]),
        (
            "stranger",
            vec!["--ca-cert", stranger_pem.to_str().unwrap()],
        ),
    ] {
        let warc = dir.path().join(format!("{name}.warc.gz"));
        let run = fetch(&warc, &extra, std::slice::from_ref(&url));
        assert_eq!(run.status.code(), Some(1), "{name}: {}", stderr(&run));
        let m = manifest(&dir.path().join(format!("{name}.manifest.jsonl")));
        assert_eq!(m[&url]["outcome"], "error", "{name}: {m:?}");
        assert_eq!(m[&url]["error_kind"], "tls", "{name}: {m:?}");
        assert!(
            m[&url]["error"].as_str().unwrap().contains("certificate"),
            "{name}: {m:?}"
        );
        assert_eq!(
            m[&url]["retryable"], true,
            "a later run with --ca-cert may succeed"
        );
    }
    assert_eq!(site.all_hits().len(), served, "no request got through");

    // A --ca-cert that is not a certificate file: a clear error naming it.
    let junk = dir.path().join("junk.pem");
    std::fs::write(&junk, "not a certificate\n").unwrap();
    let run = fetch(
        &dir.path().join("junk.warc.gz"),
        &["--ca-cert", junk.to_str().unwrap()],
        &[url],
    );
    assert_ne!(run.status.code(), Some(0));
    assert!(stderr(&run).contains("junk.pem"), "{}", stderr(&run));
}

/// A site whose pages answer conditional requests like a real server: `/etag.html` by
/// ETag (its 304 repeats the ETag), `/lm.html` by Last-Modified (its 304 has no
/// validators), `/changed.html` changes at every request, `/plain.html` has no validators.
fn conditional_site() -> Server {
    const LM: &str = "Wed, 21 Oct 2015 07:28:00 GMT";
    Server::start_with("127.0.0.1", None, |path, nth, hit| match path {
        "/etag.html" if hit.header("if-none-match") == Some("\"v1\"") => Reply::Full {
            status: 304,
            headers: vec![("ETag", "\"v1\"".into())],
            body: Vec::new(),
        },
        "/etag.html" => Reply::Full {
            status: 200,
            headers: vec![
                ("Content-Type", "text/html".into()),
                ("ETag", "\"v1\"".into()),
            ],
            body: article("Tagged orchards").into_bytes(),
        },
        "/lm.html" if hit.header("if-modified-since") == Some(LM) => Reply::Full {
            status: 304,
            headers: vec![],
            body: Vec::new(),
        },
        "/lm.html" => Reply::Full {
            status: 200,
            headers: vec![
                ("Content-Type", "text/html".into()),
                ("Last-Modified", LM.into()),
            ],
            body: article("Dated hedgerows").into_bytes(),
        },
        "/changed.html" => Reply::Full {
            status: 200,
            headers: vec![
                ("Content-Type", "text/html".into()),
                ("ETag", format!("\"v{nth}\"")),
            ],
            body: article(&format!("Version {nth} meadows")).into_bytes(),
        },
        "/plain.html" => html(200, &article("Plain fields")),
        _ => html(404, "<p>none</p>"),
    })
}

#[test]
fn a_recrawl_is_conditional_and_a_304_is_a_revisit_that_extract_reads() {
    let site = conditional_site();
    let root = tempfile::tempdir().unwrap();
    let urls: Vec<String> = ["/etag.html", "/lm.html", "/changed.html", "/plain.html"]
        .iter()
        .map(|p| site.url(p))
        .collect();
    let [etag, lm, changed, plain] = [&urls[0], &urls[1], &urls[2], &urls[3]];
    let day = |n: u32| root.path().join(format!("day{n}"));
    // Day 1 a plain WARC, the later ones gzipped: references work across both.
    let name = |n: u32| {
        if n == 1 {
            "crawl.warc"
        } else {
            "crawl.warc.gz"
        }
    };
    let warc = |n: u32| day(n).join(name(n));

    let run = fetch(&warc(1), &[], &urls);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let m1 = manifest(&day(1).join("crawl.manifest.jsonl"));
    assert!(m1.values().all(|r| r["outcome"] == "page"), "{m1:?}");
    assert!(site
        .all_hits()
        .iter()
        .all(|h| h.header("if-none-match").is_none() && h.header("if-modified-since").is_none()));
    let day1_date = |url: &str| {
        let recs = records_for(&warc(1), url);
        let resp = recs
            .iter()
            .find(|(h, _)| field(h, "WARC-Type") == Some("response"))
            .unwrap();
        field(&resp.0, "WARC-Date").unwrap().to_string()
    };

    // Day 2, conditional on day 1 (a second later: WARC dates have whole seconds).
    std::thread::sleep(Duration::from_millis(1100));
    let before = site.all_hits().len();
    let run = fetch(&warc(2), &["--previous", warc(1).to_str().unwrap()], &urls);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("previous crawl: 3 URLs"),
        "{}",
        stderr(&run)
    );
    let sent: HashMap<String, (Option<String>, Option<String>)> = site.all_hits()[before..]
        .iter()
        .map(|h| {
            (
                site.url(&h.path),
                (
                    h.header("if-none-match").map(str::to_string),
                    h.header("if-modified-since").map(str::to_string),
                ),
            )
        })
        .collect();
    assert_eq!(sent[etag], (Some("\"v1\"".into()), None));
    assert_eq!(
        sent[lm],
        (None, Some("Wed, 21 Oct 2015 07:28:00 GMT".into()))
    );
    assert_eq!(sent[changed], (Some("\"v0\"".into()), None));
    assert_eq!(
        sent[plain],
        (None, None),
        "no validators, no conditional request"
    );

    let m2 = manifest(&day(2).join("crawl.manifest.jsonl"));
    for u in [etag, lm] {
        assert_eq!(m2[u]["outcome"], "not_modified", "{u}: {:?}", m2[u]);
        assert_eq!(m2[u]["status"], 304);
        assert_eq!(m2[u]["revisit_of"], Value::from(day1_date(u)));
    }
    assert_eq!(m2[&lm.to_string()]["last_modified"], "2015-10-21T07:28:00Z");
    assert_eq!(m2[changed]["outcome"], "page");
    assert_eq!(m2[plain]["outcome"], "page");

    // The revisit record: WARC 1.1 server-not-modified, pointing at day 1's response.
    let recs = records_for(&warc(2), etag);
    let (head, block) = recs
        .iter()
        .find(|(h, _)| field(h, "WARC-Type") == Some("revisit"))
        .expect("a revisit record");
    assert_eq!(
        field(head, "WARC-Profile"),
        Some("http://netpreserve.org/warc/1.1/revisit/server-not-modified")
    );
    assert_eq!(
        field(head, "WARC-Refers-To-Target-URI"),
        Some(etag.as_str())
    );
    assert_eq!(
        field(head, "WARC-Refers-To-Date"),
        Some(day1_date(etag).as_str())
    );
    assert_eq!(
        field(head, "WARC-Refers-To-Filename"),
        Some("../day1/crawl.warc")
    );
    let offset = m1[etag]["warc_offset"].as_u64().unwrap().to_string();
    assert_eq!(
        field(head, "WARC-Refers-To-File-Offset"),
        Some(offset.as_str())
    );
    assert!(field(head, "WARC-Refers-To").is_some_and(|v| v.starts_with("<urn:uuid:")));
    assert!(block.starts_with("HTTP/1.1 304"), "{block}");
    assert!(
        !recs
            .iter()
            .any(|(h, _)| field(h, "WARC-Type") == Some("response")),
        "no payload stored again"
    );

    // `run` on day 2 alone: every page, the unchanged ones with day 1's payload.
    let out = root.path().join("out2");
    let run = common::run(&[
        "run",
        warc(2).to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let pages = common::jsonl(&out.join("pages.jsonl"));
    let text = |pages: &[Value], u: &str| -> String {
        let p = pages
            .iter()
            .find(|p| p["url"] == u)
            .unwrap_or_else(|| panic!("{u}: no page in {pages:?}"));
        p["text"].as_str().unwrap().to_string()
    };
    assert_eq!(pages.len(), 4, "{pages:?}");
    assert!(text(&pages, etag).contains("Tagged orchards is the subject"));
    assert!(text(&pages, lm).contains("Dated hedgerows is the subject"));
    assert!(text(&pages, changed).contains("Version 1 meadows"));

    // Day 3, conditional on day 2 only: validators and references carried through the
    // revisits (the lm.html 304 had no validators: they come from day 1's response).
    let before = site.all_hits().len();
    let run = fetch(&warc(3), &["--previous", warc(2).to_str().unwrap()], &urls);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let hits3 = &site.all_hits()[before..];
    let hit = |p: &str| hits3.iter().find(|h| h.path == p).unwrap().clone();
    assert_eq!(hit("/etag.html").header("if-none-match"), Some("\"v1\""));
    assert_eq!(
        hit("/lm.html").header("if-modified-since"),
        Some("Wed, 21 Oct 2015 07:28:00 GMT")
    );
    assert_eq!(hit("/changed.html").header("if-none-match"), Some("\"v1\""));
    let m3 = manifest(&day(3).join("crawl.manifest.jsonl"));
    assert_eq!(m3[etag]["outcome"], "not_modified");
    assert_eq!(m3[lm]["outcome"], "not_modified");
    let recs = records_for(&warc(3), lm);
    let revisit = recs
        .iter()
        .find(|(h, _)| field(h, "WARC-Type") == Some("revisit"))
        .unwrap();
    assert_eq!(
        field(&revisit.0, "WARC-Refers-To-Filename"),
        Some("../day1/crawl.warc")
    );

    // The crawl tree moved elsewhere: the relative references still lead to day 1.
    let moved = tempfile::tempdir().unwrap();
    for n in [1, 3] {
        std::fs::create_dir_all(moved.path().join(format!("day{n}"))).unwrap();
        std::fs::copy(warc(n), moved.path().join(format!("day{n}/{}", name(n)))).unwrap();
    }
    let day3_moved = moved.path().join("day3/crawl.warc.gz");
    let ex = common::run(&["extract", day3_moved.to_str().unwrap()]);
    assert_eq!(ex.status.code(), Some(0), "{}", stderr(&ex));
    let pages = common::stdout_jsonl(&ex);
    assert_eq!(pages.len(), 4, "{pages:?}");
    assert!(text(&pages, lm).contains("Dated hedgerows is the subject"));
    let fetched = |pages: &[Value], u: &str| {
        pages.iter().find(|p| p["url"] == u).unwrap()["fetched_at"].clone()
    };
    let revisit_date = field(&revisit.0, "WARC-Date").unwrap();
    assert_eq!(
        fetched(&pages, lm),
        Value::from(revisit_date),
        "the revisit's own date"
    );
    assert_ne!(revisit_date, day1_date(lm));

    // Day 1 gone: the revisits are errors naming the missing file; the rest is read.
    std::fs::remove_file(moved.path().join("day1/crawl.warc")).unwrap();
    let ex = common::run(&["extract", day3_moved.to_str().unwrap()]);
    assert_eq!(ex.status.code(), Some(1), "{}", stderr(&ex));
    let pages = common::stdout_jsonl(&ex);
    let ok: Vec<&str> = pages
        .iter()
        .filter(|p| p["text"].is_string())
        .filter_map(|p| p["url"].as_str())
        .collect();
    assert!(
        ok.contains(&changed.as_str()) && ok.contains(&plain.as_str()),
        "{pages:?}"
    );
    assert!(
        !ok.contains(&etag.as_str()) && !ok.contains(&lm.as_str()),
        "{pages:?}"
    );
    let all = format!("{}{}", stderr(&ex), String::from_utf8_lossy(&ex.stdout));
    assert!(all.contains("day1/crawl.warc"), "{all}");

    // `run --fetch --previous`: the same in one command; without --fetch, a usage error.
    let out = root.path().join("out-fetch");
    let day1 = warc(1);
    let mut args = vec!["run", "--fetch", "--out", out.to_str().unwrap()];
    args.extend_from_slice(FAST);
    args.extend_from_slice(&["--previous", day1.to_str().unwrap()]);
    args.extend(urls.iter().map(String::as_str));
    let run = common::run(&args);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let m = manifest(&out.join("crawl.manifest.jsonl"));
    assert_eq!(m[etag]["outcome"], "not_modified");
    let pages = common::jsonl(&out.join("pages.jsonl"));
    assert!(text(&pages, etag).contains("Tagged orchards is the subject"));
    let run = common::run(&[
        "run",
        "--previous",
        warc(1).to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        warc(2).to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("--previous needs --fetch"));

    // The WARC being written cannot be its own previous crawl.
    let run = fetch(&warc(3), &["--previous", warc(3).to_str().unwrap()], &urls);
    assert_ne!(run.status.code(), Some(0));
    assert!(stderr(&run).contains("--previous"), "{}", stderr(&run));
}

#[test]
fn robots_txt_and_every_redirect_hop_are_in_the_warc() {
    let site = Server::start("127.0.0.1", |path, _| match path {
        "/robots.txt" => Reply::Full {
            status: 200,
            headers: vec![("Content-Type", "text/plain".into())],
            body: b"User-agent: *\nDisallow: /private\n".to_vec(),
        },
        "/a" => redirect(301, "/b"),
        "/b" => redirect(302, "/c.html"),
        "/c.html" => html(200, &article("Three hops")),
        "/loop" => redirect(302, "/loop"),
        _ => html(404, ""),
    });
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("c.warc");
    let (a, lp) = (site.url("/a"), site.url("/loop"));
    let run = fetch(&warc, &["--max-redirects", "2"], &[a.clone(), lp.clone()]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let m = manifest(&dir.path().join("c.manifest.jsonl"));
    assert_eq!(m[&a]["outcome"], "page");
    assert_eq!(m[&a]["redirects"], 2);
    assert_eq!(m[&a]["final_url"], Value::from(site.url("/c.html")));
    assert_eq!(m[&lp]["error_kind"], "too_many_redirects");
    assert_eq!(site.hits("/loop"), 3, "--max-redirects 2: three requests");

    let recs = warc_records(&warc);
    let responses: Vec<(String, String)> = recs
        .iter()
        .filter(|(h, _)| field(h, "WARC-Type") == Some("response"))
        .map(|(h, b)| {
            let status = b.split_whitespace().nth(1).unwrap_or("").to_string();
            (field(h, "WARC-Target-URI").unwrap().to_string(), status)
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("/robots.txt", "200"),
        ("/a", "301"),
        ("/b", "302"),
        ("/c.html", "200"),
        ("/loop", "302"),
        ("/loop", "302"),
        ("/loop", "302"),
    ]
    .iter()
    .map(|(p, s)| (site.url(p), s.to_string()))
    .collect();
    let mut got = responses.clone();
    got.sort();
    let mut want_sorted = want.clone();
    want_sorted.sort();
    assert_eq!(got, want_sorted, "{responses:?}");
    // robots.txt (once for the origin) is stored with its body and its request.
    let robots = records_for(&warc, &site.url("/robots.txt"));
    assert!(robots.iter().any(|(_, b)| b.contains("Disallow: /private")));
    assert!(robots
        .iter()
        .any(|(h, b)| field(h, "WARC-Type") == Some("request")
            && b.starts_with("GET /robots.txt HTTP/1.1")));
    // Each hop's Location is in its record.
    let hop = records_for(&warc, &a);
    assert!(
        hop.iter().any(|(_, b)| b.contains("location: /b")),
        "{hop:?}"
    );
    // extract makes a page of the final hop only (not of robots.txt or the redirects).
    let ex = common::run(&["extract", warc.to_str().unwrap()]);
    let pages = common::stdout_jsonl(&ex);
    assert_eq!(pages.len(), 1, "{pages:?}");
    assert_eq!(pages[0]["url"], Value::from(site.url("/c.html")));
}

#[test]
fn a_long_crawl_delay_is_capped() {
    let site = Server::start("127.0.0.1", |path, _| match path {
        "/robots.txt" => Reply::Full {
            status: 200,
            headers: vec![],
            body: b"User-agent: *\nCrawl-delay: 3600\n".to_vec(),
        },
        p => html(200, &article(p)),
    });
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("c.warc.gz");
    let mut cmd = common::bin();
    cmd.args(["fetch", "--out", warc.to_str().unwrap()])
        .args(FAST)
        .args(["--max-crawl-delay", "300ms"])
        .args((0..3).map(|i| site.url(&format!("/p{i}.html"))))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    // An uncapped Crawl-delay would take two hours: give up long before (this bounds the
    // test; the assertions below are on what the crawler did).
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("still waiting after 60 s: Crawl-delay 3600 was not capped");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("Crawl-delay 3600s is longer than --max-crawl-delay 0.3s"),
        "{}",
        stderr(&out)
    );
    let hits = site.all_hits();
    assert_eq!(hits.len(), 4, "{hits:?}");
    // The cap is still a delay: the pages are at least 300 ms apart.
    for w in hits[1..].windows(2) {
        assert!(
            w[1].at.duration_since(w[0].at) >= Duration::from_millis(280),
            "{hits:?}"
        );
    }
    // The default is stated.
    let help = common::run(&["fetch", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    let line = help
        .lines()
        .skip_while(|l| !l.contains("--max-crawl-delay"))
        .take(4)
        .collect::<String>();
    assert!(line.contains("[default: 30s]"), "{line}");
}
