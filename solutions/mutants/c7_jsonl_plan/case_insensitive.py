"""Near-dedupe by lower-casing: drops texts that differ only in case (exact dedupe must keep them)."""

import json

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import clean

KILLED_BY = ("exact_dedupe",)


def unique_texts(path, min_chars):
    seen = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            text = clean(json.loads(line)["text"])
            if len(text) >= min_chars and text.lower() not in seen:
                seen.add(text.lower())
                yield text
