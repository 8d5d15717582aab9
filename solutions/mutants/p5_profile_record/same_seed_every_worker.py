"""worker_init_fn seeds NumPy with the run's seed in EVERY worker: reproducible, but both workers
draw the same NumPy stream, so half the "random" augmentations are copies (part 1: workers are
forked processes; part 6: seed every RNG, per worker)."""

import functools

import numpy as np
import torch

from solutions.p5_profile_record import *  # noqa: F401,F403

KILLED_BY = ("seed_reproducible",)


def _same_seed(seed, worker_id):
    np.random.seed(seed)


def make_loader(dataset, seed, batch_size):
    return torch.utils.data.DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=True,
        num_workers=2,
        worker_init_fn=functools.partial(_same_seed, seed),
        generator=torch.Generator().manual_seed(seed),
    )
