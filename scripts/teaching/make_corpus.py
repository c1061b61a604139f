#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes resources/teaching/corpus.jsonl, the teaching corpus of the Trace page's lessons.

Deterministic (a fixed-seed LCG, no dependency on Python's random module). Every document has
exactly DOC_LEN tokens, so BM25 scores depend on term frequency alone and block maxima are easy
to read: the lessons' effects come from where each lesson's terms are placed (docs/teaching/).
The engine's block size is fixed at 128 postings, so the lists span several blocks: 2,048 docs.
"""
import json
import sys

N = 2048
DOC_LEN = 16

FILLER = """acorn alder anchor apple arch arrow aspen autumn badger bamboo barley basket beacon
bell birch blossom boulder bramble breeze bridge brook bucket cabin canal candle canyon cedar
cellar chalk cherry chimney cider clay cliff clover cobble comet coral cotton creek crow
cypress daisy dawn delta desert dew dune eagle elm ember fern ferry field fig flint fog
forest fountain fox frost gate glacier glade granite grape gravel grove gull hamlet hazel
heath hedge heron hill hollow honey horizon island ivy jasmine juniper kettle kite lake
larch lark laurel leaf ledge lemon lichen lily linen maple marsh meadow mill mint mist moon
moss moth nectar nest nettle oak oar oat olive orchard otter owl paddock pasture path peach
pebble pepper pier pine plum pond poplar poppy prairie quail quarry quill rain raven reed
ridge robin rose rowan rye saffron sage salt sand shore sky slate sleet snow sorrel sparrow
spring spruce star stream summit sun swallow swan thistle thorn thrush tide timber torrent
trail tulip tundra twig vine violet walnut wave wheat willow wind wren yarrow yew""".split()


class Lcg:
    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self, bound):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return (self.state >> 33) % bound


def lesson_terms(d):
    """The lesson terms of document d with their term frequencies."""
    t = {}
    # Lesson wand-pivot: "falcon river". river on every 4th doc, falcon on 32 of them.
    if d % 4 == 0:
        t["river"] = 1
    if d % 64 == 8:
        t["falcon"] = 1
    # Lesson bmw-blocks: "storm harbor". harbor on even docs, storm on docs = 2 mod 4; tf 1
    # everywhere except three warm docs at the start (they set the threshold) and a hot stretch
    # near the end (it sets the list maxima WAND must use everywhere).
    if d % 2 == 0:
        t["harbor"] = 4 if 1860 <= d < 1960 else 1
    if d % 4 == 2:
        t["storm"] = 3 if d in (2, 6, 10) else (5 if 1860 <= d < 1960 else 1)
    # Lesson maxscore-lists: "lantern garden stone". garden on odd docs, stone on multiples of 3,
    # lantern (tf 2) on 35 docs that hold both.
    if d % 2 == 1:
        t["garden"] = 1
    if d % 3 == 0:
        t["stone"] = 1
    if d % 60 == 3:
        t["lantern"] = 2
    # Lesson bulk-and-windows: "copper valley" (AND). copper on odd docs of [0, 640), valley on
    # odd docs of [640, 1280), both on docs = 1 mod 4 of [1280, 1792): tf 3 on the first 32 shared
    # docs, then tf 1.
    if d % 2 == 1 and d < 640:
        t["copper"] = 1
    if d % 2 == 1 and 640 <= d < 1280:
        t["valley"] = 1
    if d % 4 == 1 and 1280 <= d < 1792:
        tf = 3 if d < 1280 + 4 * 32 else 1
        t["copper"] = tf
        t["valley"] = tf
    # Lesson floor-mid-window: "amber signal" (AND, k = 2). signal on every doc of [1024, 1536),
    # amber on the even ones; tf 6 and 5 on the first two, tf 8 on doc 1250, else tf 1.
    if 1024 <= d < 1536:
        t["signal"] = 1
        if d % 2 == 0:
            t["amber"] = 6 if d == 1024 else (5 if d == 1026 else (8 if d == 1250 else 1))
    # Lesson ties-at-k: "quartz" (k = 4). 12 documents of identical length, tf 2 but one with tf 3.
    if d >= 100 and (d - 100) % 150 == 0 and (d - 100) // 150 < 12:
        t["quartz"] = 3 if (d - 100) // 150 == 8 else 2
    return t


def main(out):
    rng = Lcg(20261130)
    with open(out, "w", encoding="utf-8") as f:
        for d in range(N):
            terms = lesson_terms(d)
            words = [w for w, tf in terms.items() for _ in range(tf)]
            if len(words) > DOC_LEN:
                sys.exit(f"doc {d}: {len(words)} lesson tokens > {DOC_LEN}")
            pool = list(FILLER)
            while len(words) < DOC_LEN:
                words.append(pool.pop(rng.next(len(pool))))
            # Shuffle so lesson words are not always first (Fisher-Yates with the same LCG).
            for i in range(len(words) - 1, 0, -1):
                j = rng.next(i + 1)
                words[i], words[j] = words[j], words[i]
            f.write(json.dumps({"_id": f"t{d:04d}", "text": " ".join(words)}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "resources/teaching/corpus.jsonl")
