"""The Spark job `spark/thresher_run.py` on local Spark with two executor threads
(`local[2]`) gives `thresher run`'s answer on sites-dev with its manifest: every page's
text and cluster fields (`cluster`, `is_main`, `main`), and every cluster (id, main,
members, similarities, shared members, the main's reason).

The job reads the pages from Parquet (`path` as the manifest names the page, `url`,
`html` gunzipped, `fetched_at`, `popularity`), extracts them on the executors a site per
group (the cross-page methods on), signs, clusters and chooses mains there. Needs Java
and pyspark (`.ci/install`)."""

import json
import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import ROOT, read_jsonl, read_page


@pytest.fixture(scope="module")
def sites(eval_dir, cli, tmp_path_factory):
    """(pages.parquet of sites-dev, the directory of `thresher run --manifest`)."""
    base = eval_dir / "sites-dev"
    tmp = tmp_path_factory.mktemp("spark-sites")
    rows = {k: [] for k in ("path", "url", "html", "fetched_at", "popularity")}
    for entry in read_jsonl(base / "manifest.jsonl"):
        rows["path"].append(entry["path"])
        rows["url"].append(entry["url"])
        rows["html"].append(read_page(base / entry["path"]))
        rows["fetched_at"].append(entry.get("fetched_at"))
        rows["popularity"].append(float(entry.get("popularity", 0)))
    pages = tmp / "pages.parquet"
    pq.write_table(pa.table(rows), pages)
    out = tmp / "cli"
    cli("run", "--manifest", base / "manifest.jsonl", "--out", out, base)
    return pages, out


def run_job(*args):
    java = subprocess.run(["java", "-version"], capture_output=True)
    assert java.returncode == 0, "java not found: run .ci/install"
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "spark/thresher_run.py"), "--master", "local[2]",
         "--shuffle-partitions", "4", "--partitions", "4", *map(str, args)],
        capture_output=True, text=True, env=env)
    assert proc.returncode == 0, f"spark job failed:\n{proc.stderr[-5000:]}"
    return proc


@pytest.mark.parametrize("site_chunk", [None, 3], ids=["site-per-task", "sites-split"])
def test_spark_run_equals_thresher_run_on_sites_dev(sites, tmp_path, site_chunk):
    """With the default chunk each site of sites-dev is one extraction task; with 3 pages
    per chunk its 25-page sites are split over several tasks, and the answer is the same."""
    pages, cli_out = sites
    chunk = ["--site-chunk", site_chunk] if site_chunk else []
    proc = run_job(pages, "--out", tmp_path, *chunk)
    if site_chunk:
        assert "sites over 3 pages split into" in proc.stderr, proc.stderr[-3000:]
    want_pages = {p["path"]: p for p in read_jsonl(cli_out / "pages.jsonl")}
    got_pages = {p["path"]: p for p in pq.read_table(tmp_path / "pages").to_pylist()}
    assert set(got_pages) == set(want_pages)
    for path, want in want_pages.items():
        got = got_pages[path]
        for field in ("text", "title", "group", "cluster", "is_main", "main"):
            assert got.get(field) == want.get(field), f"{path}: {field} differs"

    want = {c["cluster"]: c for c in read_jsonl(cli_out / "clusters.jsonl")}
    got = {c["cluster"]: c for c in pq.read_table(tmp_path / "clusters").to_pylist()}
    assert len(want) >= 100, f"only {len(want)} clusters from thresher run"
    assert set(got) == set(want), (
        f"{len(set(got) - set(want))} clusters only from Spark, "
        f"{len(set(want) - set(got))} only from thresher run")
    for cid, w in want.items():
        g = got[cid]
        assert g["main"] == w["main"], cid
        assert g["members"] == w["members"], cid
        assert g["similarity"] == [w["similarity"][m] for m in w["members"]], cid
        assert (g["shared"] or []) == w.get("shared", []), cid
        assert g["reason"] == w["reason"], cid
    # The equality covers cross-page extraction and main choice only if they decided.
    methods = {p["method"] for p in want_pages.values()}
    assert any("inbreeding" in m for m in methods if m), methods
    assert sum(not p["is_main"] for p in want_pages.values()) >= 300
