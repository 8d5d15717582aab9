"""C7's texts: raw documents drawn with repeats and near-repeats, their serial clean -> filter ->
exact dedupe, and the course's answer to why processes fall short of linear (the quiz's too)."""

from __future__ import annotations

import random

WORDS = ["the", "GIL", "数据", "token", "café", "Pool", "generator", "x", "héllo", "batch", "loss", "ok"]

# The course's answer to "为什么进程到不了 8×" (part 1, must-remember: 「差在进程启动与 pickle，chunksize 是最重要的
# 旋钮」); issue 23: the follow-up was graded with Amdahl's law, which the course never gives.
COURSE_CAUSES = frozenset({"startup", "serialization"})


def make_docs(seed: int, n: int, max_words: int = 12) -> list[str]:
    """Raw texts with exact repeats, whitespace-only variants, case variants and short ones."""
    rng = random.Random(seed)
    docs = []
    for _ in range(n):
        r = rng.random()
        if docs and r < 0.2:
            docs.append(rng.choice(docs))  # exact repeat
        elif docs and r < 0.35:
            words = rng.choice(docs).split()
            docs.append(rng.choice(["  ", "\t", " \n "]).join(words) + rng.choice(["", " ", "\n"]))  # same once cleaned
        elif docs and r < 0.45:
            docs.append(rng.choice(docs).upper())  # a different text: exact dedupe keeps it
        else:
            docs.append(" ".join(rng.choices(WORDS, k=rng.randint(1, max_words))))
    return docs


def serial(docs, min_chars) -> list[str]:
    """Whitespace collapsed, texts shorter than ``min_chars`` dropped, exact repeats dropped (first kept)."""
    seen, out = set(), []
    for d in docs:
        t = " ".join(d.split())
        if len(t) >= min_chars and t not in seen:
            seen.add(t)
            out.append(t)
    return out
