#!/usr/bin/env python3
"""A WARC of real pages with near-duplicate copies added, and the truth of which page
copies which, for the pipeline benchmark (bench/pipeline_bench.sh).

Originals: every page of the dev corpora in ../shared/eval (ScrapingHub, WCXB dev,
daniel-dev, trafilatura-dev, sites-dev; 4,048 pages) at their real URLs. Copies: a
`--copies` share of them (default 0.2), chosen with a fixed seed, each served again with
small edits in its text nodes (a few words dropped, repeated or swapped for another word
of the page: `--edit` of the words, default 3%), half on the same site under another path
(`/print/...`, `?ref=feed`), half on a mirror host (`mirrorN.example`). The bytes are
edited as Latin-1, whole words at ASCII whitespace, so every charset survives.

Truth (`--truth`, TSV `url_a<TAB>url_b<TAB>kind`): each copy with its original
(`copy`), the pairs of sites-dev's gold clusters (`sites-dev:<kind>`, its syndicated
articles and print/AMP variants), and each sites-dev page with the WCXB page whose body it
carries (`sites-dev:wcxb-body`), so that a merge of those counts as found, not as false.

    python3 bench/gen_dup_warc.py --out /tmp/dup.warc.gz --truth /tmp/dup-truth.tsv
"""

import argparse
import gzip
import io
import json
import os
import random
import re
import uuid
from datetime import datetime, timedelta, timezone

EVAL = os.environ.get(
    "THRESHER_EVAL_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../shared/eval"),
)
TEXT_NODE = re.compile(rb">([^<>]{20,})<")
BODY = re.compile(rb"<body", re.I)


def originals():
    """(url, html bytes, fetched_at or None, corpus key) of every dev page."""
    pages = []
    sh = json.load(open(f"{EVAL}/scrapinghub/ground-truth.json"))
    for key, rec in sorted(sh.items()):
        pages.append((rec["url"], f"{EVAL}/scrapinghub/html/{key}.html.gz", None, None))
    gt = f"{EVAL}/wcxb-dev/ground-truth"
    for name in sorted(os.listdir(gt)):
        rec = json.load(open(os.path.join(gt, name)))
        stem = name.split(".")[0]
        if "url" in rec:
            pages.append((rec["url"], f"{EVAL}/wcxb-dev/html/{stem}.html.gz", None, None))
    td = json.load(open(f"{EVAL}/trafilatura-dev/evaldata.json"))
    for url, rec in sorted(td.items()):
        pages.append((url, f"{EVAL}/trafilatura-dev/html/{rec['file']}", None, None))
    for corpus in ("daniel-dev", "sites-dev"):
        for line in open(f"{EVAL}/{corpus}/manifest.jsonl"):
            rec = json.loads(line)
            key = rec["path"] if corpus == "sites-dev" else None
            pages.append((rec["url"], f"{EVAL}/{corpus}/{rec['path']}", rec.get("fetched_at"), key))
    seen, out = set(), []
    for p in pages:
        # trafilatura-dev names some pages `hard::...` instead of a URL: not a page a
        # crawler would have.
        if p[0] not in seen and re.match(r"https?://[^/?#]", p[0]) and os.path.exists(p[1]):
            seen.add(p[0])
            out.append(p)
    return out


def edit_words(html, share, rng):
    """`html` with about `share` of the words of its body's text nodes dropped, repeated
    or swapped for another word of the page."""
    start = BODY.search(html)
    start = start.start() if start else 0
    head, body = html[:start], html[start:]
    words = re.findall(rb"\S+", body)
    if not words:
        return html

    def change(m):
        parts = re.split(rb"(\s+)", m.group(1))
        for i in range(0, len(parts), 2):
            if parts[i] and rng.random() < share:
                op = rng.randrange(3)
                if op == 0:
                    parts[i] = b""
                elif op == 1:
                    parts[i] = parts[i] + b" " + parts[i]
                else:
                    parts[i] = rng.choice(words)
        return b">" + b"".join(parts) + b"<"

    return head + TEXT_NODE.sub(change, body)


