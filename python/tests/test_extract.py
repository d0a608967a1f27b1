"""thresher.extract and extract_arrow give the records `thresher extract` writes, field for
field, on ScrapingHub and daniel-dev pages; bad rows become error records in place."""

import json

import pyarrow as pa
import pytest

import thresher
from conftest import read_jsonl, read_page


def test_scrapinghub_records_equal_cli(cli, eval_dir, tmp_path):
    html_dir = eval_dir / "scrapinghub/html"
    out = tmp_path / "sh.jsonl"
    cli("extract", "--cross-page", "none", html_dir, "-o", out)
    records = read_jsonl(out)
    assert len(records) >= 150
    for rec in records:
        got = thresher.extract(
            read_page(rec["path"]), rec["url"], path=rec["path"], cross_page="none"
        )
        assert got == rec, rec["path"]


def test_single_pages_with_default_options_equal_cli(cli, eval_dir, tmp_path):
    """With the defaults (a cross-page method on), a page alone is what the CLI writes for
    that one file."""
    files = sorted((eval_dir / "scrapinghub/html").iterdir())[:4]
    for f in files:
        out = tmp_path / (f.name + ".jsonl")
        cli("extract", f, "-o", out)
        (rec,) = read_jsonl(out)
        got = thresher.extract(read_page(f), rec["url"], path=rec["path"])
        assert got == rec


def _daniel_subset(eval_dir, tmp_path, n=60):
    """The first n entries of daniel-dev's manifest, as a manifest of absolute paths."""
    base = eval_dir / "daniel-dev"
    lines = []
    with open(base / "manifest.jsonl", encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            entry["path"] = str(base / entry["path"])
            lines.append(entry)
            if len(lines) == n:
                break
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(e) + "\n" for e in lines))
    return manifest, lines


def test_daniel_dev_records_equal_cli(cli, eval_dir, tmp_path):
    manifest, entries = _daniel_subset(eval_dir, tmp_path)
    out = tmp_path / "dd.jsonl"
    cli("extract", "--cross-page", "none", "--manifest", manifest, "-o", out)
    by_path = {r["path"]: r for r in read_jsonl(out)}
    assert len(by_path) == len(entries)
    for e in entries:
        got = thresher.extract(
            read_page(e["path"]),
            e["url"],
            path=e["path"],
            fetched_at=e.get("fetched_at"),
            popularity=e.get("popularity"),
            cross_page="none",
        )
        assert got == by_path[e["path"]], e["path"]


def test_extract_arrow_equals_extract_row_for_row(eval_dir, tmp_path):
    manifest, entries = _daniel_subset(eval_dir, tmp_path, n=40)
    table = pa.table(
        {
            "url": [e["url"] for e in entries],
            "html": [read_page(e["path"]) for e in entries],
            "path": [e["path"] for e in entries],
            "fetched_at": [e["fetched_at"] for e in entries],
            "popularity": [float(e["popularity"]) for e in entries],
        }
    )
    out = thresher.extract_arrow(table, threads=2)
    assert isinstance(out, pa.Table)
    assert out.schema == thresher.record_schema()
    rows = out.to_pylist()
    assert len(rows) == len(entries)
    for e, row in zip(entries, rows):
        want = thresher.extract(
            read_page(e["path"]),
            e["url"],
            path=e["path"],
            fetched_at=e["fetched_at"],
            popularity=e["popularity"],
        )
        assert {k: v for k, v in row.items() if v is not None} == {
            k: v for k, v in want.items() if v is not None
        }
    # A RecordBatch on one thread: the same records.
    again = thresher.extract_arrow(table.to_batches()[0], threads=1).to_pylist()
    assert again == rows[: len(again)]
    # html as strings (UTF-8 pages): the same records as bytes.
    utf8 = [i for i, r in enumerate(rows) if r["charset"].lower().startswith("utf-8")][:5]
    assert utf8
    as_text = pa.table(
        {
            "url": [entries[i]["url"] for i in utf8],
            "html": [read_page(entries[i]["path"]).decode("utf-8") for i in utf8],
            "path": [entries[i]["path"] for i in utf8],
            "fetched_at": [entries[i]["fetched_at"] for i in utf8],
            "popularity": [float(entries[i]["popularity"]) for i in utf8],
        }
    )
    got = thresher.extract_arrow(as_text).to_pylist()
    assert [r["text"] for r in got] == [rows[i]["text"] for i in utf8]


