#!/usr/bin/env python3
"""Deterministic scale corpus for `thresher dedup` (issue 15 item 4).

usage: gen_scale.py N OUT.jsonl [--seed 15]

N documents of about 2 KB (150-450 words; a third in Cyrillic words, so the UTF-8 path
is exercised) drawn from a Zipf-like vocabulary of 60,000 made-up words, one JSON object
a line: `id`, `text`, and for planted near-duplicates `parent` (the id of the document it
was made from) and `edit` (what was done). Planted: 10% of the documents are variants of
an earlier one (1-2% words substituted, a site header/footer added, or the last 5%
cut); variants join the pool documents are drawn from, so some are variants of
variants (re-post chains); plus 2,000 exact copies of one document (one huge bucket).
Same N and seed, same bytes.
"""
import argparse
import bisect
import itertools
import json
import random

ap = argparse.ArgumentParser()
ap.add_argument("n", type=int)
ap.add_argument("out")
ap.add_argument("--seed", type=int, default=15)
a = ap.parse_args()
rnd = random.Random(a.seed)

LAT = ["ka", "to", "ri", "mo", "ne", "sa", "lu", "pe", "di", "go", "ve", "zu", "ha", "bi",
       "co", "fa", "ja", "wi", "xo", "qu", "st", "tr", "an", "el", "in", "or", "us", "ex"]
CYR = ["ка", "то", "ри", "мо", "не", "са", "лу", "пе", "ди", "го", "ве", "зу", "ха", "би",
       "ко", "фа", "жа", "ви", "шо", "щу", "ст", "тр", "ан", "ел", "ин", "ор", "ус", "ёж"]


def vocabulary(syllables):
    words, seen = [], set()
    while len(words) < 30000:
        w = "".join(rnd.choice(syllables) for _ in range(rnd.choice((1, 2, 2, 3, 3, 4))))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


VOCAB = {"en": vocabulary(LAT), "ru": vocabulary(CYR)}
# Zipf weights (s = 1): a few very common words, a long tail.
CUM = list(itertools.accumulate(1.0 / (r + 1) for r in range(30000)))
HEADERS = ["Home | News | Contact | Subscribe to our newsletter",
           "Главная | Новости | Контакты | Подписаться на рассылку"]
FOOTERS = ["Copyright 2025 Example Media. All rights reserved. Privacy policy",
           "© 2025 Пример Медиа. Все права защищены. Политика конфиденциальности"]


def draw(lang, k):
    v = VOCAB[lang]
    return [v[bisect.bisect_left(CUM, x)] for x in (rnd.random() * CUM[-1] for _ in range(k))]


recent = []  # (id, lang, words) of recent base documents and variants
copies = min(2000, a.n // 20)
with open(a.out, "w", encoding="utf-8") as out:
    copy_words = None
    for i in range(a.n):
        rec = {"id": f"d{i:07d}"}
        if i < copies:
            if copy_words is None:
                copy_words = draw("en", 320)
            lang, words = "en", copy_words
            if i > 0:
                rec["parent"], rec["edit"] = "d0000000", "copy"
        elif recent and rnd.random() < 0.10:
            pid, lang, base = rnd.choice(recent)
            words = list(base)
            kind = rnd.choice(("substitute", "header", "truncate"))
            if kind == "substitute":
                for _ in range(max(1, int(len(words) * rnd.uniform(0.01, 0.02)))):
                    words[rnd.randrange(len(words))] = draw(lang, 1)[0]
            elif kind == "truncate":
                words = words[: int(len(words) * 0.95)]
            rec["parent"], rec["edit"] = pid, kind
        else:
            lang = "ru" if rnd.random() < 1 / 3 else "en"
            words = draw(lang, rnd.randint(150, 450) if lang == "en" else rnd.randint(130, 300))
        text = " ".join(words)
        if rec.get("edit") == "header":
            h = 1 if lang == "ru" else 0
            text = f"{HEADERS[h]}\n{text}\n{FOOTERS[h]}"
        rec["lang"] = lang
        rec["text"] = text
        # Variants of variants (re-post chains) happen because variants join `recent` too.
        if 0 < i < copies:
            pass
        elif len(recent) < 5000:
            recent.append((rec["id"], lang, words))
        elif rnd.random() < 0.5:
            recent[rnd.randrange(5000)] = (rec["id"], lang, words)
        out.write(json.dumps(rec, ensure_ascii=False) + "\n")
