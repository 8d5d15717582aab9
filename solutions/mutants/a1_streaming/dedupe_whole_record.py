"""Dedupes on the whole record (json.dumps of the dict) instead of its text: records with the
same text but different ids all survive."""

import hashlib
import json

import solutions.a1_streaming as reference
from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("pipeline_counts",)


def dedupe(records):
    seen = set()
    for rec in records:
        h = hashlib.sha1(json.dumps(rec, sort_keys=True).encode()).digest()
        if h not in seen:
            seen.add(h)
            yield rec


reference.dedupe = dedupe  # the reference pipeline calls it by its module's name
