#!/usr/bin/env python3
"""Run readability-lxml over a folder of pages and write thresher-shaped JSONL ({path, text}),
so the same scorers compare it side by side with thresher.

usage: readability_jsonl.py HTML_DIR OUT.jsonl     (pip install readability-lxml lxml_html_clean)"""
import gzip, json, sys, time
from pathlib import Path

import lxml.html
from readability import Document


def main():
    src, out = Path(sys.argv[1]), sys.argv[2]
    pages = sorted(p for p in src.iterdir() if p.name.endswith((".html", ".htm", ".html.gz")))
    cpu = time.process_time()
    with open(out, "w", encoding="utf8") as f:
        for p in pages:
            raw = p.read_bytes()
            if p.name.endswith(".gz"):
                raw = gzip.decompress(raw)
            try:
                html = Document(raw).summary(html_partial=True)
                text = lxml.html.fromstring(html).text_content() if html.strip() else ""
            except Exception as e:  # readability raises on empty or odd documents
                text = ""
                print(f"{p}: {e}", file=sys.stderr)
            f.write(json.dumps({"path": str(p), "text": text}) + "\n")  # ASCII: the scorer splits lines on U+2028 too
    cpu = time.process_time() - cpu
    print(json.dumps({"pages": len(pages), "cpu_ms_per_page": round(1000 * cpu / max(1, len(pages)), 2)}))


if __name__ == "__main__":
    main()
