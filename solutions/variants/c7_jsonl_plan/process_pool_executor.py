"""A valid C7 plan: concurrent.futures' ProcessPoolExecutor instead of multiprocessing.Pool, with a
bounded window of pending futures (Executor.map would submit the whole input at once)."""

import collections
from concurrent.futures import ProcessPoolExecutor

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import tokenize, unique_texts

PASSES = ("parallel_tokenizing",)
WINDOW = 256  # texts in flight at most


def process_file(path, min_chars, n_workers):
    documents = tokens = 0
    pending = collections.deque()
    with ProcessPoolExecutor(n_workers) as pool:
        for text in unique_texts(path, min_chars):
            pending.append(pool.submit(tokenize, text))
            if len(pending) >= WINDOW:
                documents, tokens = documents + 1, tokens + len(pending.popleft().result())
        while pending:
            documents, tokens = documents + 1, tokens + len(pending.popleft().result())
    return {"documents": documents, "tokens": tokens}
