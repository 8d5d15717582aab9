"""Terms the course writes in English that a Chinese learner may type in Chinese (the course's own
哈希 for a hash: 「去重的哈希集合」). One table, folded into both sides before a match: the quiz's
choices by their text (grader/quiz/answers.py) and the names matched by meaning
(grader/checks/truth/meaning.py)."""

from __future__ import annotations

SAME_WORDS = {"哈希值": "hash", "哈希": "hash"}  # the longer first: 哈希值 is one hash, not "hash 值"


def fold(text: str) -> str:
    """``text`` with each Chinese term of :data:`SAME_WORDS` as its English one, spaced as a word."""
    for zh, en in SAME_WORDS.items():
        text = text.replace(zh, f" {en} ")
    return text
