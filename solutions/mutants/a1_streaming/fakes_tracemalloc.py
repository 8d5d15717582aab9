"""Loads every record into a list, then fakes the memory measurement: it calls
tracemalloc.reset_peak() (and stops tracing) so an in-process tracemalloc peak looks tiny. The
list still peaks at ~5x the file in the process, which the grader reads from outside."""

import json
import tracemalloc

from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("peak_vs_file_size", "runs_under_rlimit")


def pipeline(path, min_chars):
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    if tracemalloc.is_tracing():
        tracemalloc.reset_peak()
        tracemalloc.stop()
    kept = [r for r in records if len(r["text"]) >= min_chars]
    seen, chars = set(), 0
    for r in kept:
        if r["text"] not in seen:
            seen.add(r["text"])
            chars += len(r["text"])
    return {"read": len(records), "kept": len(kept), "unique": len(seen), "chars": chars}
