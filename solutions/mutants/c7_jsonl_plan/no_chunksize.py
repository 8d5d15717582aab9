"""A process pool, but every text is pickled on its own round-trip (chunksize left at 1)."""

import multiprocessing

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import tokenize, unique_texts

KILLED_BY = ("parallel_tokenizing",)


def process_file(path, min_chars, n_workers, chunksize):
    with multiprocessing.Pool(n_workers) as pool:
        ids = list(pool.imap(tokenize, unique_texts(path, min_chars)))
    return {"documents": len(ids), "tokens": sum(map(len, ids))}
