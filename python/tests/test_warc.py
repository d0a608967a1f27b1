"""`thresher.WarcReader` reads a WARC file as `thresher extract` does: the same pages,
names and URLs, and a damaged record costs one error row, not the rest of the file."""

import gzip
import shutil

import thresher

from conftest import ROOT, read_jsonl

SAMPLE = ROOT / "fixtures/warc/sample.warc.gz"


def test_pages_are_the_clis(cli, tmp_path):
    out = tmp_path / "pages.jsonl"
    cli("extract", SAMPLE, "-o", out)
    records = read_jsonl(out)
    rows = list(thresher.WarcReader(str(SAMPLE)))
    assert rows, "no pages read"
    assert [(r[0], r[1]) for r in rows if r[5] is None] == [
        (rec["path"], rec["url"]) for rec in records if "error" not in rec
    ]
    for path, url, html, fetched_at, _ctype, error in rows:
        assert error is None and isinstance(html, bytes) and html
        assert fetched_at and fetched_at.endswith("Z")


def test_a_damaged_record_costs_one_error_row(tmp_path):
    whole = list(thresher.WarcReader(str(SAMPLE)))
    plain = gzip.decompress(SAMPLE.read_bytes())
    # Garbage between the first record and the rest: the reader skips it and goes on.
    cut = plain.index(b"WARC/1.", 10)
    damaged = tmp_path / "damaged.warc"
    damaged.write_bytes(plain[:cut] + b"\x00garbage that is no record\r\n\r\n" + plain[cut:])
    rows = list(thresher.WarcReader(str(damaged)))
    errors = [r for r in rows if r[5] is not None]
    assert len(errors) == 1, errors
    assert len(rows) - 1 == len(whole)


def test_a_missing_file_is_one_error_row(tmp_path):
    rows = list(thresher.WarcReader(str(tmp_path / "none.warc.gz")))
    assert len(rows) == 1 and rows[0][5]
