#!/usr/bin/env python3
"""Structure kept in Markdown, thresher against trafilatura, on WCXB dev's documentation
and product pages: how many of the page's own headings, list items, table cells and code
blocks that lie inside the gold text come out as that structure in each tool's Markdown.

The reference is the page's markup, not a Markdown rendering: an element counts when its
text is inside the gold main content (normalized words), lists and tables when at least
half of their items / cells are (so a menu whose one word recurs in the text is not one).
An element is kept when the Markdown has an element of the same kind with the same text
(its first eight words): a heading line, a list item, a cell of a pipe table, a fenced
code block holding the first line of the `<pre>`. Each Markdown element answers for one
page element at most.

    bench/markdown_structure.py THRESHER_JSONL [WCXB_DIR]

THRESHER_JSONL: `thresher extract --no-infholder --output-format markdown` over
WCXB_DIR/html (default ../shared/eval/wcxb-dev). trafilatura (output_format="markdown",
its defaults otherwise) runs here on the same pages: run with a Python that has it
(/work/venv-bench/bin/python). Prints per page type and in total, and per kind.
"""

import collections
import gzip
import json
import pathlib
import re
import sys

import lxml.html
import trafilatura

KINDS = ["headings", "list items", "table cells", "code blocks"]
KEY_WORDS = 8


def words(s):
    return re.findall(r"\w+", s.lower())


def key(s):
    return " ".join(words(s)[:KEY_WORDS])


def own_text(el):
    """An element's text without that of its nested lists."""
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str) and child.tag not in ("ul", "ol"):
            parts.append(child.text_content())
        parts.append(child.tail or "")
    return " ".join(parts)


def page_elements(html, gold):
    """The page's structure inside the gold text: (kind, key) pairs."""
    gold_text = " " + " ".join(words(gold)) + " "
    inside = lambda s: bool(words(s)) and (" " + " ".join(words(s)) + " ") in gold_text
    try:
        doc = lxml.html.fromstring(html)
    except Exception:
        return []
    for bad in doc.xpath("//script|//style|//noscript|//template|//comment()"):
        if bad.getparent() is not None:
            bad.drop_tree()
    out = []
    for h in doc.xpath("//h1|//h2|//h3|//h4|//h5|//h6"):
        t = h.text_content()
        if inside(t):
            out.append(("headings", key(t)))
    for lst in doc.xpath("//ul|//ol"):
        items = [own_text(li) for li in lst.xpath("./li")]
        items = [t for t in items if words(t)]
        kept = [t for t in items if inside(t)]
        if items and len(kept) * 2 >= len(items):
            out.extend(("list items", key(t)) for t in kept)
    for table in doc.xpath("//table"):
        cells = [c.text_content() for c in table.xpath(".//td|.//th") if not c.xpath(".//table")]
        cells = [t for t in cells if words(t)]
        kept = [t for t in cells if inside(t)]
        if cells and len(kept) * 2 >= len(cells):
            out.extend(("table cells", key(t)) for t in kept)
    for pre in doc.xpath("//pre"):
        lines = [l for l in pre.text_content().splitlines() if words(l)]
        if lines and inside(lines[0]):
            out.append(("code blocks", key(lines[0])))
    return out


DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(.*)$")
FENCE = re.compile(r"^\s*(```+|~~~+)")


def unmark(s):
    """Inline Markdown removed: links and images to their text, escapes, emphasis."""
    s = re.sub(r"!\[([^\]]*)\]\([^)]*\)", " ", s)
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)
    return s.replace("\\", "")


def cells(line):
    parts = re.split(r"(?<!\\)\|", line.strip())
    if parts and not parts[0].strip():
        parts = parts[1:]
    if parts and not parts[-1].strip():
        parts = parts[:-1]
    return parts


def markdown_elements(md):
    """The structure of a Markdown text: (kind, key) pairs, code blocks with their lines."""
    out = []
    lines = (md or "").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(fence.group(1)):
                j += 1
            out.append(("code blocks", [key(l) for l in lines[i + 1:j] if words(l)]))
            i = j + 1
            continue
        if i + 1 < len(lines) and "|" in line and DELIMITER.match(lines[i + 1]):
            rows = [line]
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(lines[j])
                j += 1
            for row in rows:
                out.extend(("table cells", key(unmark(c))) for c in cells(row) if words(c))
            i = j
            continue
        m = HEADING.match(line)
        if m:
            out.append(("headings", key(unmark(m.group(1)))))
        else:
            m = ITEM.match(line)
            if m:
                out.append(("list items", key(unmark(m.group(1)))))
        i += 1
    return out


def kept(page, md):
    """Per kind: page elements that the Markdown keeps as that structure."""
    have = collections.defaultdict(collections.Counter)
    code = []
    for kind, k in markdown_elements(md):
        if kind == "code blocks":
            code.append(set(k))
        else:
            have[kind][k] += 1
    out = collections.Counter()
    for kind, k in page:
        if kind == "code blocks":
            hit = next((c for c in code if k in c), None)
            if hit is not None:
                code.remove(hit)
                out[kind] += 1
        elif have[kind][k] > 0:
            have[kind][k] -= 1
            out[kind] += 1
    return out


def main():
    ours = sys.argv[1]
    base = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "../shared/eval/wcxb-dev")
    records = {}
    for line in open(ours, encoding="utf-8"):
        r = json.loads(line)
        records[pathlib.Path(r["path"]).name.split(".")[0]] = r
    totals = collections.defaultdict(lambda: {"page": collections.Counter(),
                                              "thresher": collections.Counter(),
                                              "trafilatura": collections.Counter()})
    pages = collections.Counter()
    for gt in sorted((base / "ground-truth").glob("*.json")):
        g = json.loads(gt.read_text(encoding="utf-8"))
        ptype = g["_internal"]["page_type"]["primary"]
        if ptype not in ("documentation", "product"):
            continue
        page_id = gt.stem
        html = gzip.decompress((base / "html" / f"{page_id}.html.gz").read_bytes())
        elements = page_elements(html, g["ground_truth"]["main_content"])
        rec = records.get(page_id, {})
        traf = trafilatura.extract(html, url=g.get("url"), output_format="markdown")
        pages[ptype] += 1
        for scope in (ptype, "all"):
            t = totals[scope]
            t["page"].update(k for k, _ in elements)
            t["thresher"].update(kept(elements, rec.get("markdown")))
            t["trafilatura"].update(kept(elements, traf))
    print(f"WCXB dev pages: {dict(pages)}")
    print(f"{'scope':<14} {'kind':<12} {'on page':>8} {'thresher':>9} {'trafilatura':>12}")
    for scope in ("documentation", "product", "all"):
        t = totals[scope]
        for kind in KINDS + ["all"]:
            get = (lambda c: sum(c.values())) if kind == "all" else (lambda c: c[kind])
            print(f"{scope:<14} {kind:<12} {get(t['page']):>8} {get(t['thresher']):>9} "
                  f"{get(t['trafilatura']):>12}")


if __name__ == "__main__":
    main()
