"""Tokenizes with ``Pool.map``: correct results and real worker processes, but ``map`` first turns
the generator into a list of every text (``if not hasattr(iterable, '__len__'): iterable =
list(iterable)`` in multiprocessing/pool.py) and returns every token list at once. The part 1
lesson the course's 10 GB question rests on (「内存里只有一条记录加去重的哈希集合」) is lost after the
generator. The bug report santoshphilip/eppy#351 ("multiprocessing.Pool.map isn't lazy enough":
"evaluates the whole iterator before starting processing"), and python/cpython PR #8324, which
added to map's documentation "it may cause high memory usage for very long iterables. Consider
using imap or imap_unordered with explicit chunksize". Issue 29 found it passing."""

import multiprocessing

from solutions.c7_jsonl_plan import *  # noqa: F403

KILLED_BY = ("parallel_tokenizing",)
MISCONCEPTION = "use Pool.map on the generator: it makes a list of every text first and returns every result at once"


def process_file(path, min_chars, n_workers):
    with multiprocessing.Pool(n_workers) as pool:
        results = pool.map(tokenize, unique_texts(path, min_chars), chunksize=64)
    return {"documents": len(results), "tokens": sum(len(ids) for ids in results)}
