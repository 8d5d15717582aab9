"""Shifts the labels one position left itself (label t = token t + 1): the model shifts them again
inside, so it trains next-next-token prediction, and the EOS label lands one position early.

huggingface/transformers PR #44642 ("causal LM models shift labels internally. This has tripped up
a lot of users who pre-shift their labels and end up training next-next-token prediction by
accident"); InternLM/InternLM issue #318 asks the same about a double shift.
"""

import torch

from solutions.b3_never_stops import *  # noqa: F401,F403
from solutions.b3_never_stops import build_labels as _right

KILLED_BY = ("padded_batch_labels",)
MISCONCEPTION = "shift the labels yourself: the model shifts them inside, so they end up shifted twice"


def build_labels(input_ids, prompt_lens, lengths):
    labels = _right(input_ids, prompt_lens, lengths)
    shifted = torch.full_like(labels, -100)
    shifted[:, :-1] = labels[:, 1:]
    return shifted
