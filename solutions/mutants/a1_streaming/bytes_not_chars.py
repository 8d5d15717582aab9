"""Measures text length in UTF-8 bytes instead of characters: "梯度" counts as 6, so short
Chinese texts pass the min_chars filter."""

import solutions.a1_streaming as reference
from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("pipeline_counts",)


def keep_long(records, min_chars):
    for rec in records:
        if len(rec["text"].encode("utf-8")) >= min_chars:
            yield rec


reference.keep_long = keep_long  # the reference pipeline calls it by its module's name
