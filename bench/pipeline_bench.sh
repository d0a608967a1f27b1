#!/usr/bin/env bash
# The whole pipeline side by side in one run, on a WARC of real pages with near-duplicate
# copies added (bench/gen_dup_warc.py: every dev-corpus page, 20% copies with 3% of their
# words edited, seed 30):
#   1. `thresher --threads 1 run` (one core);
#   2. the Spark job spark/thresher_run.py on local Spark (`local[2]`: two executor threads);
#   3. datatrove: WarcReader → Trafilatura → its MinHash stages, default settings
#      (bench/datatrove_pipeline.py, one task, one worker).
# Each is measured over its whole process tree by bench/proc_meter.py (CPU seconds of every
# process, peak of their summed RSS) and scored by bench/score_pipeline.py (recall of the
# copies, false merges).
#
#   VENV=/path/to/venv bench/pipeline_bench.sh [WORK_DIR] [SYSTEMS]
#
# VENV: a virtualenv with the thresher package (pip install ./python) and pyspark;
# DT_VENV: one with datatrove and trafilatura (default: VENV). SYSTEMS: any of "thresher spark datatrove"
# (default all three). datatrove's per-page extraction timeout is raised to 30 s
# (DT_TIMEOUT): at its default of 1 s a loaded machine drops pages.
set -euo pipefail
cd "$(dirname "$0")/.."
W=$(realpath -m "${1:-/tmp/pipeline-bench}")
SYSTEMS=${2:-thresher spark datatrove}
PY=$(realpath -s "${VENV:-venv}/bin/python")
PY_DT=$(realpath -s "${DT_VENV:-${VENV:-venv}}/bin/python")
BIN=$(realpath target/release/thresher)
mkdir -p "$W"
if [ ! -f "$W/dup.warc.gz" ]; then
    python3 bench/gen_dup_warc.py --out "$W/dup.warc.gz" --truth "$W/truth.tsv"
fi
# Pages in: the WARC's response records (every system reads them all; pages per CPU
# second are counted over these, whatever a system drops).
PAGES=$(python3 -c 'import gzip,sys; print(sum(l.startswith(b"WARC-Type: response") for l in gzip.open(sys.argv[1])))' "$W/dup.warc.gz")
meter() { local name=$1; shift; python3 bench/proc_meter.py "$W/$name.meter.json" -- "$@" >"$W/$name.log" 2>&1; }
for s in $SYSTEMS; do
    case $s in
    thresher)
        rm -rf "$W/thresher"
        meter thresher "$BIN" --threads 1 run "$W/dup.warc.gz" --out "$W/thresher"
        python3 bench/score_pipeline.py "$W/truth.tsv" --thresher "$W/thresher/pages.jsonl" >"$W/thresher.score.json" ;;
    spark)
        rm -rf "$W/spark"
        # The executors' Python is the venv's too (it holds the package).
        PYSPARK_PYTHON="$PY" meter spark "$PY" spark/thresher_run.py --master 'local[2]' "$W/dup.warc.gz" --out "$W/spark"
        "$PY" bench/score_pipeline.py "$W/truth.tsv" --spark "$W/spark/pages" >"$W/spark.score.json" ;;
    datatrove)
        rm -rf "$W/datatrove"
        meter datatrove "$PY_DT" bench/datatrove_pipeline.py "$W/dup.warc.gz" "$W/datatrove" "${DT_TIMEOUT:-30}"
        python3 bench/score_pipeline.py "$W/truth.tsv" --datatrove "$W/datatrove/clusters.tsv" >"$W/datatrove.score.json" ;;
    *) echo "unknown system $s" >&2; exit 2 ;;
    esac
done
python3 - "$W" "$PAGES" $SYSTEMS <<'PY'
import json, sys
w, pages, systems = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print(f"{pages} pages in; CPU seconds and peak RSS over each system's whole process tree")
print(f"| system | pages out | CPU s | pages per CPU s | wall s | peak RSS (tree) | copies found | false merges (pairs / pages) |")
print("|---|---|---|---|---|---|---|---|")
for s in systems:
    m = json.load(open(f"{w}/{s}.meter.json"))
    sc = json.load(open(f"{w}/{s}.score.json"))
    print(f"| {s} | {sc['pages']} | {m['cpu_seconds']:.0f} | {pages / m['cpu_seconds']:.1f} | {m['wall_seconds']:.0f} "
          f"| {m['peak_rss_mb']:.0f} MB | {sc['copies_found']} of {sc['copies']} ({sc['copies_found'] / sc['copies']:.3f}) "
          f"| {sc['false_merge_pairs']} / {sc['falsely_merged_pages']} |")
PY
