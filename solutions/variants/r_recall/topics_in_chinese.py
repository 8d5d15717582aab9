"""part_of_topic keyed by each topic's Chinese spelling (TOPICS_ZH), as a learner who reads only Chinese
writes it: an English spelling is not a key of its table (KeyError).

Valid: the stub accepts either spelling of a topic.
"""

from grader.given.recall_topics import TOPICS_ZH
from solutions.r_recall import *  # noqa: F403
from solutions.r_recall import PART_OF_TOPIC

PASSES = ("part_topics",)
BY_CHINESE = {TOPICS_ZH[t]: part for t, part in PART_OF_TOPIC.items()}


def part_of_topic(topic: str) -> int:
    return BY_CHINESE[topic]
