#!/usr/bin/env bash
# The structured outputs keep every word of `text` and add none: every dev corpus page is
# extracted with --output-format markdown (links and images on) and html, and
# examples/markup_words.rs compares the words of the markup, its markup removed, with the
# words of `text`; `text` itself is compared byte for byte with a run without the option.
#   bench/markup_words.sh [BIN] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/thresher}"
OUT="${2:-out/markup_words}"
EVAL=$(realpath ../shared/eval)
mkdir -p "$OUT"
cargo build --release --example markup_words 2>/dev/null
CHECK=target/release/examples/markup_words
declare -A ARGS=(
  [wcxb-dev]="--no-infholder $EVAL/wcxb-dev/html"
  [scrapinghub]="$EVAL/scrapinghub/html"
  [daniel-dev]="--manifest $EVAL/daniel-dev/manifest.jsonl"
  [trafilatura-dev]="--no-infholder $EVAL/trafilatura-dev/html"
  [sites-dev]="--manifest $EVAL/sites-dev/manifest.jsonl"
)
status=0
for corpus in wcxb-dev scrapinghub daniel-dev trafilatura-dev sites-dev; do
  # shellcheck disable=SC2086
  $BIN extract ${ARGS[$corpus]} -o "$OUT/$corpus.text.jsonl" 2>/dev/null || true
  # shellcheck disable=SC2086
  $BIN extract ${ARGS[$corpus]} --output-format markdown --links --images -o "$OUT/$corpus.md.jsonl" 2>/dev/null || true
  # shellcheck disable=SC2086
  $BIN extract ${ARGS[$corpus]} --output-format html --links --images -o "$OUT/$corpus.html.jsonl" 2>/dev/null || true
  $CHECK "$OUT/$corpus.md.jsonl" "$OUT/$corpus.html.jsonl" || status=1
  python3 - "$OUT/$corpus.text.jsonl" "$OUT/$corpus.md.jsonl" "$OUT/$corpus.html.jsonl" <<'PY' || status=1
import json, sys
def texts(p):
    return [(r.get("path"), r.get("text")) for r in map(json.loads, open(p))]
base = texts(sys.argv[1])
for other in sys.argv[2:]:
    same = texts(other) == base
    print(f"{other}: text {'byte-identical to' if same else 'DIFFERS from'} the text-only run ({len(base)} records)")
    if not same:
        sys.exit(1)
PY
done
exit $status
