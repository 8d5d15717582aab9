"""Skips only empty lines (``if line != "\\n"``), so a whitespace-only line reaches ``json.loads``
and raises JSONDecodeError.

The blank-line bug of microsoft/graphrag issue #2424 ("If a .jsonl file contains an accidental
blank or whitespace-only line ... json.loads raises JSONDecodeError") and microsoft/PyRIT PR #1479
("a JSONL file with an empty line or a whitespace-only separator fails immediately").
"""

import json

import solutions.a1_streaming as reference
from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("pipeline_counts",)
MISCONCEPTION = "skip only empty lines: a line of spaces reaches json.loads and raises"


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line != "\n":
                yield json.loads(line)


reference.read_jsonl = read_jsonl  # the reference pipeline calls it by its module's name
