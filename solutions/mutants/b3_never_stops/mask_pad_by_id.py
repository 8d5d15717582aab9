"""Masks padding by token id (labels[input_ids == pad] = -100 with the pad id read from the last
column): right while pad != EOS, but with pad_token = eos_token every real EOS is masked."""

from solutions.b3_never_stops import *  # noqa: F401,F403
from solutions.b3_never_stops import build_labels as _build

KILLED_BY = ("padded_batch_labels",)


def build_labels(input_ids, prompt_lens, lengths):
    labels = _build(input_ids, prompt_lens, lengths)
    T = input_ids.shape[1]
    padded = [i for i, n in enumerate(lengths) if n < T]
    if padded:
        pad = int(input_ids[padded[0], -1])
        labels[input_ids == pad] = -100
    return labels
