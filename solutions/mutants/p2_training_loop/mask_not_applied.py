"""A hand-written loss that forgets the -100 mask: -100 targets are clamped to token 0 and
averaged in, so padding/prompt positions count as targets (part 3: ignore_index=-100 is the
SFT loss mask)."""

import torch.nn.functional as F

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("loss_value",)
MISCONCEPTION = "write a loss that forgets the mask: the ignored targets are clamped to token 0 and averaged in"


def _unmasked_cross_entropy(logits, y):
    logp = F.log_softmax(logits.float(), dim=-1)
    return -logp.gather(-1, y.clamp(min=0).unsqueeze(-1)).mean()


reference.masked_cross_entropy = _unmasked_cross_entropy
