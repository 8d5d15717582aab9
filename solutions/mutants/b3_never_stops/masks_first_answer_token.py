"""Masks one token too many at the prompt/answer border (the first answer token gets -100), as when
the response template is located one token off.

The border trouble of huggingface/trl issue #598 (the response template "tokenizes the first
characters differently because lack of context") and trl issue #1183 (the template not found in
the prompt): the first answer token must keep its label.
"""

from solutions.b3_never_stops import *  # noqa: F401,F403
from solutions.b3_never_stops import build_labels as _right

KILLED_BY = ("padded_batch_labels",)
MISCONCEPTION = "mask one token past the prompt: the first answer token loses its label"


def build_labels(input_ids, prompt_lens, lengths):
    return _right(input_ids, [min(p + 1, n) for p, n in zip(prompt_lens, lengths)], lengths)
