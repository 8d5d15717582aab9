"""What CPU autocast(bfloat16) gives a Linear and cross_entropy, run for real (X3, the quiz's)."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def cpu_bf16_autocast(x, w, bias, targets) -> dict:
    """A Linear with weight ``w`` and ``bias`` on ``x``, then cross_entropy against ``targets``,
    under ``torch.autocast("cpu", dtype=torch.bfloat16)``: the weight after, the logits, the loss."""
    linear = torch.nn.Linear(w.shape[1], w.shape[0])
    with torch.no_grad():
        linear.weight.copy_(w)
        linear.bias.copy_(bias)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = linear(x)
        loss = F.cross_entropy(logits, targets)
    if linear.weight.dtype != torch.float32 or logits.dtype != torch.bfloat16 or loss.dtype != torch.float32:
        raise RuntimeError(f"torch's CPU autocast changed: {linear.weight.dtype}, {logits.dtype}, {loss.dtype}")
    return {"weight_after": linear.weight.detach(), "logits": logits.detach(), "loss": loss.detach()}
