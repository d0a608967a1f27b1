#!/usr/bin/env python3
"""Run a reference extractor over a folder of pages and write thresher-shaped JSONL
({path, title, text}), so the same scorers (score_extraction.py, bench/score_halves.py,
bench/score_titles.py) compare it side by side with thresher.

usage: baseline_jsonl.py trafilatura|readability HTML_DIR OUT.jsonl
       (pip install trafilatura readability-lxml lxml_html_clean)"""
import gzip, json, sys, time
from pathlib import Path


def trafilatura_extractor():
    import trafilatura

    def run(raw):
        doc = trafilatura.bare_extraction(raw, with_metadata=True)
        doc = doc.as_dict() if doc is not None else {}
        return doc.get("title") or "", doc.get("text") or ""
    return run


def readability_extractor():
    import lxml.html
    from readability import Document

    def run(raw):
        doc = Document(raw)
        html = doc.summary(html_partial=True)
        text = lxml.html.fromstring(html).text_content() if html.strip() else ""
        return doc.short_title() or "", text
    return run


def main():
    tool, src, out = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    run = {"trafilatura": trafilatura_extractor, "readability": readability_extractor}[tool]()
    pages = sorted(p for p in src.iterdir() if p.name.endswith((".html", ".htm", ".html.gz")))
    cpu = time.process_time()
    with open(out, "w", encoding="utf8") as f:
        for p in pages:
            raw = p.read_bytes()
            if p.name.endswith(".gz"):
                raw = gzip.decompress(raw)
            try:
                title, text = run(raw)
            except Exception as e:  # readability raises on empty or odd documents
                title, text = "", ""
                print(f"{p}: {e}", file=sys.stderr)
            # ASCII JSON: the scorer splits lines on U+2028 too.
            f.write(json.dumps({"path": str(p), "title": title, "text": text}) + "\n")
    cpu = time.process_time() - cpu
    # CPU includes metadata extraction (titles), so trafilatura's is above its text-only 17.5 ms.
    print(json.dumps({"tool": tool, "pages": len(pages), "cpu_ms_per_page": round(1000 * cpu / max(1, len(pages)), 2)}))


if __name__ == "__main__":
    main()
