"""Uses a GradScaler on the bf16 path and clips the gradients before ``scaler.unscale_``: the
clip sees gradients 65536x too large, so the step is ~1/65536 of the clipped gradient.

From milesial/Pytorch-UNet issue #468, "Gradients are clipped before the unscaling" (fixed in
PR #470 by calling ``scaler.unscale_(optimizer)`` before ``clip_grad_norm_``). bf16 needs no
loss scaling at all; the fp32 path is right.
"""

import torch

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("step_gradient",)
MISCONCEPTION = (
    "clip the loss-scaled gradients (GradScaler) before unscale_: the clip acts on gradients 65536x too large"
)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    if amp_dtype is None:
        return reference.train_step(model, optimizer, scheduler, batch)
    x, y = batch
    scaler = torch.amp.GradScaler("cpu")
    loss = reference.forward_loss(model, x, y, amp_dtype)
    scaler.scale(loss).backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # still scaled
    scaler.step(optimizer)
    scaler.update()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
