#!/usr/bin/env bash
# What the structured outputs cost: `thresher extract` on one thread (the pages of
# bench/extract_speed.sh, default ScrapingHub's 181), CPU time (user + system) with
# `text` and with `--output-format markdown --links --images` (and html), runs
# alternated, the least of REPS runs each.
#   bench/markdown_speed.sh [HTML_DIR] [REPS]
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${1:-../shared/eval/scrapinghub/html}"
REPS="${2:-3}"
OUT=$(mktemp -d)
BIN=target/release/thresher
cpu() { # CPU seconds of one run
  /usr/bin/time -f "%U %S" -o "$OUT/time" "$BIN" --threads 1 extract --no-infholder "$DIR" "$@" -o "$OUT/x.jsonl" 2>/dev/null
  awk '{print $1 + $2}' "$OUT/time"
}
declare -A best
for _ in $(seq "$REPS"); do
  for mode in text markdown html; do
    if [ "$mode" = text ]; then t=$(cpu); else t=$(cpu --output-format "$mode" --links --images); fi
    if [ -z "${best[$mode]:-}" ] || awk "BEGIN{exit !($t < ${best[$mode]})}"; then best[$mode]=$t; fi
  done
done
N=$(ls "$DIR" | grep -c -E '\.(html|htm|html\.gz)$')
for mode in text markdown html; do
  awk -v m="$mode" -v t="${best[$mode]}" -v b="${best[text]}" -v n="$N" \
    'BEGIN { printf "%-8s %.2f s CPU, %.2f ms/page, %+.1f %% against text\n", m, t, 1000*t/n, 100*(t/b-1) }'
done
rm -rf "$OUT"
