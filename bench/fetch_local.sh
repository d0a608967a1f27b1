#!/usr/bin/env bash
# Fetch benchmark on this machine only: 1,000 pages from 50 local hosts
# (127.0.0.2 … 127.0.0.51, one server process, LATENCY_MS think time per response),
# per-host limit 2. Prints wall time, pages/s and CPU per page of the thresher process.
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
target/release/examples/bench_server "$HOSTS" "$PORT" "$LATENCY" 600 > "$work/server.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q ready "$work/server.log" && break; sleep 0.1; done
for h in $(seq 2 $((HOSTS + 1))); do
  for p in $(seq 1 "$PER_HOST"); do echo "http://127.0.0.$h:$PORT/p$p.html"; done
done > "$work/urls.txt"
n=$(wc -l < "$work/urls.txt")
/usr/bin/time -f "%e %U %S %M" -o "$work/time" \
  target/release/thresher fetch --urls "$work/urls.txt" --out "$work/crawl.warc.gz" \
  --allow-private --per-host 2 --concurrency "$CONCURRENCY" --delay "$DELAY" 2> "$work/stderr" || { cat "$work/stderr"; exit 1; }
tail -1 "$work/stderr"
read -r wall user sys rss < "$work/time"
pages=$(grep -c '"outcome":"page"' "$work/crawl.manifest.jsonl")
python3 - "$n" "$pages" "$wall" "$user" "$sys" "$rss" "$DELAY" "$LATENCY" "$CONCURRENCY" <<'PY'
import sys
n, pages, wall, user, sys_, rss, delay, lat, conc = sys.argv[1:]
n, pages = int(n), int(pages)
wall, user, sys_ = float(wall), float(user), float(sys_)
print(f"{n} URLs, {pages} pages from 50 hosts, per-host 2, concurrency {conc}, delay {delay}, server latency {lat} ms: "
      f"{wall:.2f} s wall, {pages / wall:.1f} pages/s, CPU {user:.2f} s user + {sys_:.2f} s sys = "
      f"{(user + sys_) / pages * 1000:.2f} ms/page, max RSS {int(rss) / 1024:.0f} MiB")
PY
