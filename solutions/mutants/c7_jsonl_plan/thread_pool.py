"""'Preprocessing is slow, use threads': a ThreadPool, which the GIL serialises for CPU-bound work."""

from multiprocessing.pool import ThreadPool

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import tokenize, unique_texts

KILLED_BY = ("parallel_tokenizing",)


def process_file(path, min_chars, n_workers):
    documents = tokens = 0
    with ThreadPool(n_workers) as pool:
        for ids in pool.imap(tokenize, unique_texts(path, min_chars), chunksize=64):
            documents += 1
            tokens += len(ids)
    return {"documents": documents, "tokens": tokens}
