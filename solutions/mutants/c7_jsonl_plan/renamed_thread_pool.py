"""A thread pool under the name Pool: its class looks like a process pool from inside, but the GIL
still serialises the tokenizing and no worker process does any of it."""

from multiprocessing.pool import ThreadPool

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import tokenize, unique_texts

KILLED_BY = ("process_pool",)


class Pool(ThreadPool):
    pass


def process_file(path, min_chars, n_workers, chunksize):
    documents = tokens = 0
    with Pool(n_workers) as pool:
        for ids in pool.imap(tokenize, unique_texts(path, min_chars), chunksize=chunksize):
            documents += 1
            tokens += len(ids)
    return {"documents": documents, "tokens": tokens}
