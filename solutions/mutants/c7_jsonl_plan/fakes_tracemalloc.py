"""Reads the whole file into a list, hands back an iterator over it (it looks lazy) and patches
tracemalloc to report no peak: everything observed inside its process looks streamed. The
peak resident memory the kernel records (VmHWM, read from outside) still grows with the file."""

import json
import tracemalloc

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import clean

KILLED_BY = ("peak_memory",)

tracemalloc.get_traced_memory = lambda: (0, 0)


def unique_texts(path, min_chars):
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    seen, out = set(), []
    for r in records:
        text = clean(r["text"])
        if len(text) >= min_chars and text not in seen:
            seen.add(text)
            out.append(text)
    return iter(out)
