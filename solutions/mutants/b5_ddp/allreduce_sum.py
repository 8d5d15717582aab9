"""All-reduce with a sum and no division: the gradient is n_gpus times too large."""

import torch

from solutions.b5_ddp import *  # noqa: F403

KILLED_BY = ("effective_batch",)


def allreduce_grads(rank_grads):
    return torch.stack(list(rank_grads)).sum(dim=0)
