"""Loads every record into a list, then resets the kernel's peak-resident counter (writes 5 to
/proc/self/clear_refs) so VmHWM no longer shows the list. The peak address space (VmPeak) cannot
be reset, and an address-space limit stops it anyway."""

import json

from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("peak_vs_file_size", "runs_under_rlimit")


def pipeline(path, min_chars):
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    kept = [r for r in records if len(r["text"]) >= min_chars]
    seen, chars = set(), 0
    for r in kept:
        if r["text"] not in seen:
            seen.add(r["text"])
            chars += len(r["text"])
    out = {"read": len(records), "kept": len(kept), "unique": len(seen), "chars": chars}
    del records, kept
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    return out
