//! `--render` with the real browser (Debian's `chromium`, installed by `.ci/install`): a
//! page whose article a script builds, a column placed at the side by CSS, a block hidden
//! by a stylesheet class, a page that never finishes loading, and no request leaving the
//! machine — in one `extract` run with every page rendered and the visual rules on (one
//! browser), then the default (only little-text pages rendered, words counted as the
//! extractors count them: a Chinese article is not little text). Then a missing browser
//! (exit 2, the package named) and a browser that dies at once (the page's fallback).

mod common;
use common::*;

use std::io::Read;
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

const PROSE: &str = "The committee met on Tuesday to review the budget for the coming \
    year, and its members agreed that the library should stay open on Sundays.";

/// A Chinese news story: well over `LITTLE_TEXT_WORDS` words counted a letter a word, a
/// handful counted at whitespace.
const CHINESE_PAGE: &str = "<html><head><title>图书馆</title></head><body><article>\
    <h1>市图书馆周日开放</h1><p>委员会周二开会审议了来年的预算，成员们一致同意图书馆应在周日\
    继续开放，以便在工作日无法前来的居民也能借阅书籍和使用阅览室。</p><p>馆长表示，周日开放\
    所需的额外人手将由志愿者和兼职员工共同承担，预计每年增加的开支不超过预算的百分之二。\
    </p><p>许多家长对此表示欢迎，他们说孩子们在周末最需要一个安静的地方读书和做作业。</p>\
    </article></body></html>";

/// A local HTTP server that counts the connections it gets (it answers none).
fn counting_server() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&hits);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            counter.fetch_add(1, Ordering::SeqCst);
            let mut s = stream;
            let _ = s.set_read_timeout(Some(Duration::from_millis(100)));
            let _ = s.read(&mut [0u8; 1024]);
        }
    });
    (port, hits)
}

fn write_pages(dir: &std::path::Path, port: u16) {
    let pages = [
        (
            "script.html",
            format!(
                "<html><head><title>Built</title></head><body><div id=app>Loading…</div>\
                 <script>document.getElementById('app').innerHTML = '<article><h1>Scripted' + \
                 ' story</h1><p>' + 'Written by a script. {PROSE} '.repeat(3) + '</p></article>';\
                 </script></body></html>"
            ),
        ),
        (
            "sidebar.html",
            format!(
                "<html><head><style>#wrap{{width:1200px;margin:0 auto;position:relative}}\
                 #c1{{position:absolute;right:0;top:0;width:280px}}#c2{{width:850px}}</style>\
                 </head><body><div id=wrap><div id=c1><p>Partner column: our friends write \
                 about many other things on their own pages every day, do read them.</p></div>\
                 <div id=c2><p>{PROSE} One.</p><p>{PROSE} Two.</p><p>{PROSE} Three.</p>\
                 </div></div></body></html>"
            ),
        ),
        (
            "hidden.html",
            format!(
                "<html><head><style>.xq1{{display:none}}</style></head><body><article>\
                 <p>{PROSE} Shown.</p><p class=xq1>Stylesheet-hidden paragraph that a \
                 reader never sees, although it is written in the page source like the \
                 rest of the article text around it.</p><p>{PROSE} Also shown.</p>\
                 </article></body></html>"
            ),
        ),
        (
            "hang.html",
            format!(
                "<html><body><article><p>{PROSE} Before the loop.</p></article>\
                 <script>while (true) {{}}</script><p>After.</p></body></html>"
            ),
        ),
        (
            "network.html",
            format!(
                "<html><head><link rel=stylesheet href='http://127.0.0.1:{port}/a.css'>\
                 <script src='http://127.0.0.1:{port}/a.js'></script></head><body><article>\
                 <p>{PROSE} Offline.</p><img src='http://127.0.0.1:{port}/a.png'>\
                 <iframe src='http://127.0.0.1:{port}/frame'></iframe></article>\
                 <script>fetch('http://127.0.0.1:{port}/api').catch(() => {{}});\
                 new Image().src = 'http://localhost:{port}/b.png';</script></body></html>"
            ),
        ),
    ];
    for (name, html) in pages {
        std::fs::write(dir.join(name), html).unwrap();
    }
}

