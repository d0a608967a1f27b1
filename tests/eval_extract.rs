//! `thresher eval extract` against the benchmarks' Python scorer
//! (`../shared/eval/score_extraction.py`, or `$THRESHER_EVAL_DIR`): the same figures to 4
//! decimals on gold written here (tricky words: Chinese, Greek final sigma, combining
//! marks, underscores, texts under 4 words, missing pages) and on samples of the real
//! corpora (extracted by thresher); CleanEval and plain-text gold (no Python scorer)
//! against the same texts as WCXB gold; bad gold and bad records (exit 2, file and line).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{bin, root};
use serde_json::{json, Value};

fn eval_dir() -> PathBuf {
    std::env::var_os("THRESHER_EVAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/eval"))
}

/// The Python scorer, when it and python3 are there.
fn scorer() -> Option<PathBuf> {
    let s = eval_dir().join("score_extraction.py");
    let python = Command::new("python3").arg("--version").output();
    if s.is_file() && python.is_ok_and(|o| o.status.success()) {
        Some(s)
    } else {
        eprintln!("skipped: no python3 or no {}", s.display());
        None
    }
}

/// `score_extraction.py MODE GOLD PRED`'s figures.
fn python(scorer: &Path, mode: &str, gold: &Path, pred: &Path) -> Value {
    let out = Command::new("python3")
        .arg(scorer)
        .args([mode, gold.to_str().unwrap(), pred.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8(out.stdout).unwrap();
    let json = line.split_once(' ').expect("stem and JSON").1;
    serde_json::from_str(json).unwrap()
}

/// `thresher eval extract --gold KIND:PATH PRED --format json`'s figures.
fn thresher(kind: &str, gold: &Path, pred: &Path, extra: &[&str]) -> Value {
    let out = bin()
        .args(["eval", "extract", "--format", "json", "--gold"])
        .arg(format!("{kind}:{}", gold.display()))
        .arg(pred)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Python rounds to 4 decimals; ours must round to the same.
fn same(what: &str, ours: &Value, py: &Value) {
    let (a, b) = (ours.as_f64().unwrap(), py.as_f64().unwrap());
    assert!(
        (a - b).abs() <= 0.00005 + 1e-12,
        "{what}: thresher {a}, Python {b}"
    );
}

fn compare(mode: &str, ours: &Value, py: &Value) {
    let keys: &[&str] = match mode {
        "wcxb" => &["precision", "recall", "f1", "with_rate", "without_rate"],
        "scrapinghub" => &["precision", "recall", "f1", "accuracy"],
        _ => &[
            "precision",
            "recall",
            "f1",
            "accuracy",
            "tp",
            "fp",
            "fn",
            "tn",
        ],
    };
    for k in keys {
        same(&format!("{mode} {k}"), &ours[k], &py[k]);
    }
    assert_eq!(ours["n"], py["n"], "{mode} n");
    if let Some(types) = py["f1_by_type"].as_object() {
        let groups = ours["groups"].as_object().unwrap();
        assert_eq!(
            groups.keys().collect::<Vec<_>>(),
            types.keys().collect::<Vec<_>>(),
            "{mode}: page types"
        );
        for (t, f1) in types {
            same(&format!("{mode} {t} f1"), &groups[t]["f1"], f1);
        }
    }
}

fn write_jsonl(path: &Path, records: &[Value]) {
    let lines: Vec<String> = records.iter().map(|r| r.to_string()).collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn wcxb_gold(dir: &Path, id: &str, text: &str, ptype: &str, lang: Option<&str>) {
    let mut rec = json!({
        "url": format!("http://example.org/{id}.html"),
        "_internal": {"page_type": {"primary": ptype}},
        "ground_truth": {"main_content": text, "with": ["first words"], "without": ["Menu"]},
    });
    if let Some(l) = lang {
        rec["lang"] = json!(l);
    }
    std::fs::write(dir.join(format!("{id}.json")), rec.to_string()).unwrap();
}

/// Gold and predictions written here, pages chosen for the places a tokenizer or a
/// measure can differ from Python's.
#[test]
fn same_figures_as_python_on_written_gold() {
    let Some(scorer) = scorer() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let gold = tmp.path().join("gt");
    std::fs::create_dir(&gold).unwrap();
    let pages = [
        (
            "0001",
            "First words of the article_body, and more words here.",
            "article",
            None,
            "first words of the ARTICLE_BODY and menu",
        ),
        (
            "0002",
            "ΟΔΟΣ ΠΑΝΕΠΙΣΤΗΜΙΟΥ: η οδός. Καφέ\u{301} café",
            "forum",
            Some("Greek"),
            "η οδος πανεπιστημιου καφε",
        ),
        (
            "0003",
            "中文新闻，今天２０２６年。English too",
            "article",
            Some("Chinese"),
            "中文新闻 今天 English",
        ),
        ("0004", "", "listing", None, ""),
        (
            "0005",
            "Short one",
            "listing",
            None,
            "Short one plus menu words",
        ),
        ("0006", "Nobody extracted this page.", "product", None, ""),
        (
            "0007",
            "x\u{203f}y hindi हिन्दी ²³ Ⅻ",
            "product",
            Some("Hindi"),
            "x y हिन्दी ²³",
        ),
    ];
    let mut records = Vec::new();
    for (id, text, ptype, lang, pred) in pages {
        wcxb_gold(&gold, id, text, ptype, lang);
        if id != "0006" {
            records.push(json!({"path": format!("html/{id}.html.gz"), "text": pred}));
        }
    }
    records.push(json!({"path": "html/0099.html.gz", "text": "an extra record"}));
    let pred = tmp.path().join("pred.jsonl");
    write_jsonl(&pred, &records);
    let ours = thresher("wcxb", &gold, &pred, &[]);
    compare("wcxb", &ours, &python(&scorer, "wcxb", &gold, &pred));
    assert_eq!(
        (ours["missing"].as_u64(), ours["extra"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(ours["missing_pages"], json!(["0006"]));

    // ScrapingHub: the same texts, case kept; every page present (its scorer stops on a
    // missing one) and sharing a shingle with its gold (its bootstrap divides by zero on
    // a resample of pages without one).
    let mut sh = serde_json::Map::new();
    let mut sh_records = Vec::new();
    for (id, text, ..) in pages.iter().filter(|p| !p.1.is_empty()) {
        sh.insert(
            id.to_string(),
            json!({"articleBody": text, "url": "http://e.org/"}),
        );
        let pred = match *id {
            "0001" => format!("{text} Share this on social media"),
            "0002" => text.replacen("ΟΔΟΣ", "οδος", 1),
            "0006" => "Nobody extracted this page at all.".to_string(),
            "0007" => format!("{text} menu"),
            _ => text.to_string(),
        };
        sh_records.push(json!({"path": format!("{id}.html"), "text": pred}));
    }
    let sh_gold = tmp.path().join("ground-truth.json");
    std::fs::write(&sh_gold, Value::Object(sh).to_string()).unwrap();
    let sh_pred = tmp.path().join("sh.jsonl");
    write_jsonl(&sh_pred, &sh_records);
    let ours = thresher("scrapinghub", &sh_gold, &sh_pred, &[]);
    compare(
        "scrapinghub",
        &ours,
        &python(&scorer, "scrapinghub", &sh_gold, &sh_pred),
    );

    // with/without snippets: matched by file name; one page without a record.
    let ev = json!({
        "http://a.org/1": {"file": "0001.html.gz", "with": ["first  words", "more words"], "without": ["menu"]},
        "http://a.org/2": {"file": "0005.html.gz", "with": ["Short one"], "without": ["menu words", "absent"]},
        "http://a.org/3": {"file": "0042.html.gz", "with": ["gone"], "without": ["x"]},
    });
    let ev_path = tmp.path().join("evaldata.json");
    std::fs::write(&ev_path, ev.to_string()).unwrap();
    let ours = thresher("withwithout", &ev_path, &pred, &[]);
    compare(
        "withwithout",
        &ours,
        &python(&scorer, "withwithout", &ev_path, &pred),
    );
    assert_eq!(ours["missing"], json!(1));
}

fn copy_sample(src: &Path, dst: &Path, names: &[String]) {
    std::fs::create_dir_all(dst).unwrap();
    for n in names {
        std::fs::copy(src.join(n), dst.join(n)).unwrap();
    }
}

fn extract(htmls: &[PathBuf], out: &Path) {
    let status = bin()
        .args(["extract", "--no-infholder", "-o"])
        .arg(out)
        .args(htmls)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
}

/// Every `step`-th file name of `dir` ending in `suffix`.
fn every(dir: &Path, suffix: &str, step: usize) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(suffix))
        .collect();
    names.sort();
    names.into_iter().step_by(step).collect()
}

/// Samples of WCXB dev, daniel-dev (five languages, Chinese per letter), ScrapingHub and
/// trafilatura-dev, extracted by thresher and scored by both.
#[test]
fn same_figures_as_python_on_corpus_samples() {
    let Some(scorer) = scorer() else { return };
    let eval = eval_dir();
    let tmp = tempfile::tempdir().unwrap();
    for (corpus, step) in [("wcxb-dev", 37), ("daniel-dev", 19)] {
        let src = eval.join(corpus);
        if !src.is_dir() {
            eprintln!("skipped {corpus}: not in {}", eval.display());
            continue;
        }
        let names = every(&src.join("ground-truth"), ".json", step);
        let gold = tmp.path().join(corpus);
        copy_sample(&src.join("ground-truth"), &gold, &names);
        let htmls: Vec<PathBuf> = names
            .iter()
            .map(|n| src.join("html").join(n.replace(".json", ".html.gz")))
            .collect();
        let pred = tmp.path().join(format!("{corpus}.jsonl"));
        extract(&htmls, &pred);
        let ours = thresher("wcxb", &gold, &pred, &[]);
        compare("wcxb", &ours, &python(&scorer, "wcxb", &gold, &pred));
        assert!(
            ours["groups"].as_object().unwrap().len() >= 3,
            "{corpus}: {ours}"
        );
    }
    let sh = eval.join("scrapinghub");
    if sh.is_dir() {
        let all: serde_json::Map<String, Value> =
            serde_json::from_slice(&std::fs::read(sh.join("ground-truth.json")).unwrap()).unwrap();
        let sample: serde_json::Map<String, Value> = all.into_iter().step_by(9).collect();
        let gold = tmp.path().join("sh.json");
        std::fs::write(&gold, Value::Object(sample.clone()).to_string()).unwrap();
        let htmls: Vec<PathBuf> = sample
            .keys()
            .map(|k| sh.join("html").join(format!("{k}.html.gz")))
            .collect();
        let pred = tmp.path().join("sh.jsonl");
        extract(&htmls, &pred);
        let ours = thresher("scrapinghub", &gold, &pred, &[]);
        compare(
            "scrapinghub",
            &ours,
            &python(&scorer, "scrapinghub", &gold, &pred),
        );
    }
    let td = eval.join("trafilatura-dev");
    if td.is_dir() {
        let all: serde_json::Map<String, Value> =
            serde_json::from_slice(&std::fs::read(td.join("evaldata.json")).unwrap()).unwrap();
        let sample: serde_json::Map<String, Value> = all.into_iter().step_by(16).collect();
        let gold = tmp.path().join("evaldata.json");
        std::fs::write(&gold, Value::Object(sample.clone()).to_string()).unwrap();
        let htmls: Vec<PathBuf> = sample
            .values()
            .map(|v| td.join("html").join(v["file"].as_str().unwrap()))
            .collect();
        let pred = tmp.path().join("td.jsonl");
        extract(&htmls, &pred);
        let ours = thresher("withwithout", &gold, &pred, &[]);
        compare(
            "withwithout",
            &ours,
            &python(&scorer, "withwithout", &gold, &pred),
        );
    }
}

/// `text:` and `cleaneval:` gold use the word measure: the same figures as WCXB gold of
/// the same texts (scored by Python), the CleanEval header and markers not counted.
#[test]
fn text_and_cleaneval_gold_score_as_wcxb() {
    let Some(scorer) = scorer() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (wcxb, text, clean) = (
        tmp.path().join("w"),
        tmp.path().join("t"),
        tmp.path().join("c"),
    );
    for d in [&wcxb, &text, &clean] {
        std::fs::create_dir(d).unwrap();
    }
    let pages = [
        (
            "1",
            "Heading of the page",
            "The first paragraph, with words.",
            "an item",
        ),
        (
            "2",
            "Another title",
            "Paragraph p h l of page two.",
            "list item two",
        ),
    ];
    let mut records = Vec::new();
    for (id, h, p, l) in pages {
        let plain = format!("{h}\n{p}\n{l}\n");
        let rec = json!({"_internal": {"page_type": {"primary": "unknown"}},
            "ground_truth": {"main_content": plain}});
        std::fs::write(wcxb.join(format!("{id}.json")), rec.to_string()).unwrap();
        std::fs::write(text.join(format!("{id}.txt")), &plain).unwrap();
        let marked = format!("URL: http://example.org/{id}.html\n<h>{h}\n<p>{p}\n<L>{l}\n");
        std::fs::write(clean.join(format!("{id}.txt")), marked).unwrap();
        records.push(json!({"path": format!("{id}.html"), "text": format!("{p} URL menu {l}")}));
    }
    let pred = tmp.path().join("pred.jsonl");
    write_jsonl(&pred, &records);
    let py = python(&scorer, "wcxb", &wcxb, &pred);
    for (kind, dir) in [("text", &text), ("cleaneval", &clean)] {
        let ours = thresher(kind, dir, &pred, &[]);
        for k in ["precision", "recall", "f1"] {
            same(&format!("{kind} {k}"), &ours[k], &py[k]);
        }
    }
}

fn fails(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {:?}", out);
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `eval extract --gold GOLD PRED`, which must fail (exit 2): its stderr.
fn gold_fails(gold: &str, pred: &str) -> String {
    fails(&["eval", "extract", "--gold", gold, pred])
}

#[test]
fn bad_gold_and_records_name_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let pred = tmp.path().join("pred.jsonl");
    write_jsonl(&pred, &[json!({"path": "0001.html", "text": "words"})]);
    let p = pred.to_str().unwrap();

    let missing = tmp.path().join("no-such-folder");
    let err = gold_fails(&format!("wcxb:{}", missing.display()), p);
    assert!(err.contains("no-such-folder"), "{err}");

    let gold = tmp.path().join("gt");
    std::fs::create_dir(&gold).unwrap();
    std::fs::write(
        gold.join("0001.json"),
        "{\n  \"ground_truth\": {\n    \"main_content\": oops\n}}",
    )
    .unwrap();
    let err = gold_fails(&format!("wcxb:{}", gold.display()), p);
    assert!(err.contains("0001.json:3:"), "{err}");

    let sh = tmp.path().join("gt.json");
    std::fs::write(&sh, "{\"a\": {\"articleBody\": \"x\"},\n\"b\": }").unwrap();
    let err = gold_fails(&format!("scrapinghub:{}", sh.display()), p);
    assert!(err.contains("gt.json:2:"), "{err}");

    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let err = gold_fails(&format!("text:{}", empty.display()), p);
    assert!(err.contains("no gold pages"), "{err}");

    let err = gold_fails("html:x", p);
    assert!(err.contains("unknown kind"), "{err}");

    std::fs::write(
        gold.join("0001.json"),
        r#"{"ground_truth": {"main_content": "words"}}"#,
    )
    .unwrap();
    std::fs::write(
        &pred,
        "{\"path\": \"0001.html\", \"text\": \"words\"}\n{\"text\": \"x\"}\n",
    )
    .unwrap();
    let err = gold_fails(&format!("wcxb:{}", gold.display()), p);
    assert!(err.contains("pred.jsonl:2:"), "{err}");
}

/// The text output: overall, per type, missing and extra pages, the worst pages.
#[test]
fn text_output_lists_groups_and_worst_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let gold = tmp.path().join("gt");
    std::fs::create_dir(&gold).unwrap();
    wcxb_gold(&gold, "0001", "good words here", "article", None);
    wcxb_gold(&gold, "0002", "other words there", "forum", None);
    wcxb_gold(&gold, "0003", "never extracted", "forum", None);
    let pred = tmp.path().join("pred.jsonl");
    write_jsonl(
        &pred,
        &[
            json!({"path": "0001.html", "text": "good words here"}),
            json!({"path": "0002.html", "text": "other menu"}),
            json!({"path": "0077.html", "text": "extra"}),
        ],
    );
    let out = bin()
        .args(["eval", "extract", "--worst", "2", "--gold"])
        .arg(format!("wcxb:{}", gold.display()))
        .arg(&pred)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  article  n     1  P 1.0000  R 1.0000  F1 1.0000"),
        "{text}"
    );
    assert!(text.contains("missing 1 (scored as empty): 0003"), "{text}");
    assert!(
        text.contains("extra records 1 (no gold page): 0077.html"),
        "{text}"
    );
    let worst: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("worst"))
        .collect();
    assert_eq!(worst.len(), 3, "{text}");
    assert!(
        worst[1].contains("0003") && worst[1].contains("(no record)"),
        "{text}"
    );
    assert!(worst[2].contains("0002"), "{text}");
}

/// The same records as Parquet (`extract --format parquet`) score as their JSONL.
#[test]
fn parquet_records_score_as_jsonl() {
    let tmp = tempfile::tempdir().unwrap();
    let pages = common::fixtures().join("sites");
    let (jsonl, parquet) = (tmp.path().join("r.jsonl"), tmp.path().join("r.parquet"));
    for (out, format) in [(&jsonl, "jsonl"), (&parquet, "parquet")] {
        let o = bin()
            .args(["extract", "--format", format, "-o"])
            .arg(out)
            .arg(&pages)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    // Gold: each page's own extracted text, cut by half, as plain `<id>.txt` files.
    let gold = tmp.path().join("gold");
    std::fs::create_dir(&gold).unwrap();
    for line in std::fs::read_to_string(&jsonl).unwrap().lines().take(8) {
        let r: Value = serde_json::from_str(line).unwrap();
        let (path, text) = (r["path"].as_str().unwrap(), r["text"].as_str().unwrap());
        let id = path.rsplit('/').next().unwrap().split('.').next().unwrap();
        let half: String = text.chars().take(text.chars().count() / 2).collect();
        std::fs::write(gold.join(format!("{id}.txt")), half).unwrap();
    }
    let a = thresher("text", &gold, &jsonl, &[]);
    let b = thresher("text", &gold, &parquet, &[]);
    for k in ["precision", "recall", "f1", "extra", "missing"] {
        assert_eq!(a[k], b[k], "{k}");
    }
    assert!(a["f1"].as_f64().unwrap() < 1.0 && a["recall"].as_f64().unwrap() > 0.9);
}
