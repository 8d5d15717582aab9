"""Knows no topic in either spelling: None for every one."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("part_topics",)


def part_of_topic(topic):
    return None