#[test]
fn rendered_pages_scripts_layout_hiding_budget_and_no_network() {
    let dir = tempfile::tempdir().unwrap();
    let (port, hits) = counting_server();
    let config = dir.path().join("visual.yaml");
    std::fs::write(
        &config,
        "render:\n  answer: rendered\nheuristic:\n  visual_rails: true\n  visual_hidden: true\n",
    )
    .unwrap();
    let pages = dir.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    write_pages(&pages, port);
    let out = run_ok(&[
        "--config",
        config.to_str().unwrap(),
        "extract",
        "--render",
        "--render-timeout-ms",
        "3000",
        pages.to_str().unwrap(),
    ]);
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 5, "{records:?}");
    let text = |name: &str| {
        record_ending(&records, name)["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for r in &records {
        assert!(r["method"].as_str().unwrap().ends_with("+render"), "{r}");
    }
    assert!(
        text("script.html").contains("Written by a script."),
        "{}",
        text("script.html")
    );
    let side = text("sidebar.html");
    assert!(
        side.contains("Three.") && !side.contains("Partner column"),
        "{side}"
    );
    let hidden = text("hidden.html");
    assert!(
        hidden.contains("Also shown.") && !hidden.contains("Stylesheet-hidden"),
        "{hidden}"
    );
    // The budget ran out in the endless script: the document as it stood is extracted.
    assert!(
        text("hang.html").contains("Before the loop."),
        "{}",
        text("hang.html")
    );
    assert!(text("network.html").contains("Offline."));
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "a request left for the local server"
    );

    // Without --render the same pages show what the static walk cannot know.
    let plain = stdout_jsonl(&run_ok(&["extract", pages.to_str().unwrap()]));
    let plain_text = |name: &str| {
        record_ending(&plain, name)["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(!plain_text("script.html").contains("Written by a script."));
    assert!(plain_text("sidebar.html").contains("Partner column"));
    assert!(plain_text("hidden.html").contains("Stylesheet-hidden"));

    // The default answer: only the shell is rendered and answered from its rendering.
    for name in ["sidebar.html", "hang.html", "network.html"] {
        std::fs::remove_file(pages.join(name)).unwrap();
    }
    // A Chinese article has no spaces between its words: counted as the extractors count
    // it (a letter a word), it is not little text and is not rendered.
    std::fs::write(pages.join("chinese.html"), CHINESE_PAGE).unwrap();
    let kept = dir.path().join("kept");
    let keep_config = dir.path().join("keep.yaml");
    std::fs::write(
        &keep_config,
        format!("render:\n  keep_dir: {}\n", kept.display()),
    )
    .unwrap();
    let auto = stdout_jsonl(&run_ok(&[
        "--config",
        keep_config.to_str().unwrap(),
        "extract",
        "--render",
        pages.to_str().unwrap(),
    ]));
    let rendered: Vec<String> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        rendered.iter().any(|n| n.ends_with("script.html"))
            && !rendered.iter().any(|n| n.ends_with("chinese.html")),
        "{rendered:?}"
    );
    let chinese = record_ending(&auto, "chinese.html");
    assert_eq!(chinese["method"], "heuristic");
    assert!(
        chinese["text"].as_str().unwrap().contains("图书馆"),
        "{chinese}"
    );
    assert_eq!(
        record_ending(&auto, "script.html")["method"],
        "heuristic+render"
    );
    assert!(record_ending(&auto, "script.html")["text"]
        .as_str()
        .unwrap()
        .contains("Written by a script."));
    assert_eq!(record_ending(&auto, "hidden.html")["method"], "heuristic");
    assert_eq!(
        record_ending(&auto, "hidden.html"),
        record_ending(&plain, "hidden.html")
    );
}

