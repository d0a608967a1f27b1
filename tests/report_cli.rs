//! The report through the CLI without a browser: `thresher report OUT_DIR` with and
//! without the run's inputs, `rules try --html`, a normal run writing no report; and the
//! progress bars: drawn on a terminal (a pty from `script`), nothing extra on a pipe.

mod common;

use std::path::Path;
use std::process::Command;

use common::{bin, fixtures, jsonl, root, run};

fn sites_run(out: &Path, extra: &[&str]) {
    let f = fixtures();
    let mut args = vec![
        "run",
        "--rules",
        "site-rules",
        "--manifest",
        f.join("sites/manifest.jsonl")
            .to_str()
            .unwrap()
            .to_string()
            .leak(),
        "--out",
        out.to_str().unwrap().to_string().leak(),
        f.join("sites").to_str().unwrap().to_string().leak(),
    ];
    args.extend_from_slice(extra);
    let o = bin().current_dir(root()).args(&args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn report_of_an_earlier_run_with_and_without_its_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    sites_run(&out, &[]);
    assert!(
        !out.join("report").exists(),
        "a run without --report writes no report"
    );
    let pages = jsonl(&out.join("pages.jsonl"));

    // Without inputs: every page has a view with its kept text, no reasons.
    let o = run(&["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let index = read(&out.join("report/index.html"));
    assert!(
        index.contains("\"traced\":0"),
        "no page traced without inputs"
    );
    for (i, p) in pages.iter().enumerate() {
        let view = read(&out.join(format!("report/pages/{i}.html")));
        assert!(view.contains("kept text only"));
        let first_line = p["text"].as_str().unwrap().lines().next().unwrap();
        assert!(view.contains(
            &first_line
                .replace('&', "&amp;")
                .replace('\'', "&#39;")
                .replace('"', "&quot;")
        ));
        assert!(!view.contains("class='why"));
    }

    // With the run's inputs and rules: every page's removed blocks and their reasons.
    let f = fixtures();
    let o = bin()
        .current_dir(root())
        .args([
            "report",
            out.to_str().unwrap(),
            "--rules",
            "site-rules",
            "--manifest",
            f.join("sites/manifest.jsonl").to_str().unwrap(),
            f.join("sites").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "report: {} pages ({} with reasons)",
            pages.len(),
            pages.len()
        )),
        "{err}"
    );
    let index = read(&out.join("report/index.html"));
    assert!(index.contains(&format!("\"traced\":{}", pages.len())));
    let i = pages
        .iter()
        .position(|p| p["method"] == "rules:technews.example#article")
        .unwrap();
    let view = read(&out.join(format!("report/pages/{i}.html")));
    assert!(
        view.contains(
            "rule technews.example#article: remove `//div[contains(@class, &#39;ad-slot&#39;)]`"
        ),
        "{view}"
    );
    assert!(view.contains("rule technews.example#article: outside content"));
    // Without the rules the re-extraction differs from the run, and the views say so.
    let o = run(&[
        "report",
        out.to_str().unwrap(),
        "--manifest",
        f.join("sites/manifest.jsonl").to_str().unwrap(),
        f.join("sites").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("extracted differently from pages.jsonl"),
        "{err}"
    );
    assert!(read(&out.join(format!("report/pages/{i}.html")))
        .contains("the text differs from pages.jsonl"));
}

#[test]
fn report_of_a_folder_that_is_no_run_names_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&["report", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("summary.json"), "{err}");
}

#[test]
fn rules_try_html_writes_the_page_view() {
    let tmp = tempfile::tempdir().unwrap();
    let html = tmp.path().join("view.html");
    let page = fixtures().join("sites/technews.example/news/data-centres-waste-heat.html");
    let o = run(&[
        "rules",
        "try",
        "--rule",
        root()
            .join("site-rules/technews.example.yaml")
            .to_str()
            .unwrap(),
        "--url",
        "http://technews.example/news/data-centres-waste-heat.html",
        "--html",
        html.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let view = read(&html);
    assert!(
        view.contains("rule technews.example#article: remove `"),
        "{view}"
    );
    assert!(view.contains("class='b kept'"));
    assert!(view.contains("class='b removed'"));
    // An ad-hoc XPath is labelled as such.
    let o = run(&[
        "rules",
        "try",
        "--xpath",
        "//h1",
        "--html",
        html.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(read(&html).contains("rule --xpath: outside content `//h1`"));
    // One view per file: two pages are refused.
    let o = run(&[
        "rules",
        "try",
        "--xpath",
        "//h1",
        "--html",
        html.to_str().unwrap(),
        page.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// What a progress bar writes: carriage returns and ANSI erase sequences.
fn has_bar(s: &str) -> bool {
    s.contains('\r') || s.contains("\u{1b}[")
}

#[test]
fn progress_bars_stay_off_a_pipe() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let f = fixtures();
    let o = run(&[
        "run",
        "--manifest",
        f.join("sites/manifest.jsonl").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--report",
        f.join("sites").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(!has_bar(&err), "{err:?}");
    assert_eq!(
        err.lines().count(),
        2,
        "the run's line and the report's: {err}"
    );
    let x = run(&[
        "extract",
        f.join("sites").to_str().unwrap(),
        "-o",
        out.join("x.jsonl").to_str().unwrap(),
    ]);
    assert!(x.status.success());
    assert!(
        x.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&x.stderr)
    );
    let d = run(&[
        "dedup",
        out.join("pages.jsonl").to_str().unwrap(),
        "-o",
        out.join("c.jsonl").to_str().unwrap(),
    ]);
    assert!(d.status.success());
    assert!(
        d.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&d.stderr)
    );
}

#[test]
fn progress_bar_shows_on_a_terminal() {
    // `script` (util-linux, installed by .ci/install) runs the command on a pty.
    assert!(
        Path::new("/usr/bin/script").exists(),
        "/usr/bin/script is missing: run `bash .ci/install` (apt-get install bsdutils)"
    );
    let tmp = tempfile::tempdir().unwrap();
    let f = fixtures();
    let cmd = format!(
        "{} run --manifest {} --out {} {}",
        env!("CARGO_BIN_EXE_thresher"),
        f.join("sites/manifest.jsonl").display(),
        tmp.path().join("out").display(),
        f.join("sites").display()
    );
    let o = Command::new("/usr/bin/script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let all = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{all}");
    assert!(has_bar(&all) && all.contains("/16 pages"), "{all:?}");
}
