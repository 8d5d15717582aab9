"""Seeds only the initial weight; the data come from the global, unseeded generator."""

import torch

from solutions.c6_trustworthy import *  # noqa: F403

KILLED_BY = ("seeded_reruns",)


def seeded_experiment(seed):
    g = torch.Generator().manual_seed(seed)
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    w = torch.randn(4, 1, generator=g)
    return float(((x @ w - y) ** 2).mean())
