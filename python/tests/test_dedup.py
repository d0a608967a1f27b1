"""thresher.dedup, sign_arrow and Index give what `thresher dedup`, `thresher sign` and
`thresher index` write for the same records (a slice of dedup-dev)."""

import gzip
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import thresher
from conftest import read_jsonl

N_DOCS = 3000


@pytest.fixture(scope="module")
def docs(eval_dir, tmp_path_factory):
    """The first N_DOCS records of dedup-dev, as dicts and as a JSONL file."""
    records = []
    with gzip.open(eval_dir / "dedup-dev/docs.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            records.append(json.loads(line))
            if len(records) == N_DOCS:
                break
    path = tmp_path_factory.mktemp("docs") / "docs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return records, path


def test_dedup_equals_cli(cli, docs, tmp_path):
    records, path = docs
    for options, flags in [
        ({}, []),
        ({"mode": "components", "threshold": 0.7}, ["--mode", "components", "--threshold", "0.7"]),
    ]:
        out = tmp_path / "clusters.jsonl"
        cli("dedup", path, *flags, "-o", out)
        want = read_jsonl(out)
        assert len(want) > 10
        assert thresher.dedup(records, **options) == want
    # An Arrow table of the same records.
    table = pa.Table.from_pylist([{"id": str(r["id"]), "text": r["text"]} for r in records])
    str_path = tmp_path / "str.jsonl"
    str_path.write_text("".join(json.dumps({"id": str(r["id"]), "text": r["text"]}) + "\n" for r in records))
    out = tmp_path / "str_clusters.jsonl"
    cli("dedup", str_path, "-o", out)
    assert thresher.dedup(table) == read_jsonl(out)


def test_dedup_of_extracted_records(eval_dir):
    """Records of extract_arrow go straight into dedup (error records skipped)."""
    page = "<html><body><article><p>" + "Same article text with enough words to sign. " * 30 + "</p></article></body></html>"
    table = pa.table(
        {
            "url": ["http://a.example/1", "http://b.example/1", "http://c.example/1"],
            "html": [page, page, ""],
        }
    )
    clusters = thresher.dedup(thresher.extract_arrow(table, cross_page="none"))
    assert len(clusters) == 1 and sorted(clusters[0]["members"]) == ["http://a.example/1", "http://b.example/1"]


def test_sign_arrow_equals_cli(cli, docs, tmp_path):
    records, path = docs
    out = tmp_path / "sigs.parquet"
    cli("sign", path, "-o", out)
    want = pq.read_table(out)
    got = thresher.sign_arrow(records)
    assert got.schema.equals(want.schema, check_metadata=False)
    # The signer's configuration travels with the table as the file carries it.
    key = b"thresher.dedup_config"
    assert got.schema.metadata[key] == pq.ParquetFile(out).metadata.metadata[key]
    assert got.to_pylist() == want.to_pylist()


def test_index_equals_cli(cli, docs, tmp_path):
    records, path = docs
    first, second = records[: N_DOCS // 2], records[N_DOCS // 2 :]
    p1, p2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    p1.write_text("".join(json.dumps(r) + "\n" for r in first))
    p2.write_text("".join(json.dumps(r) + "\n" for r in second))
    cli_dir, py_dir = tmp_path / "cli-index", tmp_path / "py-index"
    for p, name in [(p1, "add1"), (p2, "add2")]:
        cli("index", "add", "--index", cli_dir, p, "-o", tmp_path / f"{name}.jsonl")
    index = thresher.Index(py_dir, create=True)
    r1 = index.add(first)
    r2 = index.add(second)
    assert r1["added"] == len(first) - r1["without_words"]
    assert r1["clusters"] == read_jsonl(tmp_path / "add1.jsonl")
    assert r2["clusters"] == read_jsonl(tmp_path / "add2.jsonl")
    cli("index", "export", "--index", cli_dir, "-o", tmp_path / "export.jsonl")
    exported = index.export()
    assert exported == read_jsonl(tmp_path / "export.jsonl") and len(exported) > 10
    cli("index", "query", "--index", cli_dir, p1, "-o", tmp_path / "query.jsonl")
    assert index.query(first) == read_jsonl(tmp_path / "query.jsonl")
    stats = index.stats()
    cli_stats = json.loads(cli("index", "stats", "--index", cli_dir).stdout)
    # Apart from where the index and the batch's (temporary) file are.
    for s in (stats, cli_stats):
        s.pop("index")
        s["last_batch"].pop("files")
    assert stats == cli_stats
    member = exported[0]["members"][-1]
    removed = index.remove([member, "no-such-key"])
    assert removed["removed"] == 1 and removed["missing"] == ["no-such-key"]
    cli("index", "remove", "--index", cli_dir, member, "-o", tmp_path / "removed.jsonl")
    assert removed["clusters"] == read_jsonl(tmp_path / "removed.jsonl")
    # Other options than the index's own are refused, naming them.
    with pytest.raises(thresher.IndexStoreError, match="threshold"):
        thresher.Index(py_dir, threshold=0.5)
    with pytest.raises(thresher.IndexStoreError):
        thresher.Index(tmp_path / "missing-index")


def test_index_check_repair_and_readers(docs, tmp_path):
    records, _ = docs
    ix = tmp_path / "ix"
    index = thresher.Index(ix, create=True)
    index.add(records[:500])
    report = index.check()
    assert report["ok"] and report["documents"] > 400 and report["damaged"] == []
    repaired = index.repair()
    assert repaired["lost"] == [] and repaired["kept"] == report["documents"]
    # Readers open the store read-only: they work on a read-only file (for a user
    # other than root, which ignores the mode) and never write to it.
    store = ix / "index.redb"
    before = store.read_bytes()
    store.chmod(0o444)
    reader = thresher.Index(ix)
    assert reader.stats()["documents"] == report["documents"]
    assert len(reader.query(records[:5], wait=0.5)) == 5
    assert reader.export() and reader.check()["ok"]
    assert store.read_bytes() == before
    with pytest.raises(thresher.ConfigError, match="wait"):
        reader.query(records[:1], wait=-1)
    store.chmod(0o644)
    # A store whose pages are overwritten is damage: check says so, never "ok".
    damaged = bytearray(before)
    damaged[len(damaged) // 4 :] = bytes(len(damaged) - len(damaged) // 4)
    store.write_bytes(bytes(damaged))
    try:
        report = thresher.Index(ix).check()
    except thresher.IndexStoreError:
        report = None  # cannot be opened at all: refused with an error, as the CLI does
    assert report is None or not report["ok"]


@pytest.mark.parametrize(
    "options, key",
    [
        ({"threshold": 1.5}, "threshold"),
        ({"num_perm": 0}, "num_perm"),
        ({"num_perm": 100000}, "limit of 4096"),
        ({"supershingles": [1000, 1000]}, "limit of 4096"),
        ({"shingle": {"length": 0}}, "shingle length"),
    ],
)
def test_dedup_options_out_of_range_are_refused(docs, options, key):
    records, _ = docs
    with pytest.raises(thresher.ConfigError, match=key):
        thresher.dedup(records[:10], **options)
