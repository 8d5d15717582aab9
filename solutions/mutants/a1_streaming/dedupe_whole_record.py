"""Dedupes on the whole record (json.dumps of the dict) instead of its text: records with the
same text but different ids all survive."""

import hashlib
import json

from solutions.a1_streaming import *  # noqa: F401,F403
from solutions.a1_streaming import _counted

KILLED_BY = ("pipeline_counts",)


def dedupe(records):
    seen = set()
    for rec in records:
        h = hashlib.sha1(json.dumps(rec, sort_keys=True).encode()).digest()
        if h not in seen:
            seen.add(h)
            yield rec


def pipeline(path, min_chars):  # the reference pipeline, over the stages of this file
    c = {"read": 0, "kept": 0}
    stats = count_stats(dedupe(_counted(keep_long(_counted(read_jsonl(path), c, "read"), min_chars), c, "kept")))
    return {"read": c["read"], "kept": c["kept"], "unique": stats["records"], "chars": stats["chars"]}

