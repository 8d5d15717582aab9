"""Seeds each worker's numpy and random with ``seed + worker_id``: reproducible, different across
workers, and the same every epoch, so every epoch repeats the first epoch's "random" augmentations.

The bug of mapooon/SelfBlendedImages issue #27 (the worker_init_fn's numpy state "in different
epochs is the same") and xingyizhou/CenterNet issue #233 ("once we finish with an epoch, the next
time around, all the workers will again start with the same initial numpy seed"), after
pytorch/pytorch issue #5059.
"""

import random

import numpy as np
import torch

from solutions.p5_profile_record import *  # noqa: F401,F403

KILLED_BY = ("seed_reproducible",)
MISCONCEPTION = "seed each worker with the run's seed + worker_id: every epoch repeats the same noise"


def make_loader(dataset, seed, batch_size):
    def seed_worker(worker_id):
        np.random.seed(seed + worker_id)
        random.seed(seed + worker_id)
        torch.manual_seed(seed + worker_id)

    g = torch.Generator().manual_seed(seed)
    return torch.utils.data.DataLoader(
        dataset, batch_size=batch_size, shuffle=True, num_workers=2, worker_init_fn=seed_worker, generator=g
    )
