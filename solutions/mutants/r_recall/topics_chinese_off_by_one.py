"""Right for the English spelling of a topic, one part off for its Chinese spelling."""

from grader.given.recall_topics import TOPICS_ZH
from solutions.r_recall import *  # noqa: F401,F403
from solutions.r_recall import PART_OF_TOPIC

KILLED_BY = ("part_topics",)
BY_CHINESE = {TOPICS_ZH[t]: part % 6 + 1 for t, part in PART_OF_TOPIC.items()}


def part_of_topic(topic):
    return PART_OF_TOPIC.get(topic) or BY_CHINESE[topic]
