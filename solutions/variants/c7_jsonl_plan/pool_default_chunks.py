"""A valid C7 plan: a process pool left at its default chunksize (each text pickled on its own
round-trip). Slower than batching the texts, but the tokenizing runs in worker processes: the
contract asks for the cores, not for a recipe."""

import multiprocessing

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import tokenize, unique_texts

PASSES = ("parallel_tokenizing",)


def process_file(path, min_chars, n_workers):
    documents = tokens = 0
    with multiprocessing.Pool(n_workers) as pool:
        for ids in pool.imap(tokenize, unique_texts(path, min_chars)):
            documents, tokens = documents + 1, tokens + len(ids)
    return {"documents": documents, "tokens": tokens}
