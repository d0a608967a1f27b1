//! `thresher index`: batches in any order equal one `dedup` run (dedup-dev from
//! ../shared/eval, and a generated corpus), options stored and enforced, kill -9 of a real
//! `index add` at several points, damage found by `index check`, query/remove/stats.

mod common;
use common::*;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A deterministic generator (splitmix64), so corpora and shuffles are the same every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// `families` base texts of 120 words, each with 0–4 near copies (a few words changed)
/// and fetched_at dates in no particular order: JSON lines.
fn generated_corpus(seed: u64, families: usize) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut lines = Vec::new();
    for f in 0..families {
        let base: Vec<String> = (0..120)
            .map(|_| format!("w{}", rng.below(20_000)))
            .collect();
        for copy in 0..=rng.below(5) {
            let mut words = base.clone();
            for _ in 0..copy * 2 {
                let at = rng.below(words.len());
                words[at] = format!("x{}", rng.below(1000));
            }
            lines.push(
                serde_json::json!({
                    "id": format!("s{seed}f{f}-{copy}"),
                    "fetched_at": format!("2025-01-{:02}T00:00:00Z", 1 + rng.below(28)),
                    "popularity": rng.below(3),
                    "text": words.join(" "),
                })
                .to_string(),
            );
        }
    }
    lines
}

fn write_lines(path: &Path, lines: &[String]) -> PathBuf {
    let mut f = std::fs::File::create(path).unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
    path.to_path_buf()
}

