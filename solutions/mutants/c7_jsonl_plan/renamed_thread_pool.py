"""A thread pool under the name Pool: its class looks like a process pool from inside, but the GIL
still serialises the tokenizing and no worker process does any of it."""

from multiprocessing.pool import ThreadPool

import solutions.mutants.c7_jsonl_plan.thread_pool as thread_pool
from solutions.mutants.c7_jsonl_plan.thread_pool import *  # noqa: F403

KILLED_BY = ("parallel_tokenizing",)


class Pool(ThreadPool):
    pass


thread_pool.ThreadPool = Pool  # thread_pool's process_file, with the renamed class
