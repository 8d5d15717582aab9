"""Builds the whole list of unique texts, then returns ``iter(list)``: an iterator to the caller, but
every kept text of the file is in memory before the first one is used.

The eager consumption evhub/coconut issue #580 reports of parallel_map ("consumes the entire input
before starting, which eats up a ton of memory") and santoshphilip/eppy issue #351 ("evaluates the
whole iterator before starting processing").
"""

import hashlib
import json

from solutions.c7_jsonl_plan import *  # noqa: F401,F403
from solutions.c7_jsonl_plan import clean

KILLED_BY = ("peak_memory",)
MISCONCEPTION = "collect every unique text in a list and return iter() of it: the texts are all in memory"


def unique_texts(path, min_chars):
    seen, out = set(), []
    with open(path, encoding="utf-8") as f:
        for line in f:
            text = clean(json.loads(line)["text"])
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            if len(text) >= min_chars and digest not in seen:
                seen.add(digest)
                out.append(text)
    return iter(out)
