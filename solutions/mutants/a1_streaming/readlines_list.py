"""Reads the file with readlines(): every line is in a list before the first record is parsed,
so the peak grows with the file (8 MB of lines for an 8 MB file)."""

import json

from solutions.a1_streaming import *  # noqa: F401,F403
from solutions.a1_streaming import _counted

KILLED_BY = ("peak_vs_file_size", "runs_under_rlimit")


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    for line in lines:
        if line.strip():
            yield json.loads(line)


def pipeline(path, min_chars):  # the reference pipeline, over the stages of this file
    c = {"read": 0, "kept": 0}
    stats = count_stats(dedupe(_counted(keep_long(_counted(read_jsonl(path), c, "read"), min_chars), c, "kept")))
    return {"read": c["read"], "kept": c["kept"], "unique": stats["records"], "chars": stats["chars"]}

