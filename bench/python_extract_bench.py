#!/usr/bin/env python3
"""Extraction from Python, side by side on one core: `thresher.extract`,
`trafilatura.extract` and Resiliparse's `extract_plain_text(main_content=True)` on
ScrapingHub and WCXB dev. Each page is given to each extractor as the raw bytes of its
file (gunzipped; Resiliparse decodes them with its own `detect_encoding`/`bytes_to_str`,
counted in its time); CPU time (`time.process_time`) around each call; the texts are
written as JSONL and scored by ../shared/eval/score_extraction.py.

The systems take turns page by page (the order rotates from page to page), so each
meets the same machine load and the same cache state: on a shared machine, whose load
changes from minute to minute, running one system over a corpus and then the next made
their ms figures incomparable. The ratio between systems is the figure to read.

    VENV/bin/python bench/python_extract_bench.py OUT_DIR [--systems thresher,resiliparse,trafilatura]

Prints one line per corpus and system: pages, CPU ms per page, pages per CPU second, F1.
"""

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import time

EVAL = os.environ.get(
    "THRESHER_EVAL_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../shared/eval"),
)
CORPORA = {
    "scrapinghub": ("scrapinghub", f"{EVAL}/scrapinghub/ground-truth.json"),
    "wcxb-dev": ("wcxb", f"{EVAL}/wcxb-dev/ground-truth"),
}


def systems():
    def thresher_fn():
        import thresher

        def run(raw):
            r = thresher.extract(raw)
            return r.get("text") or ""
        return run, f"thresher {thresher.__version__}"

    def trafilatura_fn():
        import trafilatura

        def run(raw):
            return trafilatura.extract(raw) or ""
        return run, f"trafilatura {trafilatura.__version__}"

    def resiliparse_fn():
        from importlib.metadata import version
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding

        def run(raw):
            return extract_plain_text(bytes_to_str(raw, detect_encoding(raw)), main_content=True)
        return run, f"resiliparse {version('resiliparse')}"

    return {"thresher": thresher_fn, "resiliparse": resiliparse_fn, "trafilatura": trafilatura_fn}


def pages(corpus):
    d = f"{EVAL}/{corpus}/html"
    for name in sorted(os.listdir(d)):
        yield f"html/{name}", gzip.open(os.path.join(d, name)).read()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--systems", default="thresher,resiliparse,trafilatura")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    table = systems()
    for corpus, (metric, gold) in CORPORA.items():
        docs = list(pages(corpus))
        runs = []
        for name in a.systems.split(","):
            fn, label = table[name]()
            fn(docs[0][1])  # warm-up (imports, lazy tables)
            out = os.path.join(a.out, f"{corpus}-{name}.jsonl")
            runs.append({"fn": fn, "label": label, "out": out, "cpu": 0.0, "rows": []})
        for i, (path, raw) in enumerate(docs):
            for k in range(len(runs)):
                run = runs[(i + k) % len(runs)]
                t = time.process_time()
                text = run["fn"](raw)
                run["cpu"] += time.process_time() - t
                run["rows"].append({"path": path, "text": text})
        for run in runs:
            with open(run["out"], "w") as f:
                for row in run["rows"]:
                    f.write(json.dumps(row) + "\n")
            score = subprocess.run([sys.executable, f"{EVAL}/score_extraction.py", metric, gold, run["out"]],
                                   capture_output=True, text=True).stdout
            f1 = re.findall(r"\"f1\": ([0-9.]+)", score)
            cpu = run["cpu"]
            print(json.dumps({"corpus": corpus, "system": run["label"], "pages": len(docs),
                              "cpu_ms_per_page": round(1000 * cpu / len(docs), 2),
                              "pages_per_cpu_s": round(len(docs) / cpu, 1),
                              "f1": float(f1[0]) if f1 else score.strip()[-300:]}),
                  flush=True)

if __name__ == "__main__":
    main()
