#!/usr/bin/env bash
# Peak memory on pathological pages (README, Measured): 200,000 nested divs, a 100 MB page
# (default 32 MiB cap, and the cap raised to 128 MiB so the whole page is read), and 100 MB
# on one line with NUL bytes. Prints peak RSS, wall time and the length of the text kept.
# Usage: bench/bad_input_memory.sh [WORKDIR]   (needs /usr/bin/time and python3)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
bin="$PWD/target/release/thresher"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
python3 - "$work" <<'PY'
import sys, os
d = sys.argv[1]
n = 200_000
with open(os.path.join(d, 'deep.html'), 'w') as f:
    f.write('<html><body>')
    for i in range(n):
        f.write('<div>')
        if i % 20000 == 0:
            f.write(f'<p>Level {i} text of a very deep tree that should still be kept in the output.</p>')
    f.write('<p>Text at the bottom of a very deep tree of elements.</p>' + '</div>' * n + '</body></html>')
para = "<p>This is one of many paragraphs in a very large page that keeps on going with words.</p>\n"
with open(os.path.join(d, 'big.html'), 'w') as f:
    f.write('<html><body><article>' + para * (100 * 1024 * 1024 // len(para)) + '</article></body></html>')
with open(os.path.join(d, 'oneline.html'), 'wb') as f:
    line = b'<p>Words on one endless line with a NUL \x00 byte among them and more words.</p>'
    f.write(b'<html><body><article>' + line * (100 * 1024 * 1024 // len(line)) + b'</article></body></html>')
PY
echo "max_page_bytes: 134217728" > "$work/cap128.yaml"
measure() { # NAME FILE [extra args before the command]
    local name=$1 file=$2; shift 2
    /usr/bin/time -v "$bin" "$@" extract --no-infholder --threads 1 "$work/$file" -o "$work/$name.jsonl" 2> "$work/$name.time"
    local rss wall chars
    rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/$name.time")
    wall=$(awk -F': ' '/Elapsed/ {print $2}' "$work/$name.time")
    chars=$(python3 -c "import json,sys; print(len(json.loads(open(sys.argv[1]).readline())['text']))" "$work/$name.jsonl")
    printf '%-28s %8.1f MB peak RSS  %8s wall  %10s chars of text\n' "$name" "$(echo "$rss/1024" | bc -l)" "$wall" "$chars"
}
measure "deep (200,000 divs)" deep.html
measure "big 100 MB (cap 32 MiB)" big.html
measure "big 100 MB (cap 128 MiB)" big.html --config "$work/cap128.yaml"
measure "one line 100 MB, NULs" oneline.html
