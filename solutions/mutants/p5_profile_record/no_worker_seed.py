"""Missing seed handling for the workers: seeds NumPy and random in the main process only and
gives the DataLoader no generator. Each worker's seed is drawn from torch's unseeded global RNG,
so two runs with the same seed differ (part 6: same seed twice must give the same number)."""

import random

import numpy as np
import torch

from solutions.p5_profile_record import *  # noqa: F401,F403

KILLED_BY = ("seed_reproducible",)


def make_loader(dataset, seed, batch_size):
    np.random.seed(seed)
    random.seed(seed)
    return torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=2)
