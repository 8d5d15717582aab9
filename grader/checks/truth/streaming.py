"""JSONL files generated here and counted with a plain loop, and the list approach's memory
peak measured with tracemalloc (A1's ground truth, the quiz's)."""

from __future__ import annotations

import functools
import gc
import json
import os
import random
import tempfile
import tracemalloc

WORDS = ["the", "model", "loss", "token", "批次", "梯度", "data", "train", "eval", "shape", "内存", "step"]
MB = 1 << 20


def generate(path, n_lines: int, *, unique: int, seed: int, blank_rate: float = 0.0) -> None:
    """``n_lines`` records whose texts come from ``unique`` distinct texts of 1..24 words."""
    rng = random.Random(seed)
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 24))) for _ in range(unique)]
    # Each text JSON-encoded once, each record as json.dumps(rec, ensure_ascii=False) writes it (its
    # separators, float repr; the same draws in the same order): json.dumps per record was most of
    # the time of a 16 MB file, which A1 generates three times per grading.
    texts = [json.dumps(text, ensure_ascii=False) for text in pool]
    lines = []
    for i in range(n_lines):
        if rng.random() < blank_rate:
            lines.append(rng.choice(["\n", "  \n"]))
        text, lang, score = rng.choice(texts), rng.choice(["en", "zh"]), round(rng.random(), 3)
        lines.append(f'{{"id": {i}, "text": {text}, "lang": "{lang}", "score": {score!r}}}\n')
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)
    os.chmod(path, 0o644)


def generate_mb(path, size_mb: float, *, seed: int) -> None:
    generate(path, int(size_mb * MB / 128), unique=800, seed=seed)  # ~128 bytes a line


def expected_counts(path, min_chars: int) -> dict:
    """read -> keep len(text) >= min_chars -> exact dedupe -> count, one line at a time."""
    read = kept = 0
    seen, chars = set(), 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            read += 1
            if len(rec["text"]) >= min_chars:
                kept += 1
                if rec["text"] not in seen:
                    seen.add(rec["text"])
                    chars += len(rec["text"])
    return {"read": read, "kept": kept, "unique": len(seen), "chars": chars}


def list_peak_factor(path) -> float:
    """The list approach measured: traced peak of loading every record into a list / file bytes."""
    gc.collect()
    tracemalloc.start()
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del records
    return peak / os.path.getsize(path)


@functools.cache
def measured_factor() -> float:
    """The list approach's peak factor on a 1 MB file of these records (measured once)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "factor-1mb.jsonl")
        generate_mb(path, 1, seed=0)
        return list_peak_factor(path)
