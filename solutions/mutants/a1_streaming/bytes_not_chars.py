"""Measures text length in UTF-8 bytes instead of characters: "梯度" counts as 6, so short
Chinese texts pass the min_chars filter."""

from solutions.a1_streaming import *  # noqa: F401,F403
from solutions.a1_streaming import _counted

KILLED_BY = ("pipeline_counts",)


def keep_long(records, min_chars):
    for rec in records:
        if len(rec["text"].encode("utf-8")) >= min_chars:
            yield rec


def pipeline(path, min_chars):  # the reference pipeline, over the stages of this file
    c = {"read": 0, "kept": 0}
    stats = count_stats(dedupe(_counted(keep_long(_counted(read_jsonl(path), c, "read"), min_chars), c, "kept")))
    return {"read": c["read"], "kept": c["kept"], "unique": stats["records"], "chars": stats["chars"]}

