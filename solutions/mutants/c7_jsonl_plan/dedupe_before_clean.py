"""Deduplicates the raw texts before cleaning: whitespace variants of one text all survive."""

import hashlib
import json

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import clean

KILLED_BY = ("exact_dedupe",)


def unique_texts(path, min_chars):
    seen = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            raw = json.loads(line)["text"]
            digest = hashlib.sha256(raw.encode()).digest()
            if digest in seen:
                continue
            seen.add(digest)
            text = clean(raw)
            if len(text) >= min_chars:
                yield text
