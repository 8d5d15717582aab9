"""Reads the whole file into a list first (readlines), then filters: memory grows with the file."""

import hashlib
import json

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import clean

KILLED_BY = ("peak_memory",)


def unique_texts(path, min_chars):
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f.readlines()]
    seen, out = set(), []
    for r in records:
        text = clean(r["text"])
        digest = hashlib.sha256(text.encode()).digest()
        if len(text) >= min_chars and digest not in seen:
            seen.add(digest)
            out.append(text)
    return out
