#!/usr/bin/env python3
"""Run trafilatura over a folder of pages and write thresher-shaped JSONL ({path, title, text}),
so the same scorers (score_extraction.py, bench/score_titles.py) compare both side by side.

usage: trafilatura_jsonl.py HTML_DIR OUT.jsonl     (pip install trafilatura lxml_html_clean)"""
import gzip, json, sys, time
from pathlib import Path

import trafilatura


def main():
    src, out = Path(sys.argv[1]), sys.argv[2]
    pages = sorted(p for p in src.iterdir() if p.name.endswith((".html", ".htm", ".html.gz")))
    cpu = time.process_time()
    with open(out, "w", encoding="utf8") as f:
        for p in pages:
            raw = p.read_bytes()
            if p.name.endswith(".gz"):
                raw = gzip.decompress(raw)
            doc = trafilatura.bare_extraction(raw, with_metadata=True)
            doc = doc.as_dict() if doc is not None else {}
            f.write(json.dumps({"path": str(p), "title": doc.get("title") or "",
                                "text": doc.get("text") or ""}, ensure_ascii=False) + "\n")
    cpu = time.process_time() - cpu
    # CPU includes metadata extraction (titles), so it is above the text-only 17.5 ms.
    print(json.dumps({"pages": len(pages), "cpu_ms_per_page": round(1000 * cpu / max(1, len(pages)), 2)}))


if __name__ == "__main__":
    main()
