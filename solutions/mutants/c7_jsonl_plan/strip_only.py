"""Cleans with ``text.strip()`` only: inner runs of whitespace stay, so "a  b" and "a b" are kept as
two documents and the dedupe misses them.

OpenAgentHQ/openagent-eval issue #225: the docstring promised "whitespace-normalized" but the code
did only ``.strip().lower()``, so "hello  world" and "hello world" differed (fix: ``" ".join(
text.split())``, what the stub asks for); huggingface/transformers PR #18023 ("the current exact
deduplication doesn't ignore whitespaces before computing the hash") and NVIDIA-NeMo/Curator PR
#2247 (a "trim whitespace" normaliser that must also collapse interior whitespace).
"""

from solutions.c7_jsonl_plan import *  # noqa: F401,F403
import solutions.c7_jsonl_plan as reference

KILLED_BY = ("exact_dedupe",)
MISCONCEPTION = "strip only the ends: inner runs of whitespace must collapse to one space before the dedupe"


def clean(text):
    return text.strip()


reference.clean = clean
