"""Keeps texts strictly longer than ``min_chars`` (``>``) instead of at least ``min_chars`` (``>=``):
a text of exactly ``min_chars`` characters is dropped.

The inclusive/exclusive slip NanoFilt had (wdecoster/nanofilt issue #31: "the quality has to be
higher: quality > 10; the length has to be same or higher: length >= 500 ... I'll have to
change that"); the stub says "at least".
"""

import solutions.a1_streaming as reference
from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("pipeline_counts",)
MISCONCEPTION = "keep texts longer than min_chars (>) instead of at least min_chars (>=)"


def keep_long(records, min_chars):
    for rec in records:
        if len(rec["text"]) > min_chars:
            yield rec


reference.keep_long = keep_long  # the reference pipeline calls it by its module's name
