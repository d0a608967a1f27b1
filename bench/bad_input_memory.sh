#!/usr/bin/env bash
# Peak memory and time of `extract --threads 1` on pathological page shapes at the default
# max_page_bytes (32 MiB; README and docs/source.md, Limits): tag-dense (49 MB of
# `<span>w</span>`), attribute-dense (tags of 200 attributes; tags of fifty 2-letter
# attributes), deep (100,000 and 200,000 nested divs), wide (one element with 1,000,000
# children), one 32 MiB text node, one 32 MiB attribute value, a 100 MB page (cap 32 MiB,
# and raised to 128 MiB), 100 MB on one line with NUL bytes. Prints shape, input size,
# peak RSS, wall time and the length of the text kept.
# Usage: bench/bad_input_memory.sh [WORKDIR]   (needs /usr/bin/time and python3)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
bin="$PWD/target/release/thresher"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
python3 - "$work" <<'PY'
import sys, os, itertools, string
d = sys.argv[1]
M = 32 << 20
def w(name, data):
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data.encode() if isinstance(data, str) else data)
first = '<p>The first paragraph of a pathological page, long enough to be kept as its text.</p>'
w('spans.html', '<html><body>' + first + '<span>w</span>' * (49_000_000 // 14) + '</body></html>')
tag = '<b ' + ' '.join(f'a{i}=x' for i in range(200)) + '>w</b>'
w('attrs200.html', '<html><body><article>' + first + tag * ((M - 500) // len(tag)) + '</article></body></html>')
names = [''.join(p) for p in itertools.product(string.ascii_lowercase, repeat=2)][:50]
tag = '<i ' + ' '.join(names) + '>w</i>'
w('attrs50.html', '<html><body><article>' + first + tag * ((M - 500) // len(tag)) + '</article></body></html>')
for n in (100_000, 200_000):
    w(f'deep{n}.html', '<html><body>' + '<div>' * n + first + '</div>' * n + '</body></html>')
w('wide.html', '<html><body><div>' + first + '<i>w</i>' * 1_000_000 + '</div></body></html>')
w('text.html', '<html><body><p>' + 'word ' * ((M - 100) // 5) + '</p></body></html>')
w('attrvalue.html', '<html><body><div title="' + 'A' * (M - 300) + '">' + first + '</div></body></html>')
para = "<p>This is one of many paragraphs in a very large page that keeps on going with words.</p>\n"
w('big.html', '<html><body><article>' + para * (100 * 1024 * 1024 // len(para)) + '</article></body></html>')
line = b'<p>Words on one endless line with a NUL \x00 byte among them and more words.</p>'
w('oneline.html', b'<html><body><article>' + line * (100 * 1024 * 1024 // len(line)) + b'</article></body></html>')
PY
echo "max_page_bytes: 134217728" > "$work/cap128.yaml"
printf '%-34s %10s %12s %10s %12s\n' shape "size MB" "peak RSS MB" "wall" "text chars"
measure() { # NAME FILE [global args before the command]
    local name=$1 file=$2; shift 2
    /usr/bin/time -v "$bin" "$@" --threads 1 extract --no-infholder "$work/$file" -o "$work/$file.jsonl" 2> "$work/$file.time"
    local rss wall chars size
    rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/$file.time")
    wall=$(awk -F': ' '/Elapsed/ {print $2}' "$work/$file.time")
    size=$(stat -c %s "$work/$file")
    chars=$(python3 -c "import json,sys; print(len(json.loads(open(sys.argv[1]).readline()).get('text', '')))" "$work/$file.jsonl")
    printf '%-34s %10.1f %12.1f %10s %12s\n' "$name" "$(echo "$size/1000000" | bc -l)" "$(echo "$rss/1024" | bc -l)" "$wall" "$chars"
}
measure "tag-dense: <span>w</span>" spans.html
measure "attributes: 200 a tag" attrs200.html
measure "attributes: 50 two-letter a tag" attrs50.html
measure "deep: 100,000 nested divs" deep100000.html
measure "deep: 200,000 nested divs" deep200000.html
measure "wide: 1,000,000 children" wide.html
measure "one text node" text.html
measure "one attribute value" attrvalue.html
measure "100 MB page (cap 32 MiB)" big.html
measure "100 MB page (cap 128 MiB)" big.html --config "$work/cap128.yaml"
measure "100 MB on one line, NULs" oneline.html
