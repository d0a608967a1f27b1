#!/usr/bin/env bash
# Fetch benchmark on this machine only: 1,000 pages from 50 local hosts
# (127.0.0.2 … 127.0.0.51, one server process, LATENCY_MS think time per response),
# per-host limit 2. Prints wall time, pages/s and CPU per page of the thresher process,
# for the first crawl and for a re-crawl of the same URLs with `--previous` (conditional
# requests: the server answers 304 for 9 pages in 10, the tenth changes every time),
# side by side with the WARC sizes.
#
#   bench/fetch_local.sh [DELAY] [LATENCY_MS] [PAGES_PER_HOST]
#   DELAY: thresher's --delay (default 1s, the crawler's default politeness; 0 = only
#   the per-host limit).
set -euo pipefail
cd "$(dirname "$0")/.."
DELAY=${1:-1s}
LATENCY=${2:-50}
PER_HOST=${3:-20}
HOSTS=50
PORT=${PORT:-18080}
CONCURRENCY=${CONCURRENCY:-100}
cargo build --release --quiet --bin thresher --example bench_server
work=$(mktemp -d)
target/release/examples/bench_server "$HOSTS" "$PORT" "$LATENCY" 900 > "$work/server.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q ready "$work/server.log" && break; sleep 0.1; done
for h in $(seq 2 $((HOSTS + 1))); do
  for p in $(seq 1 "$PER_HOST"); do echo "http://127.0.0.$h:$PORT/p$p.html"; done
done > "$work/urls.txt"
n=$(wc -l < "$work/urls.txt")

# crawl NAME [extra thresher options…]: one crawl into $work/NAME/crawl.warc.gz, one line.
crawl() {
  local name=$1; shift
  mkdir -p "$work/$name"
  /usr/bin/time -f "%e %U %S %M" -o "$work/$name/time" \
    target/release/thresher fetch --urls "$work/urls.txt" --out "$work/$name/crawl.warc.gz" \
    --allow-private --per-host 2 --concurrency "$CONCURRENCY" --delay "$DELAY" "$@" \
    2> "$work/$name/stderr" || { cat "$work/$name/stderr"; exit 1; }
  tail -1 "$work/$name/stderr"
  read -r wall user sys rss < "$work/$name/time"
  local pages unchanged warc_bytes
  pages=$(grep -c '"outcome":"page"' "$work/$name/crawl.manifest.jsonl" || true)
  unchanged=$(grep -c '"outcome":"not_modified"' "$work/$name/crawl.manifest.jsonl" || true)
  warc_bytes=$(stat -c %s "$work/$name/crawl.warc.gz")
  python3 - "$name" "$n" "$pages" "$unchanged" "$wall" "$user" "$sys" "$rss" "$warc_bytes" "$DELAY" "$LATENCY" "$CONCURRENCY" "$work/$name/crawl.manifest.jsonl" <<'PY'
import json, sys
name, n, pages, unchanged, wall, user, sys_, rss, warc, delay, lat, conc, manifest = sys.argv[1:]
payload = sum(json.loads(l).get("bytes") or 0 for l in open(manifest))
n, pages, unchanged, warc = int(n), int(pages), int(unchanged), int(warc)
wall, user, sys_ = float(wall), float(user), float(sys_)
done = pages + unchanged
print(f"{name}: {n} URLs from 50 hosts ({pages} pages, {unchanged} not modified), per-host 2, "
      f"concurrency {conc}, delay {delay}, server latency {lat} ms: "
      f"{wall:.2f} s wall, {done / wall:.1f} URLs/s, CPU {user:.2f} s user + {sys_:.2f} s sys = "
      f"{(user + sys_) / max(done, 1) * 1000:.2f} ms/URL, max RSS {int(rss) / 1024:.0f} MiB, "
      f"payload downloaded {payload / 1e6:.2f} MB (decoded), WARC {warc / 1e6:.2f} MB")
PY
}

crawl first
crawl recrawl --previous "$work/first/crawl.warc.gz"
# The re-crawl's WARC read back: unchanged pages come from the first crawl's records.
target/release/thresher extract "$work/recrawl/crawl.warc.gz" > "$work/pages.jsonl" 2> /dev/null
echo "extract recrawl/crawl.warc.gz: $(grep -c '"text"' "$work/pages.jsonl") pages with text"
