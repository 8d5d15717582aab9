"""A reproducible loader without a worker_init_fn: a torch.Generator seeded with the run's seed,
given to the DataLoader. Since torch 1.9 every worker seeds its own ``random``, NumPy and torch
RNGs from the loader's base seed (torch/utils/data/_utils/worker.py), which the generator decides
and which changes every epoch. The course asks for the property (同 seed 两次一致), not for a
worker_init_fn; issue 23 found the hint saying one is needed while the check passed this."""

import torch

from solutions.p5_profile_record import *  # noqa: F403

PASSES = ("seed_reproducible",)


def make_loader(dataset, seed, batch_size):
    return torch.utils.data.DataLoader(
        dataset, batch_size=batch_size, shuffle=True, num_workers=2, generator=torch.Generator().manual_seed(seed)
    )
