//! The index never answers wrong and can be read beside a writer (issue 35, items 3 and
//! 4): a changed bit in a stored document is an error naming it in every command that
//! reads it, `index check` lists every damaged document, `index repair` keeps the rest
//! and says what was lost; `query`, `stats`, `export` and `check` write nothing, read
//! while an add runs, and report a held index as busy (or wait for it), not damaged.

mod common;
use common::*;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use thresher::index::store;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `families` texts of 80 words, each with two near copies.
fn corpus(path: &Path, families: usize) -> PathBuf {
    let mut text = String::new();
    for f in 0..families {
        let words: Vec<String> = (0..80)
            .map(|i| format!("w{}", (f * 7919 + i * 104_729) % 60_000))
            .collect();
        for copy in 0..3 {
            let mut w = words.clone();
            if copy > 0 {
                w[10 * copy] = format!("c{f}x{copy}");
            }
            text.push_str(
                &serde_json::json!({"id": format!("f{f}-{copy}"), "text": w.join(" ")}).to_string(),
            );
            text.push('\n');
        }
    }
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

/// Flip one bit of document `id`'s stored value in `table` (its record or its shingle
/// set), as a bad sector or a stray write would, through redb so that only our own
/// checksum can tell.
fn flip_bit(index: &Path, table: redb::TableDefinition<u64, &[u8]>, id: u64, byte: usize) {
    let db = redb::Database::open(index.join("index.redb")).unwrap();
    let txn = db.begin_write().unwrap();
    {
        let mut t = txn.open_table(table).unwrap();
        let mut v = redb::ReadableTable::get(&t, id)
            .unwrap()
            .unwrap()
            .value()
            .to_vec();
        let at = byte.min(v.len() - 1);
        v[at] ^= 0x10;
        t.insert(id, &v[..]).unwrap();
    }
    txn.commit().unwrap();
}

#[test]
fn a_changed_bit_in_a_stored_document_is_never_answered() {
    let dir = tempfile::tempdir().unwrap();
    let batch = corpus(&dir.path().join("b.jsonl"), 40);
    let ix = dir.path().join("ix");
    run_ok(&["index", "add", "--index", s(&ix), s(&batch)]);
    let want = run_ok(&["dedup", s(&batch)]).stdout;
    assert_eq!(run_ok(&["index", "export", "--index", s(&ix)]).stdout, want);

    // A bit inside document 4's shingle set, and one inside document 9's record.
    flip_bit(&ix, store::SHINGLES, 4, 100);
    flip_bit(&ix, store::DOCS, 9, 3);
    for args in [
        vec!["index", "export", "--index", s(&ix)],
        vec!["index", "query", "--index", s(&ix), s(&batch)],
        vec!["index", "add", "--index", s(&ix), s(&batch)],
    ] {
        let out = run(&args);
        let err = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?} answered from a damaged index: {err}"
        );
        assert!(err.contains("damaged: document"), "{args:?}: {err}");
    }
    // The add refused before writing: the file is as the damage left it.
    let out = run(&["index", "check", "--index", s(&ix)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("damaged document 4") && err.contains("damaged document 9"),
        "{err}"
    );
    assert!(err.contains("checksum mismatch"), "{err}");

    // Repair keeps the 118 others and names the two lost.
    let out = run(&["index", "repair", "--index", s(&ix)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("118 documents intact, 2 lost"), "{err}");
    assert!(
        err.contains("lost document 4") && err.contains("lost document 9"),
        "{err}"
    );
    run_ok(&["index", "check", "--index", s(&ix)]);
    // Adding the batch again restores them: the answer is one dedup run's again.
    run_ok(&["index", "add", "--index", s(&ix), s(&batch)]);
    assert_eq!(run_ok(&["index", "export", "--index", s(&ix)]).stdout, want);
    run_ok(&["index", "check", "--index", s(&ix)]);
}

#[test]
fn readers_write_nothing_to_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let batch = corpus(&dir.path().join("b.jsonl"), 30);
    let ix = dir.path().join("ix");
    run_ok(&["index", "add", "--index", s(&ix), s(&batch)]);
    let file = ix.join("index.redb");
    let before = std::fs::read(&file).unwrap();
    // A read-only file (root may still write it; the bytes tell).
    let mut perm = std::fs::metadata(&file).unwrap().permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(&file, perm).unwrap();
    run_ok(&["index", "query", "--index", s(&ix), s(&batch)]);
    run_ok(&["index", "stats", "--index", s(&ix)]);
    run_ok(&["index", "export", "--index", s(&ix)]);
    run_ok(&["index", "check", "--index", s(&ix)]);
    let after = std::fs::read(&file).unwrap();
    let changed = before.iter().zip(&after).filter(|(a, b)| a != b).count();
    assert_eq!(
        (changed, before.len()),
        (0, after.len()),
        "bytes written by readers"
    );
}

#[test]
fn readers_read_the_last_commit_while_an_add_runs() {
    let dir = tempfile::tempdir().unwrap();
    let first = corpus(&dir.path().join("a.jsonl"), 30);
    let big = corpus(&dir.path().join("big.jsonl"), 8000);
    let ix = dir.path().join("ix");
    run_ok(&["index", "add", "--index", s(&ix), s(&first)]);
    let mut child = bin()
        .args([
            "-v",
            "index",
            "add",
            "--index",
            s(&ix),
            "--commit-every",
            "500",
        ])
        .arg(&big)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    // Wait for the writer's first commit: it now holds the file.
    for line in lines.by_ref() {
        if line.unwrap().contains("committed") {
            break;
        }
    }
    let stats = run(&["index", "stats", "--index", s(&ix)]);
    let check = run(&["index", "check", "--index", s(&ix)]);
    let export = run(&["index", "export", "--index", s(&ix)]);
    let query = run(&["index", "query", "--index", s(&ix), s(&first)]);
    let done = child.wait().unwrap();
    for l in lines {
        let _ = l;
    }
    assert!(done.success());
    for (what, out) in [
        ("stats", &stats),
        ("check", &check),
        ("export", &export),
        ("query", &query),
    ] {
        assert!(
            out.status.success(),
            "{what} while an add ran: {}",
            stderr(out)
        );
    }
    let st: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert!(st["documents"].as_u64().unwrap() >= 90 + 500, "{st}");
}

#[test]
fn a_held_index_is_busy_not_damaged_and_readers_can_wait() {
    let dir = tempfile::tempdir().unwrap();
    let batch = corpus(&dir.path().join("b.jsonl"), 10);
    let ix = dir.path().join("ix");
    run_ok(&["index", "add", "--index", s(&ix), s(&batch)]);
    // A process holding the whole file (redb's default, exclusive mode).
    let db = redb::Database::open(ix.join("index.redb")).unwrap();
    let check = run(&["index", "check", "--index", s(&ix)]);
    let err = stderr(&check);
    assert!(!err.contains("DAMAGED") && err.contains("busy"), "{err}");
    assert_eq!(check.status.code(), Some(2), "{err}");
    let stats = run(&["index", "stats", "--index", s(&ix)]);
    assert!(stderr(&stats).contains("busy"), "{}", stderr(&stats));
    // With --wait, a reader waits for the holder to let go.
    let waiting = bin()
        .args(["index", "stats", "--wait", "20", "--index", s(&ix)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    drop(db);
    let out = waiting.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}
