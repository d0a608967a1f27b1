#!/usr/bin/env bash
# Persistent dedup index benchmarks (issue 15), figures in README "Measured":
#   bench/index.sh dev     dedup-dev in three shuffled batches (index add ×3, export) side by
#                          side with one `thresher dedup`; checks the outputs are identical
#   bench/index.sh scale   DOCS (default 1,000,000) generated ~2 KB documents
#                          (bench/gen_index_corpus.py) in one `index add`, then `export`:
#                          wall time, peak RSS (/usr/bin/time -v), index size
# Work files go to $OUT (default /tmp/thresher-index-bench); the scale corpus is ~2.2 GB
# and the index ~7 KB per document.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/thresher-index-bench}
DOCS=${DOCS:-1000000}
B=target/release/thresher
cargo build --release --quiet
mkdir -p "$OUT"

measure() { # label, command...
    local label=$1
    shift
    /usr/bin/time -f "$label: %e s wall, %M KB peak RSS" "$@"
}

case "${1:-dev}" in
dev)
    zcat ../shared/eval/dedup-dev/docs.jsonl.gz > "$OUT/dev.jsonl"
    python3 - "$OUT" <<'EOF'
import random, sys
out = sys.argv[1]
lines = open(f"{out}/dev.jsonl").readlines()
random.Random(15).shuffle(lines)
n = len(lines) // 3
for i, part in enumerate([lines[:n], lines[n:2 * n], lines[2 * n:]]):
    open(f"{out}/dev{i}.jsonl", "w").writelines(part)
EOF
    opts=(--threshold 0.8 --normalize words)
    rm -rf "$OUT/dev-index"
    measure "dedup (one run)" $B dedup "${opts[@]}" "$OUT/dev.jsonl" -o "$OUT/dev-oneshot.jsonl"
    for i in 2 0 1; do
        measure "index add batch dev$i" $B index add --index "$OUT/dev-index" "${opts[@]}" "$OUT/dev$i.jsonl" -o "$OUT/dev-touched$i.jsonl"
    done
    measure "index export" $B index export --index "$OUT/dev-index" -o "$OUT/dev-export.jsonl"
    measure "index check" $B index check --index "$OUT/dev-index"
    cmp "$OUT/dev-oneshot.jsonl" "$OUT/dev-export.jsonl" && echo "export == one dedup run ($(wc -l < "$OUT/dev-export.jsonl") clusters)"
    ls -l "$OUT/dev-index/index.redb"
    ;;
scale)
    [ -s "$OUT/gen$DOCS.jsonl" ] || python3 bench/gen_index_corpus.py --docs "$DOCS" --out "$OUT/gen$DOCS.jsonl"
    rm -rf "$OUT/scale-index"
    /usr/bin/time -v $B index add --index "$OUT/scale-index" "$OUT/gen$DOCS.jsonl" -o "$OUT/scale-touched.jsonl" 2> "$OUT/scale-add.time"
    grep -E "^batch|Elapsed|Maximum resident" "$OUT/scale-add.time"
    measure "index export" $B index export --index "$OUT/scale-index" -o "$OUT/scale-export.jsonl"
    ls -l "$OUT/scale-index/index.redb"
    ;;
*)
    echo "usage: bench/index.sh dev|scale" >&2
    exit 2
    ;;
esac
