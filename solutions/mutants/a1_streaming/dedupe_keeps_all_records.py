"""Dedupe keeps every record: it collects the whole stream into a list first ("you cannot dedupe
without seeing everything"), so all parsed records (~5x the file) are in memory at once."""

from solutions.a1_streaming import *  # noqa: F401,F403
from solutions.a1_streaming import _counted

KILLED_BY = ("peak_vs_file_size", "runs_under_rlimit")


def dedupe(records):
    all_records = list(records)
    seen = set()
    for rec in all_records:
        if rec["text"] not in seen:
            seen.add(rec["text"])
            yield rec


def pipeline(path, min_chars):  # the reference pipeline, over the stages of this file
    c = {"read": 0, "kept": 0}
    stats = count_stats(dedupe(_counted(keep_long(_counted(read_jsonl(path), c, "read"), min_chars), c, "kept")))
    return {"read": c["read"], "kept": c["kept"], "unique": stats["records"], "chars": stats["chars"]}