def copy_url(url, n, rng):
    m = re.match(r"(https?://)([^/?#]+)(.*)$", url, re.I)
    scheme, host, path = m.group(1), m.group(2), m.group(3)
    if not path.startswith("/"):
        path = "/" + path
    if n % 2 == 0:
        return f"http://mirror{rng.randrange(20)}.example/{host}{path}"
    if "?" in path:
        return f"{scheme}{host}/print{path}"
    return f"{scheme}{host}{path}?ref=feed"


def record(url, body, date):
    """A gzipped WARC response record (HTTP 200, text/html) for `body`."""
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\n"
            f"WARC-Date: {date}\r\nWARC-Record-ID: <urn:uuid:{uuid.UUID(int=random.getrandbits(128))}>\r\n"
            f"Content-Type: application/http; msgtype=response\r\n"
            f"Content-Length: {len(http)}\r\n\r\n").encode()
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as z:
        z.write(head + http + b"\r\n\r\n")
    return buf.getvalue()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="WARC file to write (.warc.gz)")
    p.add_argument("--truth", required=True, help="TSV of duplicate pairs to write")
    p.add_argument("--copies", type=float, default=0.2, help="share of pages copied")
    p.add_argument("--edit", type=float, default=0.03, help="share of words edited per copy")
    p.add_argument("--seed", type=int, default=30)
    args = p.parse_args()
    rng = random.Random(args.seed)
    random.seed(args.seed)
    pages = originals()
    base = datetime(2025, 1, 1, tzinfo=timezone.utc)
    records, truth = [], []
    by_key = {}
    for i, (url, path, fetched, key) in enumerate(pages):
        html = gzip.open(path).read()
        date = fetched or (base + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        records.append((url, html, date))
        if key:
            by_key[key] = url
    chosen = rng.sample(range(len(pages)), round(len(pages) * args.copies))
    for n, i in enumerate(chosen):
        url, html, _ = records[i]
        curl = copy_url(url, n, rng)
        date = (base + timedelta(days=30, minutes=n)).strftime("%Y-%m-%dT%H:%M:%SZ")
        records.append((curl, edit_words(html, args.edit, rng), date))
        truth.append((url, curl, "copy"))
    # sites-dev's articles are WCXB pages' bodies in other templates: a sites-dev page and
    # the WCXB page of its body (gold/pages.jsonl `wcxb_body`) share their main text.
    wcxb_url = {}
    gt = f"{EVAL}/wcxb-dev/ground-truth"
    for name in os.listdir(gt):
        rec = json.load(open(os.path.join(gt, name)))
        if "url" in rec:
            wcxb_url[name.split(".")[0]] = rec["url"]
    present = {r[0] for r in records}
    for line in open(f"{EVAL}/sites-dev/gold/pages.jsonl"):
        page = json.loads(line)
        source = wcxb_url.get(str(page.get("wcxb_body")))
        if page["path"] in by_key and source in present:
            truth.append((source, by_key[page["path"]], "sites-dev:wcxb-body"))
    for line in open(f"{EVAL}/sites-dev/gold/clusters.jsonl"):
        c = json.loads(line)
        urls = [by_key[m] for m in c["members"] if m in by_key]
        for a in range(len(urls)):
            for b in range(a + 1, len(urls)):
                truth.append((urls[a], urls[b], f"sites-dev:{c.get('kind', '')}"))
    # Copies of sites-dev pages duplicate the whole gold cluster: their pairs follow from
    # the truth's transitive closure (bench/score_pipeline.py takes components).
    rng.shuffle(records)
    with open(args.out, "wb") as f:
        for url, html, date in records:
            f.write(record(url, html, date))
    with open(args.truth, "w") as f:
        for a, b, kind in truth:
            f.write(f"{a}\t{b}\t{kind}\n")
    print(f"{len(records)} pages ({len(pages)} originals, {len(chosen)} copies), "
          f"{len(truth)} truth pairs -> {args.out}, {args.truth}")


if __name__ == "__main__":
    main()
