"""A1 — streaming a JSONL corpus (part 7, §五.A question 1; part 1, generators)."""

import hashlib
import json

LIST_PEAK_FACTOR = 5.3  # part 1: 19.4 MB of JSONL -> 102.9 MB as a list of dicts


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        for line in f:  # one line at a time
            if line.strip():
                yield json.loads(line)


def keep_long(records, min_chars):
    for rec in records:
        if len(rec["text"]) >= min_chars:
            yield rec


def dedupe(records):
    seen = set()  # 20-byte digests, one per distinct text
    for rec in records:
        h = hashlib.sha1(rec["text"].encode("utf-8")).digest()
        if h not in seen:
            seen.add(h)
            yield rec


def count_stats(records):
    n = chars = 0
    for rec in records:
        n += 1
        chars += len(rec["text"])
    return {"records": n, "chars": chars}


def _counted(records, counter, key):
    for rec in records:
        counter[key] += 1
        yield rec


def pipeline(path, min_chars):
    c = {"read": 0, "kept": 0}
    stats = count_stats(dedupe(_counted(keep_long(_counted(read_jsonl(path), c, "read"), min_chars), c, "kept")))
    return {"read": c["read"], "kept": c["kept"], "unique": stats["records"], "chars": stats["chars"]}


def fits_in_memory(file_gb, ram_gb):
    return file_gb * LIST_PEAK_FACTOR <= ram_gb
