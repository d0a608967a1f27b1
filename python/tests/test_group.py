"""GroupExtractor gives the records of `thresher extract --manifest` for a site group of
sites-dev (the cross-page methods learn from the group), and group_key is the CLI's."""

import json

import pyarrow as pa

import thresher
from conftest import read_jsonl, read_page

SITES = ("site01.example", "site02.example")


def _sites_manifest(eval_dir, tmp_path):
    base = eval_dir / "sites-dev"
    entries = []
    with open(base / "manifest.jsonl", encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            if thresher.group_key(e["url"], 0).rstrip("/") in SITES:
                e["path"] = str(base / e["path"])
                entries.append(e)
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return manifest, entries


def test_group_extractor_equals_cli_manifest_run(cli, eval_dir, tmp_path):
    manifest, entries = _sites_manifest(eval_dir, tmp_path)
    assert len(entries) == 50
    out = tmp_path / "cli.jsonl"
    cli("extract", "--manifest", manifest, "-o", out)
    want = {r["path"]: r for r in read_jsonl(out)}
    # Some page was cleaned by the cross-page method: the test is about learning.
    assert any(r["method"] != "heuristic" for r in want.values())
    for site in SITES:
        group = thresher.GroupExtractor()
        pages = [e for e in entries if thresher.group_key(e["url"], 0) == site + "/"]
        for e in pages:
            group.add(
                read_page(e["path"]),
                e["url"],
                path=e["path"],
                fetched_at=e.get("fetched_at"),
                popularity=e.get("popularity"),
                content_type=e.get("content_type"),
            )
        assert len(group) == len(pages)
        got = group.extract()
        for e, rec in zip(pages, got):
            assert rec == want[e["path"]], e["path"]
        # The same group from Arrow.
        arrow_group = thresher.GroupExtractor()
        arrow_group.add_arrow(
            pa.table(
                {
                    "url": [e["url"] for e in pages],
                    "html": [read_page(e["path"]) for e in pages],
                    "path": [e["path"] for e in pages],
                    "fetched_at": [e["fetched_at"] for e in pages],
                    "popularity": [float(e["popularity"]) for e in pages],
                    "content_type": [e.get("content_type") for e in pages],
                }
            )
        )
        table = arrow_group.extract_arrow(threads=2)
        assert table.num_rows == len(pages)
        assert table.column("text").to_pylist() == [r["text"] for r in got]


def test_pages_alone_differ_from_the_group(eval_dir, tmp_path):
    """Without the group, extract() does not learn: the cross-page method never answers."""
    _, entries = _sites_manifest(eval_dir, tmp_path)
    methods = {thresher.extract(read_page(e["path"]), e["url"])["method"] for e in entries[:10]}
    assert methods <= {"heuristic"} | {m for m in methods if m.startswith("rules")}


def test_site_learner_and_site_model_equal_group_extractor(eval_dir, tmp_path):
    """A site learned in steps (sample from URLs, contributions, counted URLs) and
    extracted in chunks of 7 pages gives GroupExtractor's records over the whole site."""
    _, entries = _sites_manifest(eval_dir, tmp_path)
    pages = [e for e in entries if thresher.group_key(e["url"], 0) == SITES[0] + "/"]
    table = pa.table({
        "url": [e["url"] for e in pages],
        "html": [read_page(e["path"]) for e in pages],
        "path": [e["path"] for e in pages],
        "fetched_at": [e["fetched_at"] for e in pages],
    })
    whole = thresher.GroupExtractor()
    whole.add_arrow(table)
    want = whole.extract_arrow(threads=1).to_pylist()

    options = {"inbreeding": {"sample_pages": 5}}
    whole = thresher.GroupExtractor(**options)
    whole.add_arrow(table)
    want_small_sample = whole.extract_arrow(threads=1).to_pylist()

    for opts, expected in (({}, want), (options, want_small_sample)):
        assert all(thresher.loadable(table, **opts))
        urls = table.column("url").to_pylist()
        sampled = thresher.learning_sample(urls, **opts)
        assert any(sampled)
        learner = thresher.SiteLearner(**opts)
        learner.count([u for u, s in zip(urls, sampled) if not s])
        picked = table.filter(pa.array(sampled))
        # Contributions from two tasks, added in reverse order.
        mid = picked.num_rows // 2
        for lo, hi in ((mid, picked.num_rows), (0, mid)):
            part = picked.slice(lo, hi - lo)
            learner.add(part.column("url").to_pylist(),
                        thresher.learning_contributions(part, threads=1, **opts))
        state = learner.state()
        model = thresher.SiteModel(state, **opts)
        got = []
        for lo in range(0, table.num_rows, 7):
            got += model.extract_arrow(table.slice(lo, 7), threads=1).to_pylist()
        assert got == expected
    assert not all(thresher.learning_sample(urls, **options))
    assert any(r["method"] != "heuristic" for r in want)
