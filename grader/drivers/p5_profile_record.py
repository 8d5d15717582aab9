"""P5 driver: a DataLoader with worker processes around the learner's ``make_loader``, and the
run record written to the learner's own temp folder and read back.

``seeded_batches``: first the global RNGs are reseeded from the OS (as in a fresh process), so
only the learner's own seeding makes a run reproducible; a dataset whose ``__getitem__`` adds
noise from NumPy's and Python's global RNGs and from torch, read through the learner's loader.
Returns the batches as they came (every sample's index and noise: numpy, random, torch parts),
per epoch (``epochs`` > 1 iterates the loader that many times, new workers each epoch, as in
training). The metric is computed by the check, in its own process, from those batches
(:func:`final_loss`: a tiny linear model's SGD steps on them); it reads duplicated worker
streams and repeated epochs from the noise.
"""

from __future__ import annotations

import json
import random
import tempfile

import numpy as np
import torch


class NoisyDataset(torch.utils.data.Dataset):
    def __init__(self, n: int = 64, dim: int = 4):
        g = torch.Generator().manual_seed(1234)
        self.x = torch.randn(n, dim, generator=g)
        self.w = torch.randn(dim, generator=g)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        noise = torch.tensor([float(np.random.normal()), random.gauss(0.0, 1.0), float(torch.randn(()))])
        return self.x[i], self.target(self.x[i], noise), noise, i

    def target(self, x, noise):
        return x @ self.w + 0.5 * noise.sum(-1)


def final_loss(epochs: list) -> float:
    """The metric of a run, from its batches (``[[{"indices", "noise"}, ...] per epoch]``): the
    last loss of SGD on a tiny linear model fed those batches in order. The check calls it in its
    own process on what came back."""
    data, model = NoisyDataset(), torch.nn.Linear(4, 1)
    with torch.no_grad():  # a fixed init that does not touch the global RNG
        model.weight.copy_(torch.randn(model.weight.shape, generator=torch.Generator().manual_seed(0)))
        model.bias.zero_()
    params = list(model.parameters())
    loss = float("nan")
    for batch in (b for epoch in epochs for b in epoch):
        x = data.x[torch.as_tensor(batch["indices"], dtype=torch.long)]
        y = data.target(x, torch.tensor(batch["noise"], dtype=torch.float32))
        step = torch.nn.functional.mse_loss(model(x).squeeze(-1), y)
        grads = torch.autograd.grad(step, params)  # this batch's gradients, returned (plain SGD, lr 0.05)
        with torch.no_grad():
            for p, g in zip(params, grads, strict=True):
                p -= 0.05 * g
        loss = float(step.detach())
    return loss


def seeded_batches(learner_module, *, seed: int, batch_size: int = 8, epochs: int = 1) -> dict:
    torch.set_num_threads(1)
    torch.seed()  # the global torch RNG as a fresh process finds it: only the learner's seeding counts
    np.random.seed(None)
    random.seed(None)
    loader = learner_module.make_loader(NoisyDataset(), seed, batch_size)
    if not isinstance(loader, torch.utils.data.DataLoader):
        return {"error": f"make_loader returned {type(loader).__name__}, not a DataLoader"}
    epoch_batches = []
    for _ in range(epochs):
        epoch_batches.append([{"indices": idx.tolist(), "noise": noise.tolist()} for _, _, noise, idx in loader])
    return {"epochs": epoch_batches, "num_workers": loader.num_workers}


def run_record(learner_module, *, run: dict) -> dict:
    record = learner_module.make_run_record(dict(run))
    run_dir = tempfile.mkdtemp(prefix="run-")
    path = learner_module.save_run_record(record, run_dir)
    with open(path) as f:
        saved = json.load(f)
    return {"record": record, "saved": saved, "path": str(path), "run_dir": run_dir}
