"""output_format="markdown"/"html" (with output_links, output_images): the record carries
`markdown` or `html` beside `text`, as `thresher extract --output-format` writes it; `text`
is the same as without the option; Arrow tables get the column after `text`."""

import pathlib

import pyarrow as pa
import pytest

import thresher
from conftest import read_jsonl, read_page

GUIDE = pathlib.Path(__file__).resolve().parents[2] / "fixtures/markdown/guide.html"


def test_records_equal_cli_in_every_format(cli, eval_dir, tmp_path):
    files = sorted((eval_dir / "wcxb-dev/html").iterdir())[:6] + [GUIDE]
    for f in files:
        for fmt, flags in [("markdown", ["--links", "--images"]), ("html", ["--links"])]:
            out = tmp_path / (f.name + fmt + ".jsonl")
            cli("extract", f, "--output-format", fmt, *flags, "-o", out)
            (rec,) = read_jsonl(out)
            got = thresher.extract(
                read_page(f),
                rec["url"],
                path=rec["path"],
                fetched_at=rec.get("fetched_at"),
                output_format=fmt,
                output_links=True,
                output_images="--images" in flags,
            )
            assert got == rec, f
            plain = thresher.extract(
                read_page(f), rec["url"], path=rec["path"], fetched_at=rec.get("fetched_at")
            )
            assert plain["text"] == rec["text"]
            assert "markdown" not in plain and "html" not in plain


def test_markdown_of_the_guide_has_its_structure():
    rec = thresher.extract(GUIDE.read_bytes(), "https://docs.example/install.html",
                           output_format="markdown", output_links=True, cross_page="none")
    md = rec["markdown"]
    assert "## Requirements" in md and "### Supported platforms" in md
    assert "| Platform | Architecture | Status |" in md
    assert "```bash\n" in md
    assert "  - GCC version twelve" in md
    assert "[the version table](https://docs.example/docs/versions.html)" in md


def test_arrow_tables_carry_the_column(tmp_path):
    html = GUIDE.read_bytes()
    batch = pa.table({"url": ["https://docs.example/a", "https://docs.example/b"],
                      "html": [html, b""]})
    table = thresher.extract_arrow(batch, output_format="html", cross_page="none")
    assert table.schema == thresher.record_schema("html")
    names = table.schema.names
    assert names[names.index("text") + 1] == "html"
    assert "<h2>Requirements</h2>" in table.column("html")[0].as_py()
    assert table.column("html")[1].as_py() is None  # the empty page's error record
    assert thresher.record_schema() == thresher.record_schema("text")
    assert "markdown" not in thresher.record_schema().names

    group = thresher.GroupExtractor(output_format="markdown")
    group.add_arrow(batch)
    records = group.extract()
    assert "## Requirements" in records[0]["markdown"]
    assert group.extract_arrow().schema == thresher.record_schema("markdown")


def test_a_bad_output_format_is_a_config_error():
    with pytest.raises(thresher.ConfigError):
        thresher.extract(b"<p>x</p>", "https://a.example/", output_format="pdf")
    with pytest.raises(thresher.ConfigError):
        thresher.record_schema("pdf")
