"""X2 — silent broadcasting vs a shape-safe loss (part 7 §五.D; part 2)."""

import torch.nn.functional as F


def naive_mse(pred, target):
    diff = pred - target
    return float((diff**2).mean()), tuple(diff.shape)


def safe_mse(pred, target):
    if pred.shape != target.shape:
        raise ValueError(f"shape mismatch: pred {tuple(pred.shape)} vs target {tuple(target.shape)}")
    return F.mse_loss(pred, target)
