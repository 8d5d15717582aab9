"""Reads the whole file and splits it (``f.read().splitlines()``), skipping blank lines correctly:
the counts are right, but the file's whole text is in memory at once.

How microsoft/graphrag's JSONL reader read its input (issue #2424: "parses every line returned by
text.splitlines()"); fine for small files, a 10 GB corpus needs 10 GB for the text alone.
tteon/seocho PR #186 replaced ``path.read_text().splitlines()`` in its read_jsonl_file with lazy
iteration for exactly that ("an O(N) memory allocation spike"); vertexproject/synapse PR #144's
review asked the same of ``readlines()`` ("would preclude ingest of files too large to lift into
RAM").
"""

import json

import solutions.a1_streaming as reference
from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("peak_vs_file_size", "runs_under_rlimit")
MISCONCEPTION = "read the whole file and split it into lines: the text is in memory at once"


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for line in text.splitlines():
        if line.strip():
            yield json.loads(line)


reference.read_jsonl = read_jsonl  # the reference pipeline calls it by its module's name
