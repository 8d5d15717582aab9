"""Keeps only the answer: labels end at lengths - 1, so the EOS is not in the loss."""

from solutions.b3_never_stops import *  # noqa: F401,F403
from solutions.b3_never_stops import build_labels as _build

KILLED_BY = ("padded_batch_labels",)


def build_labels(input_ids, prompt_lens, lengths):
    return _build(input_ids, prompt_lens, [n - 1 for n in lengths])
