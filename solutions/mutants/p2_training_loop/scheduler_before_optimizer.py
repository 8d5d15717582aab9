"""Calls ``scheduler.step()`` before ``optimizer.step()``: every step runs with the next step's
learning rate, and lr_at(0) is never used.

The order PyTorch warns about ("Detected call of `lr_scheduler.step()` before
`optimizer.step()` ... Failure to do this will result in PyTorch skipping the first value of
the learning rate schedule"), asked about in zju3dv/NeuralRecon issue #51 and many others.
"""

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("learning_rates",)
MISCONCEPTION = "call scheduler.step() before optimizer.step(): each step runs with the next step's learning rate"


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    loss = reference.forward_loss(model, x, y, amp_dtype)
    loss.backward()
    grad_norm = reference.clip_gradients(model)
    scheduler.step()
    optimizer.step()
    reference.clear_gradients(optimizer)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
