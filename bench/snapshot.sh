#!/usr/bin/env bash
# Writes the outputs of `extract` and `run` on every dev corpus into DIR, so that two trees
# can be compared byte for byte (refactors must not change them):
#   bench/snapshot.sh out/snap-before && (change code) && bench/snapshot.sh out/snap-after
#   diff -r out/snap-before out/snap-after && echo identical
# BIN=path/to/thresher NOBUILD=1 snapshots another binary (a copy of the build before a
# merge, say) without building this tree.
# Timings and throughput are dropped from summary.json (they differ on every run).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:?usage: bench/snapshot.sh DIR}"
EVAL=$(realpath ../shared/eval)   # absolute: file:// URLs do not depend on the checkout (worktrees compare)
BIN=${BIN:-target/release/thresher}
[ -n "${NOBUILD:-}" ] || cargo build --release -q
rm -rf "$OUT"; mkdir -p "$OUT"
$BIN extract --no-infholder $EVAL/wcxb-dev/html -o "$OUT/wcxb.jsonl" 2>/dev/null
$BIN extract $EVAL/scrapinghub/html -o "$OUT/sh.jsonl" 2>/dev/null
$BIN extract --no-infholder $EVAL/daniel-dev/html -o "$OUT/dd.jsonl" 2>/dev/null
$BIN extract --manifest $EVAL/daniel-dev/manifest.jsonl -o "$OUT/ddm.jsonl" 2>/dev/null
$BIN extract --manifest $EVAL/sites-dev/manifest.jsonl -o "$OUT/sites-extract.jsonl" 2>/dev/null
$BIN run --rules site-rules --manifest $EVAL/sites-dev/manifest.jsonl --out "$OUT/sites" $EVAL/sites-dev 2>/dev/null
$BIN run --manifest $EVAL/daniel-dev/manifest.jsonl --out "$OUT/dd-run" 2>/dev/null
for s in "$OUT"/sites/summary.json "$OUT"/dd-run/summary.json; do
  python3 - "$s" <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p))
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if not any(t in k for t in ("time", "timing", "secs", "ms", "per_s", "pages_s", "elapsed", "seconds", "peak", "rss", "threads"))}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
json.dump(strip(d), open(p, "w"), indent=1, sort_keys=True)
PY
done
ls -la "$OUT" | tail -n +2
