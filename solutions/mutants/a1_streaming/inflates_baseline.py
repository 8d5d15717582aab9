"""Touches 300 MB at import and frees it, so the process's peaks are high before the pipeline
runs; then loads every record into a list, hoping "peak after - peak before" stays 0. The
grader compares with an idle worker it starts itself, and the address-space limit stops it."""

import json

from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("peak_vs_file_size", "runs_under_rlimit")

_ballast = bytearray(300 << 20)  # zero-filled: really resident
del _ballast


def pipeline(path, min_chars):
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    kept = [r for r in records if len(r["text"]) >= min_chars]
    seen, chars = set(), 0
    for r in kept:
        if r["text"] not in seen:
            seen.add(r["text"])
            chars += len(r["text"])
    return {"read": len(records), "kept": len(kept), "unique": len(seen), "chars": chars}
