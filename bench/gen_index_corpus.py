#!/usr/bin/env python3
"""Deterministic synthetic corpus for the dedup scale benchmarks (issue 15 item 4).

Writes N JSONL documents of about 2 KB of text ({id, fetched_at, popularity, text}):
base documents are ~300 words drawn from a Zipf-weighted vocabulary of 50,000
pseudo-words; a share of the documents (--dup-share, default 0.2) are near copies of an
earlier base document with 0-10 % of their words replaced, so that dedup has clusters of
every size to find. Same arguments, same bytes (random.Random(seed) only).

    python3 bench/gen_index_corpus.py --docs 1000000 --out /tmp/gen1m.jsonl
"""

import argparse
import json
import random


def vocabulary(rng, n):
    syllables = [c + v for c in "bcdfghjklmnprstvwz" for v in "aeiouy"]
    words = set()
    while len(words) < n:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))))
    return sorted(words)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=1_000_000)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--dup-share", type=float, default=0.2)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    vocab = vocabulary(rng, 50_000)
    cum, total = [], 0.0
    for rank in range(1, len(vocab) + 1):
        total += 1.0 / rank
        cum.append(total)
    bases = []  # recent base documents (word lists) that copies are made of
    with open(args.out, "w") as out:
        for i in range(args.docs):
            if bases and rng.random() < args.dup_share:
                words = list(rng.choice(bases))
                for _ in range(int(len(words) * rng.uniform(0.0, 0.10))):
                    words[rng.randrange(len(words))] = rng.choices(vocab, cum_weights=cum)[0]
            else:
                words = rng.choices(vocab, cum_weights=cum, k=rng.randint(250, 350))
                bases.append(words)
                if len(bases) > 5000:
                    bases[rng.randrange(len(bases))] = bases[-1]
                    bases.pop()
            rec = {
                "id": f"doc{i:07d}",
                "fetched_at": f"2025-{1 + rng.randrange(12):02d}-{1 + rng.randrange(28):02d}T00:00:00Z",
                "popularity": rng.randrange(100),
                "text": " ".join(words),
            }
            out.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
