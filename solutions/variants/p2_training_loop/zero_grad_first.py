"""The tutorial order: clear the gradients at the START of the step, before backward (the PyTorch
tutorials' ``optimizer.zero_grad(); loss.backward(); optimizer.step()``). Every step still sees
only its own gradient; after the call .grad holds the gradient the step applied. Issue 23 found it
failing although the check's own hint called "before backward" fine; the stub now says both are."""

from solutions.p2_training_loop import *  # noqa: F403
from solutions.p2_training_loop import clear_gradients, clip_gradients, forward_loss

PASSES = ("grads_after_step",)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    clear_gradients(optimizer)
    loss = forward_loss(model, x, y, amp_dtype)
    loss.backward()
    grad_norm = clip_gradients(model)
    optimizer.step()
    scheduler.step()
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
