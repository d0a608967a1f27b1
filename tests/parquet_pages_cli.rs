//! `extract` and `run` read pages from Parquet files (one page per row; `url`, `html`,
//! optional `path`, `fetched_at`, `popularity`), found by content (`PAR1`), and report a
//! bad row as an error record naming the file and row.

mod common;

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, Float64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use common::*;

/// One row: url, html, path, fetched_at, popularity.
type Row = (
    Option<String>,
    Option<Vec<u8>>,
    Option<String>,
    Option<String>,
    Option<f64>,
);

/// Write `rows` as Parquet, `html` as binary or as a string column.
fn write_pages(path: &Path, rows: &[Row], html_binary: bool) {
    let schema = Arc::new(Schema::new(vec![
        Field::new("url", DataType::Utf8, true),
        Field::new(
            "html",
            if html_binary {
                DataType::Binary
            } else {
                DataType::Utf8
            },
            true,
        ),
        Field::new("path", DataType::Utf8, true),
        Field::new("fetched_at", DataType::Utf8, true),
        Field::new("popularity", DataType::Float64, true),
    ]));
    let (mut url, mut path_col, mut fetched) = (
        StringBuilder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
    );
    let (mut bin, mut text) = (BinaryBuilder::new(), StringBuilder::new());
    let mut pop = Float64Builder::new();
    for (u, h, p, f, n) in rows {
        url.append_option(u.as_deref());
        bin.append_option(h.as_deref());
        text.append_option(h.as_ref().map(|h| String::from_utf8_lossy(h).into_owned()));
        path_col.append_option(p.as_deref());
        fetched.append_option(f.as_deref());
        pop.append_option(*n);
    }
    let html: ArrayRef = if html_binary {
        Arc::new(bin.finish())
    } else {
        Arc::new(text.finish())
    };
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(url.finish()),
            html,
            Arc::new(path_col.finish()),
            Arc::new(fetched.finish()),
            Arc::new(pop.finish()),
        ],
    )
    .unwrap();
    let mut w =
        parquet::arrow::ArrowWriter::try_new(std::fs::File::create(path).unwrap(), schema, None)
            .unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}

/// The fixture sites as Parquet rows, with their manifest's path, URL, time, popularity.
fn site_rows() -> Vec<Row> {
    jsonl(&fixtures().join("sites/manifest.jsonl"))
        .iter()
        .map(|m| {
            let path = m["path"].as_str().unwrap().to_string();
            let html = std::fs::read(fixtures().join("sites").join(&path)).unwrap();
            (
                m["url"].as_str().map(String::from),
                Some(html),
                Some(path),
                m["fetched_at"].as_str().map(String::from),
                m["popularity"].as_f64(),
            )
        })
        .collect()
}

fn by_url(records: &[serde_json::Value]) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = records
        .iter()
        .map(|r| {
            (
                r["url"].as_str().unwrap_or("").to_string(),
                r["text"].as_str().unwrap_or("").to_string(),
                r["fetched_at"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn extract_reads_pages_from_parquet_found_by_content() {
    let dir = tempfile::tempdir().unwrap();
    // No extension: the file is taken for its `PAR1` magic.
    let crawl = dir.path().join("crawl-0001");
    write_pages(&crawl, &site_rows(), true);
    let out = run_ok(&["extract", crawl.to_str().unwrap()]);
    let from_parquet = stdout_jsonl(&out);
    assert_eq!(from_parquet.len(), 16);
    let failures = check_expectations(&from_parquet, |p| p.to_string());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The same pages read as files with their manifest give the same records.
    let manifest = fixtures().join("sites/manifest.jsonl");
    let out = run(&[
        "extract",
        "--manifest",
        manifest.to_str().unwrap(),
        fixtures().join("sites").to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(by_url(&from_parquet), by_url(&stdout_jsonl(&out)));
    // A directory holding it is read the same way, html as a string column this time
    // (which holds UTF-8 only: the windows-1251 and KOI8-R pages stay out).
    let sub = dir.path().join("in");
    std::fs::create_dir(&sub).unwrap();
    let utf8: Vec<Row> = site_rows()
        .into_iter()
        .filter(|r| std::str::from_utf8(r.1.as_ref().unwrap()).is_ok())
        .collect();
    assert!(utf8.len() >= 8);
    write_pages(&sub.join("pages.parquet"), &utf8, false);
    let out = run_ok(&["extract", sub.to_str().unwrap()]);
    let from_strings = stdout_jsonl(&out);
    assert_eq!(from_strings.len(), utf8.len());
    let all = by_url(&from_parquet);
    for r in by_url(&from_strings) {
        assert!(all.contains(&r), "{r:?}");
    }
}

#[test]
fn bad_rows_are_error_records_naming_file_and_row_and_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let mut rows = site_rows();
    rows.truncate(6);
    let page = rows[0].1.clone();
    rows.push((None, page.clone(), None, None, None)); // row 6: no url
    rows.push((Some("http://x.example/a".into()), None, None, None, None)); // 7: no html
    rows.push((
        Some("http://x.example/b".into()),
        page.clone(),
        None,
        Some("yesterday".into()),
        None,
    )); // 8: bad fetched_at
    rows.push((
        Some("http://x.example/c".into()),
        Some(Vec::new()),
        None,
        None,
        None,
    )); // 9
    let file = input.join("pages.parquet");
    write_pages(&file, &rows, true);
    // Not Parquet despite its name: one error for the file.
    std::fs::write(input.join("broken.parquet"), b"PAR1 but nothing else").unwrap();
    let out_dir = dir.path().join("out");
    let out = run(&[
        "run",
        "--out",
        out_dir.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let pages = jsonl(&out_dir.join("pages.jsonl"));
    assert_eq!(
        pages.iter().filter(|p| p["error"].is_null()).count(),
        6,
        "the good rows are extracted"
    );
    let errors = jsonl(&out_dir.join("errors.jsonl"));
    let file_name = file.display().to_string();
    let find = |row: usize| {
        errors
            .iter()
            .find(|e| e["path"].as_str() == Some(format!("{file_name}#row {row}").as_str()))
            .unwrap_or_else(|| panic!("no error for row {row}: {errors:#?}"))
    };
    for (row, kind, says) in [
        (6, "parquet", "no `url`"),
        (7, "parquet", "no `html`"),
        (8, "parquet", "fetched_at"),
        (9, "empty", "empty"),
    ] {
        let e = find(row);
        assert_eq!(e["error_kind"], kind, "{e}");
        let msg = e["error"].as_str().unwrap();
        assert!(
            msg.contains(says) && msg.contains(&format!("row {row}")),
            "{e}"
        );
    }
    let broken = errors
        .iter()
        .find(|e| e["path"].as_str().unwrap_or("").ends_with("broken.parquet"))
        .expect("the broken file is an error");
    assert_eq!(broken["error_kind"], "parquet");
    assert_eq!(errors.len(), 5, "{errors:#?}");
    assert!(stderr.contains("pages.parquet#row 7"), "{stderr}");
}
