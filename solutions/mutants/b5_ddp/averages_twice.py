"""Divides the averaged gradient by the number of ranks once more, as when the loss is divided by
world_size by hand before DDP's all-reduce averages it: gradients world_size times too small.

neuralmagic/sparseml PR #135 ("Fix incorrect loss scaling in DDP setup": DDP already takes the
mean of gradients across processes) and sanderwood/bgpt issue #5 ("if we do one another time here
... the gradient would be world_size times smaller than the value it should have").
"""

import torch

from solutions.b5_ddp import *  # noqa: F401,F403

KILLED_BY = ("effective_batch",)
MISCONCEPTION = (
    "divide by the number of ranks on top of the all-reduce mean: the gradient comes out world_size times too small"
)


def allreduce_grads(rank_grads):
    grads = list(rank_grads)
    return torch.stack(grads).mean(dim=0) / len(grads)