fn config_with_browser(dir: &std::path::Path, browser: &str, fallback: &str) -> String {
    let path = dir.join("render.yaml");
    std::fs::write(
        &path,
        format!("render:\n  browser: {browser}\n  fallback: {fallback}\n"),
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_missing_browser_stops_at_once_naming_the_package() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.html"), format!("<p>{PROSE}</p>")).unwrap();
    let config = config_with_browser(dir.path(), "/nonexistent/chromium", "static");
    let out = run(&[
        "--config",
        &config,
        "extract",
        "--render",
        dir.path().join("a.html").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`chromium`") && err.contains("/nonexistent/chromium"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_browser_that_dies_costs_the_page_not_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    for n in ["a", "b"] {
        std::fs::write(
            pages.join(format!("{n}.html")),
            format!("<p>{PROSE} {n}</p>"),
        )
        .unwrap();
    }
    // `false` starts and exits at once, as a crashing browser does.
    let config = config_with_browser(dir.path(), "/bin/false", "error");
    let out = run(&[
        "--config",
        &config,
        "extract",
        "--render",
        pages.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(r["error_kind"], "render", "{r}");
        assert!(r["path"].as_str().unwrap().ends_with(".html"), "{r}");
    }
    // With the static fallback the pages are extracted as recorded.
    let config = config_with_browser(dir.path(), "/bin/false", "static");
    let out = run_ok(&[
        "--config",
        &config,
        "extract",
        "--render",
        pages.to_str().unwrap(),
    ]);
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(r["method"], "heuristic", "{r}");
        assert!(r["text"].as_str().unwrap().contains("library"), "{r}");
    }
}

/// One `response` record of a WARC: `url` answered with `body` as `content_type`.
fn warc_response(url: &str, content_type: &str, body: &str) -> String {
    let http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         WARC-Target-URI: {url}\r\nContent-Type: application/http; msgtype=response\r\n\
         Content-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    )
}

#[test]
fn a_warc_pages_script_is_answered_from_its_record_and_nothing_else_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let (port, hits) = counting_server();
    // The article is built by a script the page loads from its own host, recorded as the
    // WARC's second record; an image elsewhere is not recorded and stays refused.
    let page = format!(
        "<html><head><title>Built</title><script src='/static/app.js'></script></head>\
         <body><div id=app>Loading…</div><img src='http://127.0.0.1:{port}/a.png'></body></html>"
    );
    let script = format!(
        "document.addEventListener('DOMContentLoaded', () => {{ \
         document.getElementById('app').innerHTML = '<article><h1>Recorded script</h1><p>' + \
         'Built from the recorded script. {PROSE} '.repeat(3) + '</p></article>'; }});"
    );
    let warc = dir.path().join("crawl.warc");
    std::fs::write(
        &warc,
        warc_response("http://example.test/story.html", "text/html", &page)
            + &warc_response(
                "http://example.test/static/app.js",
                "application/javascript",
                &script,
            ),
    )
    .unwrap();
    let records = stdout_jsonl(&run_ok(&["extract", "--render", warc.to_str().unwrap()]));
    assert_eq!(records.len(), 1, "{records:?}");
    let story = &records[0];
    assert_eq!(story["url"], "http://example.test/story.html");
    assert!(
        story["method"].as_str().unwrap().ends_with("+render"),
        "{story}"
    );
    assert!(
        story["text"]
            .as_str()
            .unwrap()
            .contains("Built from the recorded script."),
        "{story}"
    );
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "a request left for the local server"
    );
    // Without --render the shell has no article.
    let plain = stdout_jsonl(&run_ok(&["extract", warc.to_str().unwrap()]));
    assert!(!plain[0]["text"]
        .as_str()
        .unwrap()
        .contains("Built from the recorded script."));
}