def test_extract_arrow_matches_cli_on_parquet_pages(cli, eval_dir, tmp_path):
    """The same rows as a Parquet file of pages read by `thresher extract`."""
    import pyarrow.parquet as pq

    files = sorted((eval_dir / "scrapinghub/html").iterdir())[:30]
    table = pa.table(
        {
            "url": [f"http://example.com/{i}/{f.name}" for i, f in enumerate(files)],
            "html": [read_page(f) for f in files],
            "path": [f.name for f in files],
        }
    )
    pq.write_table(table, tmp_path / "pages.parquet")
    out = tmp_path / "pq.jsonl"
    cli("extract", "--cross-page", "none", tmp_path / "pages.parquet", "-o", out)
    want = read_jsonl(out)
    got = thresher.extract_arrow(table, cross_page="none").to_pylist()
    assert len(got) == len(want) == len(files)
    for g, w in zip(got, want):
        assert {k: v for k, v in g.items() if v is not None} == {
            k: v for k, v in w.items() if v is not None
        }


def test_bad_rows_become_error_records_in_place():
    good = b"<html><body><article><p>" + b"A sentence of real text here. " * 20 + b"</p></article></body></html>"
    table = pa.table(
        {
            "url": ["http://a.example/1", None, "http://a.example/3", "http://a.example/4", "http://a.example/5"],
            "html": [good, good, b"", bytes(range(256)) * 40, good],
            "fetched_at": ["2024-01-01T00:00:00Z", None, None, None, "not a date"],
        }
    )
    rows = thresher.extract_arrow(table).to_pylist()
    assert len(rows) == 5
    assert rows[0]["error"] is None and "real text" in rows[0]["text"]
    assert rows[1]["error_kind"] == "parquet" and "row 1" in rows[1]["error"] and "no `url`" in rows[1]["error"]
    assert rows[2]["error_kind"] == "empty"
    assert rows[3]["error_kind"] == "binary"
    assert rows[4]["error_kind"] == "parquet" and "fetched_at" in rows[4]["error"]
    # A batch without the html column is an error for the batch.
    with pytest.raises(thresher.ConfigError, match="no `html` column"):
        thresher.extract_arrow(pa.table({"url": ["http://a.example/"]}))


def test_single_page_inputs():
    page = "<html><head><title>T</title></head><body><p>" + "Word " * 80 + "</p></body></html>"
    rec = thresher.extract(page, "http://www.a.example/d/p.html", fetched_at="2024-05-01T10:00:00+02:00", popularity=3)
    assert rec["group"] == "a.example/d/" == thresher.group_key("http://www.a.example/d/p.html")
    assert rec["fetched_at"] == "2024-05-01T08:00:00Z"
    assert rec["popularity"] == 3.0
    assert rec["path"] == "http://www.a.example/d/p.html"
    import datetime

    naive = thresher.extract(page, "http://a.example/", fetched_at=datetime.datetime(2024, 5, 1, 8))
    assert naive["fetched_at"] == "2024-05-01T08:00:00Z"
    titled = thresher.extract(page, "http://a.example/", with_title=True)
    assert titled["text"].startswith("T\n")
    empty = thresher.extract(b"   ", "http://a.example/")
    assert empty["error_kind"] == "empty" and set(empty) == {"path", "url", "error", "error_kind"}
    assert thresher.group_key("http://a.example/x/y/z.html", 1) == "a.example/x/"
    assert thresher.group_key("http://a.example/x/y/z.html", "0") == "a.example/"
