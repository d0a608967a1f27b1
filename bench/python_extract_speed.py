"""Pages per second of the Python package against the CLI on the same pages (ScrapingHub
by default): `thresher.extract` one page at a time on one core (CPU time of this process),
`thresher.extract_arrow` on a table of all pages with THREADS threads (wall time), and
`thresher --threads 1 extract` (CPU time of the child). Both with `cross_page none` so that
each page is extracted alone; ROUNDS repetitions, the best kept.

    python3 bench/python_extract_speed.py [HTML_DIR] [--threads 2] [--rounds 3] [--bin target/release/thresher]
"""

import argparse
import gzip
import os
import pathlib
import resource
import subprocess
import tempfile
import time

import pyarrow as pa

import thresher


def read(path):
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("html_dir", nargs="?", default="../shared/eval/scrapinghub/html")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bin", default="target/release/thresher")
    a = ap.parse_args()
    files = sorted(p for p in pathlib.Path(a.html_dir).iterdir() if p.is_file())
    pages = [(read(f), "http://example.com/" + f.name) for f in files]
    n = len(pages)
    best = {}
    for _ in range(a.rounds):
        t = time.process_time()
        for html, url in pages:
            thresher.extract(html, url, cross_page="none")
        best["extract"] = min(best.get("extract", 1e9), time.process_time() - t)
        table = pa.table({"url": [u for _, u in pages], "html": [h for h, _ in pages]})
        t = time.perf_counter()
        thresher.extract_arrow(table, threads=a.threads, cross_page="none")
        best["arrow"] = min(best.get("arrow", 1e9), time.perf_counter() - t)
        with tempfile.TemporaryDirectory() as tmp:
            c = child_cpu()
            subprocess.run(
                [a.bin, "--threads", "1", "extract", "--cross-page", "none", a.html_dir,
                 "-o", os.path.join(tmp, "out.jsonl")],
                check=True, capture_output=True,
            )
            best["cli"] = min(best.get("cli", 1e9), child_cpu() - c)
    print(f"{n} pages")
    print(f"thresher.extract, 1 core (CPU):        {n / best['extract']:8.1f} pages/s  {1000 * best['extract'] / n:.2f} ms/page")
    print(f"thresher.extract_arrow, {a.threads} threads (wall): {n / best['arrow']:8.1f} pages/s")
    print(f"thresher --threads 1 extract (CPU):    {n / best['cli']:8.1f} pages/s  {1000 * best['cli'] / n:.2f} ms/page")


if __name__ == "__main__":
    main()