fn count_lines(p: &Path) -> usize {
    std::fs::read_to_string(p).unwrap().lines().count()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(out: &std::process::Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what}: exit {:?}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn one_shot(files: &[&Path], opts: &[&str]) -> String {
    let mut args = vec!["dedup"];
    args.extend(opts);
    args.extend(files.iter().map(|f| s(f)));
    ok(&run(&args), "dedup")
}

fn export(index: &Path) -> String {
    ok(
        &run(&["index", "export", "--index", s(index)]),
        "index export",
    )
}

fn add(index: &Path, file: &Path, opts: &[&str], extra: &[&str]) -> String {
    let mut args = vec!["index", "add", "--index", s(index)];
    args.extend(opts);
    args.extend(extra);
    args.push(s(file));
    ok(&run(&args), "index add")
}

/// Add `batches` in the given order, checking after each add that the touched clusters
/// are clusters of the index as it then is, and at the end that the export equals one
/// `dedup` run over everything.
fn batches_equal_one_run(dir: &Path, batches: &[PathBuf], order: &[usize], opts: &[&str]) {
    let index = dir.join(format!("index-{order:?}"));
    for &b in order {
        let touched = add(&index, &batches[b], opts, &[]);
        let now = export(&index);
        for line in touched.lines() {
            assert!(
                now.lines().any(|l| l == line),
                "touched cluster not in the index: {line}"
            );
        }
    }
    let all: Vec<&Path> = batches.iter().map(|p| p.as_path()).collect();
    let expected = one_shot(&all, opts);
    assert!(
        expected.lines().count() > 10,
        "too few clusters to test anything"
    );
    let got = export(&index);
    if got != expected {
        let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
        let missing: Vec<_> = e.iter().filter(|l| !g.contains(l)).take(3).collect();
        let extra: Vec<_> = g.iter().filter(|l| !e.contains(l)).take(3).collect();
        panic!(
            "order {order:?} {opts:?}: export differs from one dedup run ({} vs {} clusters)\nonly in dedup: {missing:#?}\nonly in export: {extra:#?}",
            e.len(),
            g.len()
        );
    }
}

fn split(dir: &Path, name: &str, mut lines: Vec<String>, parts: usize, seed: u64) -> Vec<PathBuf> {
    Rng(seed).shuffle(&mut lines);
    let n = lines.len().div_ceil(parts);
    lines
        .chunks(n)
        .enumerate()
        .map(|(i, c)| write_lines(&dir.join(format!("{name}{i}.jsonl")), c))
        .collect()
}

#[test]
fn dedup_dev_in_three_shuffled_batches_equals_one_dedup_run() {
    let lines = dedup_dev_lines();
    assert_eq!(lines.len(), 20_000);
    let dir = tempfile::tempdir().unwrap();
    let batches = split(dir.path(), "dev", lines, 3, 15);
    batches_equal_one_run(
        dir.path(),
        &batches,
        &[2, 0, 1],
        &["--threshold", "0.8", "--normalize", "words"],
    );
}

/// dedup-dev with publication dates, fetch times, canonical URLs and one host's template
/// date (`common::dated_dedup_dev`), default main order (published first): three
/// shuffled batches give exactly one dedup run's clusters, mains and reasons — the
/// template date is forgotten over all batches (the index's date counters), documents
/// sharing a canonical URL meet in one component (link postings).
#[test]
fn dated_dedup_dev_with_canonical_urls_in_three_batches_equals_one_run() {
    let lines = dated_dedup_dev(true);
    let dir = tempfile::tempdir().unwrap();
    let batches = split(dir.path(), "dated", lines, 3, 16);
    let opts = ["--threshold", "0.8", "--normalize", "words"];
    batches_equal_one_run(dir.path(), &batches, &[1, 2, 0], &opts);
    // The equality covers dates and canonical URLs only if they decided somewhere.
    let all: Vec<&Path> = batches.iter().map(|p| p.as_path()).collect();
    let expected = one_shot(&all, &opts);
    for what in [
        "earliest published",
        "same published",
        "joined by shared canonical URL",
    ] {
        let n = expected.lines().filter(|l| l.contains(what)).count();
        assert!(n >= 5, "only {n} clusters with `{what}`");
    }
    let index = dir.path().join("index-[1, 2, 0]");
    let check = run(&["index", "check", "--index", s(&index)]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

#[test]
fn generated_corpus_any_batches_any_order_both_modes() {
    let dir = tempfile::tempdir().unwrap();
    let batches = split(dir.path(), "gen", generated_corpus(3, 600), 5, 4);
    batches_equal_one_run(
        dir.path(),
        &batches,
        &[4, 1, 3, 0, 2],
        &["--threshold", "0.8"],
    );
    batches_equal_one_run(
        dir.path(),
        &batches,
        &[0, 2, 4, 3, 1],
        &["--threshold", "0.75", "--mode", "components"],
    );
}

/// A batch that is a small share of the index finds its components by walking from its
/// documents (a large one scans all buckets): both must give the answer of one run.
#[test]
fn small_batch_after_a_large_one_walks_from_its_documents() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = generated_corpus(8, 700);
    Rng(9).shuffle(&mut lines);
    let small = lines.split_off(lines.len() - 40);
    let batches = vec![
        write_lines(&dir.path().join("large.jsonl"), &lines),
        write_lines(&dir.path().join("small.jsonl"), &small),
    ];
    batches_equal_one_run(dir.path(), &batches, &[0, 1], &["--threshold", "0.8"]);
}

#[test]
fn options_are_stored_and_other_options_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("ix");
    let batches = split(dir.path(), "b", generated_corpus(5, 60), 2, 1);
    add(
        &index,
        &batches[0],
        &["--threshold", "0.8", "--normalize", "words"],
        &[],
    );
    let out = run(&[
        "index",
        "add",
        "--index",
        s(&index),
        "--threshold",
        "0.7",
        s(&batches[1]),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("threshold: index 0.8, given 0.7"), "{err}");
    // A key given twice in one batch: the last version stays, with its postings only.
    let twice = write_lines(
        &dir.path().join("twice.jsonl"),
        &[
            serde_json::json!({"id": "dup", "text": "alpha beta gamma delta epsilon zeta eta theta iota kappa"}).to_string(),
            serde_json::json!({"id": "dup", "text": "one two three four five six seven eight nine ten eleven"}).to_string(),
        ],
    );
    add(&index, &twice, &[], &["--commit-every", "5"]);
    ok(
        &run(&["index", "check", "--index", s(&index)]),
        "check after a key given twice",
    );
    // Without options the stored ones apply; the same options are accepted.
    add(&index, &batches[1], &[], &[]);
    add(&index, &batches[1], &["--threshold", "0.8"], &[]);
    let stats: serde_json::Value = serde_json::from_str(&ok(
        &run(&["index", "stats", "--index", s(&index)]),
        "stats",
    ))
    .unwrap();
    assert_eq!(stats["config"]["threshold"], 0.8);
    assert_eq!(stats["config"]["normalize"], "words");
    assert_eq!(stats["batches"], 4);
    assert_eq!(stats["interrupted_batches"], 0);
    // Collection statistics change with every batch: refused when creating an index.
    let out = run(&[
        "index",
        "add",
        "--index",
        s(&dir.path().join("ix2")),
        "--method",
        "tfidf",
        s(&batches[0]),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("collection"));
}

/// Kill a real `index add` with SIGKILL at several points: as soon as it starts, after
/// its first and third commits, and after its last commit (while clustering and writing).
/// Each time `index check` accepts the index, the committed documents are there, and
/// adding the batch again gives the answer of an add that was never killed.
#[test]
fn kill_9_during_add_then_readd_gives_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let first = write_lines(&dir.path().join("first.jsonl"), &generated_corpus(11, 300));
    let second = write_lines(
        &dir.path().join("second.jsonl"),
        &generated_corpus(12, 1500),
    );
    let opts = ["--threshold", "0.8"];
    let commit = ["--commit-every", "200"];
    let reference = dir.path().join("reference");
    add(&reference, &first, &opts, &commit);
    let expected_touched = add(&reference, &second, &opts, &commit);
    let expected_export = export(&reference);
    assert!(expected_touched.lines().count() > 50);

    // (commit lines to wait for, or None: kill at once; wait for "complete")
    let points: [(Option<usize>, bool); 4] = [
        (None, false),
        (Some(1), false),
        (Some(3), false),
        (None, true),
    ];
    for (n, &(commits, complete)) in points.iter().enumerate() {
        let index = dir.path().join(format!("killed{n}"));
        add(&index, &first, &opts, &commit);
        let mut child = bin()
            .args(["-v", "index", "add", "--index", s(&index)])
            .args(opts)
            .args(commit)
            .arg(s(&second))
            .arg("-o")
            .arg(s(&dir.path().join(format!("touched{n}.jsonl"))))
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut committed = 0;
        if commits.is_some() || complete {
            let stderr = BufReader::new(child.stderr.take().unwrap());
            let mut seen = 0;
            for line in stderr.lines() {
                let line = line.unwrap();
                if let Some(c) = line.split("committed ").nth(1) {
                    seen += 1;
                    committed = c.split(' ').next().unwrap().parse().unwrap();
                }
                if (commits == Some(seen) && line.contains("committed"))
                    || (complete && line.contains("complete"))
                {
                    break;
                }
            }
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let check = run(&["index", "check", "--index", s(&index)]);
        ok(&check, &format!("index check after kill at point {n}"));
        let stats: serde_json::Value = serde_json::from_str(&ok(
            &run(&["index", "stats", "--index", s(&index)]),
            "stats",
        ))
        .unwrap();
        let docs = stats["documents"].as_u64().unwrap() as usize;
        let (n_first, n_second) = (count_lines(&first), count_lines(&second));
        assert!(
            docs >= n_first + committed && docs <= n_first + n_second,
            "point {n}: {committed} documents of the batch were committed before the kill: {stats}"
        );
        if complete {
            assert_eq!(
                stats["interrupted_batches"], 0,
                "point {n}: the last commit marks the batch complete"
            );
        }
        let again = add(&index, &second, &opts, &commit);
        assert_eq!(
            again, expected_touched,
            "point {n}: re-added batch answers differently"
        );
        assert_eq!(export(&index), expected_export, "point {n}");
        ok(
            &run(&["index", "check", "--index", s(&index)]),
            "check after re-add",
        );
    }
}

#[test]
fn check_reports_damaged_files_and_broken_invariants() {
    let dir = tempfile::tempdir().unwrap();
    let docs = write_lines(&dir.path().join("d.jsonl"), &generated_corpus(21, 400));
    let index = dir.path().join("ix");
    add(&index, &docs, &[], &[]);
    let out = run(&["index", "check", "--index", s(&index)]);
    assert!(ok(&out, "check").contains("ok ("));

    // A broken invariant: a document dropped from one of its buckets.
    let broken = dir.path().join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::copy(index.join("index.redb"), broken.join("index.redb")).unwrap();
    {
        let db = redb::Database::open(broken.join("index.redb")).unwrap();
        let txn = db.begin_write().unwrap();
        {
            let mut postings = txn
                .open_multimap_table(thresher::index::store::POSTINGS)
                .unwrap();
            let docs = txn.open_table(thresher::index::store::DOCS).unwrap();
            let blob = redb::ReadableTable::get(&docs, 7).unwrap().unwrap();
            let (doc, _) = thresher::index::store::unseal(blob.value()).unwrap();
            assert!(postings.remove(doc.band_keys[0], 7).unwrap());
        }
        txn.commit().unwrap();
    }
    let out = run(&["index", "check", "--index", s(&broken)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("DAMAGED") && err.contains("missing from a bucket"),
        "{err}"
    );

    // A damaged file: bytes overwritten in the middle.
    let garbled = dir.path().join("garbled");
    std::fs::create_dir_all(&garbled).unwrap();
    let mut bytes = std::fs::read(index.join("index.redb")).unwrap();
    let len = bytes.len();
    for at in (len / 4..3 * len / 4).step_by(512) {
        bytes[at] ^= 0x5a;
    }
    std::fs::write(garbled.join("index.redb"), bytes).unwrap();
    let out = run(&["index", "check", "--index", s(&garbled)]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("DAMAGED"));
    // Other commands name the damage instead of crashing.
    let out = run(&["index", "export", "--index", s(&garbled)]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("index check"));
}

#[test]
fn query_remove_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let lines = generated_corpus(31, 200);
    let docs = write_lines(&dir.path().join("d.jsonl"), &lines);
    let index = dir.path().join("ix");
    add(&index, &docs, &["--threshold", "0.8"], &[]);
    // A query record: a stored document with one word changed.
    let rec: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    let stored_id = rec["id"].as_str().unwrap().to_string();
    let text = rec["text"].as_str().unwrap().replacen("w", "zzz", 1);
    let q = write_lines(
        &dir.path().join("q.jsonl"),
        &[
            serde_json::json!({"id": "q1", "text": text}).to_string(),
            serde_json::json!({"id": "q2", "text": "nothing like any stored text at all here"})
                .to_string(),
        ],
    );
    let answers = ok(
        &run(&["index", "query", "--index", s(&index), s(&q)]),
        "query",
    );
    let answers: Vec<serde_json::Value> = answers
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2);
    let near = answers[0]["near"].as_array().unwrap();
    assert!(
        near.iter()
            .any(|n| n["id"] == stored_id.as_str() && n["similarity"].as_f64().unwrap() >= 0.8),
        "{near:?}"
    );
    assert!(answers[1]["near"].as_array().unwrap().is_empty());

    let out = run(&[
        "index",
        "remove",
        "--index",
        s(&index),
        &stored_id,
        "no-such-key",
    ]);
    assert_eq!(out.status.code(), Some(1), "one key is unknown");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not in the index: no-such-key"));
    let answers = ok(
        &run(&["index", "query", "--index", s(&index), s(&q)]),
        "query",
    );
    assert!(!answers.contains(&format!("\"{stored_id}\"")), "{answers}");
    let stats: serde_json::Value = serde_json::from_str(&ok(
        &run(&["index", "stats", "--index", s(&index)]),
        "stats",
    ))
    .unwrap();
    assert_eq!(
        stats["documents"].as_u64().unwrap() as usize,
        lines.len() - 1
    );
    // After the removal the index answers as dedup does without that document.
    let rest: Vec<String> = lines
        .iter()
        .filter(|l| !l.contains(&format!("\"{stored_id}\"")))
        .cloned()
        .collect();
    let rest = write_lines(&dir.path().join("rest.jsonl"), &rest);
    assert_eq!(export(&index), one_shot(&[&rest], &["--threshold", "0.8"]));
    ok(&run(&["index", "check", "--index", s(&index)]), "check");
}

/// An index of the previous layout (format 1: no dates, no canonical URLs) is refused
/// with a message saying what to do, not read as if its documents had no dates.
#[test]
fn an_index_of_the_old_format_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let batch = write_lines(&dir.path().join("b.jsonl"), &generated_corpus(5, 20));
    let index = dir.path().join("idx");
    add(&index, &batch, &[], &[]);
    {
        let db = redb::Database::open(index.join("index.redb")).unwrap();
        let txn = db.begin_write().unwrap();
        {
            let settings: redb::TableDefinition<&str, &str> =
                redb::TableDefinition::new("settings");
            let mut t = txn.open_table(settings).unwrap();
            t.insert("format", "1").unwrap();
        }
        txn.commit().unwrap();
    }
    for args in [
        vec!["index", "export", "--index", s(&index)],
        vec!["index", "add", "--index", s(&index), s(&batch)],
    ] {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} accepted a format-1 index");
        assert!(
            stderr.contains("index format 1")
                && stderr.contains("format 2")
                && stderr.contains("build a new index"),
            "{args:?}: {stderr}"
        );
    }
}
