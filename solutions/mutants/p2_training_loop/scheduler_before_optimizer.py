"""Calls ``scheduler.step()`` before ``optimizer.step()``: every step runs with the next step's
learning rate, and lr_at(0) is never used.

The order PyTorch warns about ("Detected call of `lr_scheduler.step()` before
`optimizer.step()` ... Failure to do this will result in PyTorch skipping the first value of
the learning rate schedule"), asked about in zju3dv/NeuralRecon issue #51 and many others.
"""

from solutions.p2_training_loop import *  # noqa: F401,F403
from solutions.mutants.p2_training_loop import _update_order

KILLED_BY = ("learning_rates",)
MISCONCEPTION = "call scheduler.step() before optimizer.step(): each step runs with the next step's learning rate"


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    return _update_order.train_step(
        model,
        optimizer,
        scheduler,
        batch,
        amp_dtype,
        update=(_update_order.scheduler_step, _update_order.optimizer_step, _update_order.clear),
    )
