"""P5 driver: a DataLoader with worker processes around the learner's ``make_loader``, and the
run record written to the learner's own temp folder and read back.

``seeded_metric``: first the global RNGs are reseeded from the OS (as in a fresh process), so
only the learner's own seeding makes a run reproducible; a dataset whose ``__getitem__`` adds
noise from NumPy's and Python's global RNGs and from torch; the learner's loader (2 workers) feeds a tiny linear model for a few SGD steps; returns the final
loss (the metric) and every sample's noise (numpy, random, torch parts) so the check can see duplicated worker streams;
with ``epochs`` > 1 the loader is iterated that many times (new workers each epoch, as in
training) and ``epoch_noises`` holds each epoch's noise, so the check can see an epoch repeated.
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
        x = self.x[i]
        return x, (x @ self.w + 0.5 * noise.sum()).reshape(()), noise


def seeded_metric(learner_module, *, seed: int, batch_size: int = 8, epochs: int = 1) -> dict:
    torch.set_num_threads(1)
    torch.seed()  # the global torch RNG as a fresh process finds it: only the learner's seeding counts
    np.random.seed(None)
    random.seed(None)
    loader = learner_module.make_loader(NoisyDataset(), seed, batch_size)
    if not isinstance(loader, torch.utils.data.DataLoader):
        return {"error": f"make_loader returned {type(loader).__name__}, not a DataLoader"}
    model = torch.nn.Linear(4, 1)
    with torch.no_grad():  # a fixed init that does not touch the global RNG
        g = torch.Generator().manual_seed(0)
        model.weight.copy_(torch.randn(model.weight.shape, generator=g))
        model.bias.zero_()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    epoch_noises, loss = [], None
    for _ in range(epochs):
        epoch_noises.append([])
        for x, y, noise in loader:
            loss = torch.nn.functional.mse_loss(model(x).squeeze(-1), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            epoch_noises[-1].extend(noise.tolist())
    return {"metric": float(loss), "noises": epoch_noises[0], "epoch_noises": epoch_noises,
            "num_workers": loader.num_workers}


def run_record(learner_module, *, run: dict) -> dict:
    record = learner_module.make_run_record(dict(run))
    run_dir = tempfile.mkdtemp(prefix="run-")
    path = learner_module.save_run_record(record, run_dir)
    with open(path) as f:
        saved = json.load(f)
    return {"record": record, "saved": saved, "path": str(path), "run_dir": run_dir}
