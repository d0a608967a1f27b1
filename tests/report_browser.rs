//! The operator report in a real headless browser: Debian's chromium driven through
//! chromedriver (WebDriver, with fantoccini). A run with rules, heuristic pages,
//! duplicates and two bad pages writes its report; the test checks that the index
//! renders, that the figures it shows are `summary.json`'s, that the filters narrow the
//! page list to the pages `pages.jsonl` says, that clicking a page opens its view with
//! kept and removed blocks and reasons, and saves the screenshots README shows
//! (`docs/report.png`, `docs/report-page.png`).
//!
//! chromium and chromedriver are installed by `.ci/install`; without them this test
//! fails and says so.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use common::{fixtures, jsonl, root, run};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver on a free port, killed when dropped.
struct Driver(Child, u16);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_driver() -> Driver {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(tool).exists(),
            "{tool} is missing: run `bash .ci/install` (apt-get install chromium chromium-driver)"
        );
    }
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not listen on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver(child, port)
}

async fn browser(port: u16, profile: &Path) -> Client {
    // The flags this machine's chromium needs (closed network, root, no GPU).
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--window-size=1280,1000",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let caps = json!({"goog:chromeOptions": {"binary": CHROMIUM, "args": args}});
    let serde_json::Value::Object(caps) = caps else {
        unreachable!()
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a chromium session")
}

async fn text(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn select(c: &Client, id: &str, value: &str) {
    let js = "const e=document.getElementById(arguments[0]); e.value=arguments[1]; \
              e.dispatchEvent(new Event('change')); return e.value;";
    let v = c.execute(js, vec![json!(id), json!(value)]).await.unwrap();
    assert_eq!(v, json!(value), "option {value} of #{id}");
}

async fn shown(c: &Client) -> usize {
    let e = c.find(Locator::Id("shown")).await.unwrap();
    e.attr("data-count")
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap()
}

fn number(s: &str) -> f64 {
    s.replace(',', "")
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("a number: {s:?}"))
}

fn make_run(out: &Path) {
    let f = fixtures();
    let o = run(&[
        "run",
        "--report",
        "--rules",
        root().join("site-rules").to_str().unwrap(),
        "--manifest",
        f.join("sites/manifest.jsonl").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        f.join("sites").to_str().unwrap(),
        f.join("layouts").to_str().unwrap(),
        f.join("bad/garbage.html").to_str().unwrap(),
        f.join("bad/empty.html").to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.join("report/index.html").is_file());
}

#[test]
fn report_renders_counts_filters_and_opens_page_views_in_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    make_run(&out);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let pages = jsonl(&out.join("pages.jsonl"));
    let driver = start_driver();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let c = browser(driver.1, &tmp.path().join("profile")).await;
        let index = format!("file://{}", out.join("report/index.html").display());
        c.goto(&index).await.unwrap();

        // The summary cards are summary.json's figures.
        let mut seen = 0;
        for (key, want) in [
            ("pages", &summary["pages"]),
            ("extracted", &summary["extracted"]),
            ("failed", &summary["failed"]),
            ("empty_text", &summary["empty_text"]),
            ("clusters", &summary["dedup"]["clusters"]),
            ("duplicates", &summary["dedup"]["duplicates"]),
        ] {
            let got = text(&c, &format!("#summary .card[data-key='{key}'] b")).await;
            assert_eq!(number(&got), want.as_f64().unwrap(), "card {key}");
            seen += 1;
        }
        assert_eq!(seen, 6);
        assert_eq!(summary["failed"], json!(2));
        for (method, n) in summary["methods"].as_object().unwrap() {
            let row = text(&c, &format!("#methods tr[data-method='{method}'] td.n")).await;
            assert_eq!(number(&row), n.as_f64().unwrap(), "method {method}");
        }
        for (kind, n) in summary["errors"].as_object().unwrap() {
            let row = text(&c, &format!("#errors tr[data-error='{kind}'] td.n")).await;
            assert_eq!(number(&row), n.as_f64().unwrap(), "error {kind}");
        }

        // Every rule of summary.json has its row.
        let rules = summary["extractors"]["rules"]["per_rule"]
            .as_object()
            .unwrap();
        let rows = c
            .find_all(Locator::Css("#rules tr[data-rule]"))
            .await
            .unwrap();
        assert_eq!(rows.len(), rules.len());

        // The list shows every page; the filters narrow it to what pages.jsonl says.
        assert_eq!(shown(&c).await, pages.len());
        let count = |f: &dyn Fn(&Value) -> bool| pages.iter().filter(|p| f(p)).count();
        let method = "rules:gazeta.example#statya";
        select(&c, "fMethod", method).await;
        let want = count(&|p| p["method"] == method);
        assert!(want > 0);
        assert_eq!(shown(&c).await, want);
        let rows = c.find_all(Locator::Css("#pages tr.row")).await.unwrap();
        assert_eq!(rows.len(), want);
        select(&c, "fMethod", "").await;
        select(&c, "fError", "any").await;
        assert_eq!(shown(&c).await, 2);
        select(&c, "fError", "binary").await;
        assert_eq!(shown(&c).await, 1);
        select(&c, "fError", "").await;
        select(&c, "fRole", "duplicate").await;
        assert_eq!(shown(&c).await, count(&|p| p["is_main"] == json!(false)));
        select(&c, "fRole", "").await;
        // Clicking a site in the site table filters by it.
        c.find(Locator::Css("#sites a[data-site='technews.example']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let technews = count(&|p| p["url"].as_str().unwrap().contains("//technews.example/"));
        assert!(technews > 1);
        assert_eq!(shown(&c).await, technews);
        select(&c, "fSite", "").await;
        c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
        c.screenshot()
            .await
            .map(|png| save(&png, "report.png"))
            .unwrap();

        // Clicking a page opens its view: the page's kept and removed blocks, reasons.
        select(&c, "fMethod", "rules:technews.example#article").await;
        let link = c.find(Locator::Css("#pages tr.row a.view")).await.unwrap();
        let href = link.attr("href").await.unwrap().unwrap();
        link.click().await.unwrap();
        let url = c.current_url().await.unwrap();
        assert!(url.as_str().ends_with(&href), "{url} after clicking {href}");
        let i: usize = href
            .trim_start_matches("pages/")
            .trim_end_matches(".html")
            .parse()
            .unwrap();
        let record = &pages[i];
        assert_eq!(text(&c, "h1").await, record["title"].as_str().unwrap());
        assert_eq!(
            text(&c, "dd[data-fact='method']").await,
            record["method"].as_str().unwrap()
        );
        let kept = c.find_all(Locator::Css("li.b.kept .t")).await.unwrap();
        assert!(!kept.is_empty());
        let page_text = record["text"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for k in &kept {
            let t = k.text().await.unwrap();
            let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                page_text.contains(&t),
                "kept block {t:?} is in the page's text"
            );
        }
        let reasons = c.find_all(Locator::Css("li.b.removed .why")).await.unwrap();
        assert!(!reasons.is_empty());
        let mut labels = Vec::new();
        for r in &reasons {
            labels.push(r.text().await.unwrap());
        }
        assert!(
            labels
                .iter()
                .all(|l| l.starts_with("rule technews.example#article: ")),
            "{labels:?}"
        );
        assert!(
            labels
                .iter()
                .any(|l| l.contains("remove `//div[contains(@class, 'ad-slot')]`")),
            "{labels:?}"
        );
        // The cluster box names the main document and why it was chosen.
        if record["cluster"].is_string() {
            let cluster = text(&c, "#cluster").await;
            assert!(
                cluster.contains(record["main"].as_str().unwrap()),
                "{cluster}"
            );
        }
        // "only removed blocks" hides the kept ones.
        c.find(Locator::Id("onlyRemoved"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert!(!kept[0].is_displayed().await.unwrap());
        c.find(Locator::Id("onlyRemoved"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();

        // Back to the index: the filter is still set (kept in the URL's hash).
        c.find(Locator::Id("back"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        c.goto(&format!(
            "{index}#method={}",
            "rules%3Atechnews.example%23article"
        ))
        .await
        .unwrap();
        c.refresh().await.unwrap();
        assert_eq!(
            shown(&c).await,
            count(&|p| p["method"] == "rules:technews.example#article")
        );

        // A heuristic page's view: its kept blocks are exactly the page's text, and each
        // removed one says why with the signal's value.
        let heuristic = pages
            .iter()
            .position(|p| {
                p["path"]
                    .as_str()
                    .is_some_and(|m| m.ends_with("el-short-article-beside-grids.html"))
            })
            .expect("a page of the heuristic");
        c.goto(&format!(
            "file://{}",
            out.join(format!("report/pages/{heuristic}.html")).display()
        ))
        .await
        .unwrap();
        let mut lines = Vec::new();
        for k in c.find_all(Locator::Css("li.b.kept .t")).await.unwrap() {
            lines.push(k.text().await.unwrap());
        }
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            norm(&lines.join("\n")),
            norm(pages[heuristic]["text"].as_str().unwrap())
        );
        let why = c.find_all(Locator::Css("li.b.removed .why")).await.unwrap();
        assert!(!why.is_empty());
        c.screenshot()
            .await
            .map(|png| save(&png, "report-page.png"))
            .unwrap();
        c.close().await.unwrap();
    });
}

fn save(png: &[u8], name: &str) {
    let dir: PathBuf = root().join("docs");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

/// Not a check, a measurement (tests never assert wall-clock time): how long chromium
/// takes to open a report's index and one page view, from navigation start to the end
/// of the load event (the index's script has rendered the list by then).
///   REPORT_DIR=out/sites/report cargo test --release --test report_browser -- --ignored --nocapture
#[test]
#[ignore]
fn measure_report_open_time() {
    let dir = PathBuf::from(std::env::var("REPORT_DIR").expect("REPORT_DIR=OUT/report"));
    let dir = dir.canonicalize().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let driver = start_driver();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let c = browser(driver.1, &tmp.path().join("profile")).await;
        let timing = "const n = performance.getEntriesByType('navigation')[0]; \
                      return [n.domContentLoadedEventEnd, n.loadEventEnd, document.querySelectorAll('tr').length];";
        for round in 0..3 {
            for page in ["index.html", "pages/0.html"] {
                c.goto(&format!("file://{}", dir.join(page).display())).await.unwrap();
                let t = c.execute(timing, vec![]).await.unwrap();
                let size = std::fs::metadata(dir.join(page)).unwrap().len();
                println!(
                    "round {round} {page} ({} KB): DOMContentLoaded {:.0} ms, load {:.0} ms, {} table rows",
                    size / 1024,
                    t[0].as_f64().unwrap(),
                    t[1].as_f64().unwrap(),
                    t[2]
                );
            }
        }
        c.close().await.unwrap();
    });
}
