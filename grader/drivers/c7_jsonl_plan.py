"""C7 drivers: run the learner's pipeline where it lives and report what it did. What they observe
inside the learner's process only adds reasons to fail; a pass rests on the results and on /proc
read from outside (grader/checks/test_c7_jsonl_plan.py).

``run_unique`` consumes ``unique_texts`` under tracemalloc and says whether it was a lazy
iterator, and how much memory had been traced when the FIRST text arrived (a list built up front
and returned as ``iter(list)`` has it all by then). ``run_pool`` runs ``process_file``: how it spreads
the tokenizing is the learner's to choose, and the check reads its effect from /proc.
"""

from __future__ import annotations

import gc
import hashlib
import tracemalloc


def run_unique(learner_module, *, path: str, min_chars: int) -> dict:
    gc.collect()
    tracemalloc.start()
    try:
        it = learner_module.unique_texts(path, min_chars)
        lazy = iter(it) is it and not isinstance(it, (list, tuple))
        digest, n, peak_first = hashlib.sha256(), 0, None
        for text in it:
            if peak_first is None:
                peak_first = tracemalloc.get_traced_memory()[1]
            digest.update(text.encode("utf-8") + b"\n")
            n += 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {
        "lazy": lazy,
        "n": n,
        "digest": digest.hexdigest(),
        "peak_bytes": peak,
        "peak_at_first_bytes": peak_first or 0,
    }


def run_pool(learner_module, *, path: str, min_chars: int, n_workers: int) -> dict:
    return {"result": learner_module.process_file(path, min_chars, n_workers)}
