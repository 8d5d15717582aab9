"""Files the inference-side numbers (KV cache, decode floor) under part 4, memory arithmetic."""

from grader.given.recall_topics import DECODE_FLOOR, KV_CACHE
from solutions.r_recall import *  # noqa: F401,F403
from solutions.r_recall import part_of_topic as _right

KILLED_BY = ("part_topics",)


def part_of_topic(topic):
    if topic in (KV_CACHE, DECODE_FLOOR):
        return 4
    return _right(topic)
