"""ProcessPoolExecutor.map over the generator: real worker processes, right results, but map
submits every text at once (a future per chunk of the whole input) before yielding the first
result, so every text and every token list is held: python/cpython#74508 ("concurrent.futures.
Executor.map() consumes all memory when big generators are used"). Part 1: 「内存里只有一条记录加去重的
哈希集合」. Issue 29 found the same with Pool.map passing."""

from concurrent.futures import ProcessPoolExecutor

from solutions.c7_jsonl_plan import *  # noqa: F403
from solutions.c7_jsonl_plan import tokenize, unique_texts

KILLED_BY = ("parallel_tokenizing",)
MISCONCEPTION = "use Executor.map on the generator: it submits the whole input at once and holds every result"


def process_file(path, min_chars, n_workers):
    documents = tokens = 0
    with ProcessPoolExecutor(n_workers) as pool:
        for ids in pool.map(tokenize, unique_texts(path, min_chars), chunksize=32):
            documents += 1
            tokens += len(ids)
    return {"documents": documents, "tokens": tokens}
