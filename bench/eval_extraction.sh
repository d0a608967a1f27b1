#!/usr/bin/env bash
# Every extraction dev corpus side by side, per type/language and per site half, in one run:
#   bench/eval_extraction.sh [BIN] [OUT_DIR]
# daniel-dev local (--no-infholder) and with its manifest (Infholder on), WCXB dev local,
# XARGS="--config my.yaml" adds options to every extract/run (to measure a knob without a rebuild).
# ScrapingHub (default options), trafilatura-dev local, sites-dev (`run` with the manifest; F1 and leaks).
# Halves split sites by a hash of the host (bench/score_halves.py), so a mechanism that helps
# only the sites it was looked at shows as a gain on one half only.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/thresher}"
OUT="${2:-out/eval}"
EVAL=$(realpath ../shared/eval)
mkdir -p "$OUT"
$BIN extract ${XARGS:-} --no-infholder "$EVAL/daniel-dev/html" -o "$OUT/dd.jsonl" 2>/dev/null &
$BIN extract ${XARGS:-} --manifest "$EVAL/daniel-dev/manifest.jsonl" -o "$OUT/ddm.jsonl" 2>/dev/null &
wait
$BIN extract ${XARGS:-} --no-infholder "$EVAL/wcxb-dev/html" -o "$OUT/wcxb.jsonl" 2>/dev/null &
$BIN extract ${XARGS:-} "$EVAL/scrapinghub/html" -o "$OUT/sh.jsonl" 2>/dev/null &
wait
$BIN extract ${XARGS:-} --no-infholder "$EVAL/trafilatura-dev/html" -o "$OUT/td.jsonl" 2>/dev/null
$BIN run ${XARGS:-} --manifest "$EVAL/sites-dev/manifest.jsonl" --out "$OUT/sites" "$EVAL/sites-dev" 2>/dev/null
echo "== daniel-dev local (--no-infholder)"; python3 bench/score_halves.py "$EVAL/daniel-dev" "$OUT/dd.jsonl"
echo "== daniel-dev with manifest";          python3 bench/score_halves.py "$EVAL/daniel-dev" "$OUT/ddm.jsonl"
echo "== WCXB dev local";                    python3 bench/score_halves.py "$EVAL/wcxb-dev" "$OUT/wcxb.jsonl"
echo "== ScrapingHub"
python3 "$EVAL/score_extraction.py" scrapinghub "$EVAL/scrapinghub/ground-truth.json" "$OUT/sh.jsonl"
echo "== trafilatura-dev (with/without snippets)"
python3 bench/score_withwithout_halves.py "$EVAL/trafilatura-dev/evaldata.json" "$OUT/td.jsonl"
echo "== sites-dev"
python3 "$EVAL/score_sites.py" extraction --gold "$EVAL/sites-dev" --pred "$OUT/sites/pages.jsonl"
