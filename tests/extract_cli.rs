//! `thresher extract` end to end on the fixture sites, WARC files and encodings.

mod common;
use common::*;

#[test]
fn extract_with_manifest_keeps_content_drops_boilerplate_on_every_fixture_page() {
    let manifest = fixtures().join("sites/manifest.jsonl");
    let out = run_ok(&[
        "extract",
        "--manifest",
        manifest.to_str().unwrap(),
        fixtures().join("sites").to_str().unwrap(),
    ]);
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 16);
    let failures = check_expectations(&records, |p| p.to_string());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for r in &records {
        assert!(
            matches!(
                r["method"].as_str(),
                Some("heuristic" | "inbreeding+heuristic")
            ),
            "{r}"
        );
        let ratio = r["boilerplate_ratio"].as_f64().unwrap();
        assert!((0.0..1.0).contains(&ratio), "{r}");
        assert!(
            r["fetched_at"].as_str().unwrap().starts_with("2025-"),
            "manifest time used: {r}"
        );
        assert!(r["url"].as_str().unwrap().starts_with("http://"));
    }
}

#[test]
fn records_carry_url_group_and_manifest_path() {
    let manifest = fixtures().join("sites/manifest.jsonl");
    let out = run(&["extract", "--manifest", manifest.to_str().unwrap()]);
    assert!(out.status.success());
    let records = stdout_jsonl(&out);
    let r = records
        .iter()
        .find(|r| r["path"] == "technews.example/news/passkeys-explained.print.html")
        .expect("manifest path echoed");
    assert_eq!(
        r["url"],
        "http://technews.example/news/passkeys-explained.print.html"
    );
    assert_eq!(r["group"], "technews.example/news/");
    let depth = run(&[
        "extract",
        "--manifest",
        manifest.to_str().unwrap(),
        "--group-depth",
        "0",
    ]);
    let records = stdout_jsonl(&depth);
    assert!(records
        .iter()
        .all(|r| r["group"].as_str().unwrap().matches('/').count() == 1));
}

#[test]
fn without_manifest_url_comes_from_the_directory_layout_and_charset_is_detected() {
    let sites = fixtures().join("sites");
    let out = run(&["extract", sites.to_str().unwrap()]);
    assert!(out.status.success());
    let records = stdout_jsonl(&out);
    let failures = check_expectations(&records, |p| sites.join(p).display().to_string());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let by_name = |name: &str| {
        records
            .iter()
            .find(|r| r["path"].as_str().unwrap().ends_with(name))
            .unwrap_or_else(|| panic!("{name}"))
    };
    let r = by_name("staraya-melnitsa.html");
    assert_eq!(
        r["url"],
        "http://gazeta.example/stati/staraya-melnitsa.html"
    );
    assert_eq!(r["charset"], "windows-1251 (detected)");
    assert_eq!(
        by_name("shahmatisty-final.html")["charset"],
        "koi8-r (detected)"
    );
    assert_eq!(by_name("sad-k-zime.html")["charset"], "koi8-r (meta)");
    assert_eq!(
        by_name("remont-shkol.html")["charset"],
        "windows-1251 (meta)"
    );
}

#[test]
fn warc_files_yield_their_html_responses() {
    for name in ["sample.warc.gz", "sample.warc"] {
        let warc = fixtures().join("warc").join(name);
        let out = run(&["extract", warc.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let records = stdout_jsonl(&out);
        let urls: Vec<&str> = records.iter().map(|r| r["url"].as_str().unwrap()).collect();
        assert_eq!(
            urls,
            [
                "http://technews.example/news/sodium-ion-grid-storage.html",
                "http://novosti.example/politika/pravila-ulichnoy-torgovli.html",
                "http://gazeta.example/stati/staraya-melnitsa.html"
            ],
            "{name}"
        );
        let cp1251 = &records[2];
        assert_eq!(cp1251["charset"], "windows-1251 (header)");
        assert!(
            cp1251["text"]
                .as_str()
                .unwrap()
                .contains("водяная мельница"),
            "{cp1251}"
        );
        assert!(cp1251["fetched_at"].as_str().is_some());
        assert!(records[0]["path"]
            .as_str()
            .unwrap()
            .contains(&format!("{name}#")));
    }
}

#[test]
fn output_file_and_stdout_agree() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nested/out.jsonl");
    let sites = fixtures().join("sites/gardenblog.example");
    let a = run(&[
        "extract",
        sites.to_str().unwrap(),
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(a.status.success());
    assert!(a.stdout.is_empty());
    let b = run(&["extract", sites.to_str().unwrap()]);
    assert_eq!(std::fs::read(&file).unwrap(), b.stdout);
}

#[test]
fn with_title_writes_the_title_as_the_first_line_once() {
    let page = fixtures().join("layouts/ru-table-columns.html");
    let page = page.to_str().unwrap();
    let plain = stdout_jsonl(&run(&["extract", "--no-infholder", page]));
    let titled = stdout_jsonl(&run(&["extract", "--no-infholder", "--with-title", page]));
    let (plain, titled) = (&plain[0], &titled[0]);
    let title = plain["title"].as_str().unwrap();
    let text = plain["text"].as_str().unwrap();
    assert!(title.contains("мост через реку Тихую"), "{plain}");
    assert!(
        !text.starts_with(title),
        "by default the title is a field only: {plain}"
    );
    assert_eq!(titled["title"], plain["title"]);
    assert_eq!(titled["text"].as_str().unwrap(), format!("{title}\n{text}"));
    // The configuration key says the same as the flag; both at once add the title once.
    let config = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(config.path(), "with_title: true\n").unwrap();
    let both = stdout_jsonl(&run(&[
        "extract",
        "--config",
        config.path().to_str().unwrap(),
        "--no-infholder",
        "--with-title",
        page,
    ]));
    assert_eq!(both[0]["text"], titled["text"]);
}

#[test]
fn keep_headline_writes_the_articles_headline_first_through_the_config() {
    let page = fixtures().join("layouts/en-utf8-declared-latin1.html");
    let page = page.to_str().unwrap();
    let plain = stdout_jsonl(&run(&["extract", "--no-infholder", page]));
    let text = plain[0]["text"].as_str().unwrap();
    let headline = "Harbour ferry returns after winter repairs";
    assert!(!text.contains(headline), "off by default: {text}");
    let config = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(config.path(), "heuristic:\n  keep_headline: true\n").unwrap();
    let kept = stdout_jsonl(&run(&[
        "extract",
        "--config",
        config.path().to_str().unwrap(),
        "--no-infholder",
        page,
    ]));
    assert_eq!(
        kept[0]["text"].as_str().unwrap(),
        format!("{headline}\n{text}")
    );
}
