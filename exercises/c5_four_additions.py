"""C5 — write an LLM training loop without Trainer: which lines are not in the MNIST tutorial,
and what does each one prevent? (part 7, §五.C question 5; part 3).

The five-line skeleton (forward, loss, backward, step, zero_grad) plus the four additions:
``autocast(bfloat16)`` (matmuls in bf16, reductions in fp32), ``.float()`` logits with
``ignore_index=-100`` (softmax in fp32; prompt and padding out of the loss), ``clip_grad_norm_(1.0)``
(one bad gradient does not throw the loss off for good) and warmup + cosine (no divergence in
the first steps). Each addition is detected separately by measuring your loop.

``lr_at``, ``configure_optimizer`` and ``train_step`` have exactly the contract of P2
(exercises/p2_training_loop.py, on the same model ``grader.given.char_model``). If you solved P2, you
may reuse it: ``from p2_training_loop import lr_at, configure_optimizer, train_step``.
"""


def lr_at(step: int, *, max_lr: float, min_lr: float, warmup_steps: int, total_steps: int) -> float:
    """The learning rate of optimizer step ``step``: linear warmup, then cosine decay to min_lr
    (the contract of P2's ``lr_at``). Source: part 3, must-remember "warmup + cosine".
    """
    raise NotImplementedError("C5: lr_at")


def configure_optimizer(model, config: dict):
    """``(optimizer, scheduler)`` for ``model``: AdamW and a LambdaLR following ``lr_at``
    (the contract of P2's ``configure_optimizer``). Source: part 3, the twenty-line loop.
    """
    raise NotImplementedError("C5: configure_optimizer")


def train_step(model, optimizer, scheduler, batch, amp_dtype=None) -> dict:
    """One step of the twenty-line loop with the four additions (the contract of P2's
    ``train_step``): returns ``{"loss": float, "grad_norm": float}``.
    Source: part 3, must-remember "autocast, .float() + ignore_index=-100, clip_grad_norm_(1.0), warmup + cosine".
    """
    raise NotImplementedError("C5: train_step")


def train_step_accumulated(model, optimizer, scheduler, micro_batches: list, amp_dtype=None) -> dict:
    """One optimizer step accumulated over k equal-sized micro-batches (the follow-up "how do you
    write gradient accumulation").

    Args:
        micro_batches: a list of k ``(x, y)`` LongTensor pairs of the same shape (B, T) with no
            -100 labels, so the mean of the k micro-batch losses is the full-batch loss.
    Do k forward/backward passes (each loss divided by k; backward() accumulates into .grad),
    then clip_grad_norm_(1.0), one optimizer.step(), one scheduler.step(), and
    zero_grad(set_to_none=True). Returns ``{"loss": mean of the k losses (float),
    "grad_norm": the pre-clip norm (float)}``. The gradient at the step must equal the
    full-batch gradient. Source: part 3, "backward() accumulates, so accumulation needs no extra code".
    """
    raise NotImplementedError("C5: train_step_accumulated")
