"""Uses float16 instead of bfloat16 for autocast: the matmul outputs come back fp16."""

import torch

from solutions.x3_autocast_dtypes import *  # noqa: F403
from solutions.mutants.x3_autocast_dtypes import _experiment

KILLED_BY = ("logits_dtype",)


def autocast_experiment(x, weight, bias, targets):
    return _experiment.autocast_experiment(
        x, weight, bias, targets, context=lambda: torch.autocast("cpu", dtype=torch.float16)
    )
