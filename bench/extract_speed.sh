#!/usr/bin/env bash
# Extraction speed side by side, in one run, on the same pages (default: ScrapingHub's 181):
# thresher's local extractor against html5ever parse-only (cargo bench --bench extract),
# `thresher extract` end to end (read, gunzip, decode, parse, extract, write JSONL), and
# trafilatura and readability-lxml over the same files (CPU ms/page from their own
# process time). Needs: pip install trafilatura readability-lxml lxml_html_clean
#   bench/extract_speed.sh [HTML_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${1:-../shared/eval/scrapinghub/html}"
OUT=$(mktemp -d)
cargo build --release -q
N=$(ls "$DIR" | grep -c -E '\.(html|htm|html\.gz)$')
echo "== $N pages in $DIR"
cargo bench -q --bench extract -- "$DIR" 2>/dev/null | grep -E "ms/page|pages"
for threads in 1 2; do
  start=$(date +%s.%N)
  target/release/thresher --threads $threads extract --no-infholder "$DIR" -o "$OUT/t.jsonl" 2>/dev/null
  end=$(date +%s.%N)
  python3 -c "import sys; n,s,e,t=int(sys.argv[1]),float(sys.argv[2]),float(sys.argv[3]),sys.argv[4]; print(f'thresher extract, {t} thread(s), end to end: {n/(e-s):.0f} pages/s ({1000*(e-s)/n:.2f} ms/page wall)')" "$N" "$start" "$end" "$threads"
done
for tool in trafilatura readability; do
  python3 bench/baseline_jsonl.py $tool "$DIR" "$OUT/$tool.jsonl" 2>/dev/null | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(f\"{d['tool']}, 1 thread: {1000/d['cpu_ms_per_page']:.0f} pages/s ({d['cpu_ms_per_page']} ms/page CPU)\")"
done
rm -rf "$OUT"
