"""A valid C7 plan: concurrent.futures' ProcessPoolExecutor instead of multiprocessing.Pool."""

from concurrent.futures import ProcessPoolExecutor

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import tokenize, unique_texts

PASSES = ("parallel_tokenizing",)


def process_file(path, min_chars, n_workers):
    documents = tokens = 0
    with ProcessPoolExecutor(n_workers) as pool:
        for ids in pool.map(tokenize, unique_texts(path, min_chars), chunksize=32):
            documents += 1
            tokens += len(ids)
    return {"documents": documents, "tokens": tokens}
