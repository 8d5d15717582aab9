"""A valid C7 plan, and a better one: the workers tokenize and send back only each chunk's counts,
so no token list is pickled back to the parent. The yardstick of where the CPU time went must be
the tokenizing the answer cannot avoid, not the pickling a good design avoids."""

import itertools
import multiprocessing

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import unique_texts

PASSES = ("parallel_tokenizing",)
CHUNK = 64  # texts per task


def count_chunk(texts):
    return len(texts), sum(len(tokenize(t)) for t in texts)  # noqa: F405 - the module's own tokenize


def _chunks(texts):
    it = iter(texts)
    while chunk := list(itertools.islice(it, CHUNK)):
        yield chunk


def process_file(path, min_chars, n_workers):
    documents = tokens = 0
    with multiprocessing.Pool(n_workers) as pool:
        for d, t in pool.imap_unordered(count_chunk, _chunks(unique_texts(path, min_chars))):
            documents, tokens = documents + d, tokens + t
    return {"documents": documents, "tokens": tokens}
