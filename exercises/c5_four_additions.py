"""C5 — the lines of an LLM training loop that the MNIST tutorial does not have.

The course asks (第七篇 · 五、通关自测 · C. 面试题, question 5)::

    不用 Trainer 写一个 LLM 的训练循环，哪几行是 MNIST 教程里没有的、各在防什么？

    Writing an LLM training loop without Trainer: which lines are not in the MNIST tutorial,
    and what does each of them guard against?

Answer it with the loop itself: each line the tutorial lacks is detected separately by
measuring what your loop does; then the follow-up direction. ``lr_at``,
``configure_optimizer`` and ``train_step`` have exactly the contract of P2
(``exercises/p2_training_loop.py``, the same model ``grader.given.char_model``); if you solved
P2 you may reuse it: ``from p2_training_loop import lr_at, configure_optimizer, train_step``.

What the grader measures: the same measurements as P2's (the loss, the gradient
``optimizer.step()`` saw, the learning rate of each step), one line at a time; and one
accumulated step with its own ``SGD(lr=1)`` optimizer, whose move of the weights must be the
full batch's gradient as the course's loop would apply it.

Study: 第三篇 · 必记 / part 3, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q5.
"""


def lr_at(step: int, *, max_lr: float, min_lr: float, warmup_steps: int, total_steps: int) -> float:
    """The learning rate of optimizer step ``step``: the contract of P2's ``lr_at``.

    Source: 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("C5: lr_at")


def configure_optimizer(model, config: dict):
    """``(optimizer, scheduler)`` for ``model``: the contract of P2's ``configure_optimizer``.

    Source: 第三篇 · 结论 / part 3, conclusion.
    """
    raise NotImplementedError("C5: configure_optimizer")


def train_step(model, optimizer, scheduler, batch, amp_dtype=None) -> dict:
    """One step of the loop: the contract of P2's ``train_step``; returns
    ``{"loss": float, "grad_norm": float}``.

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q5.
    """
    raise NotImplementedError("C5: train_step")


def train_step_accumulated(model, optimizer, scheduler, micro_batches: list, amp_dtype=None) -> dict:
    """Follow-up: one optimizer step accumulated over k equal-sized micro-batches.

    Args:
        micro_batches: a list of k ``(x, y)`` LongTensor pairs of the same shape (B, T) with no
            ignored targets; together they are the full batch.

    Run the model once per micro-batch; make the step that the course's loop would make on the
    full batch (everything else as in ``train_step``), with exactly one ``optimizer.step()``.
    Returns ``{"loss": the full batch's mean loss (float), "grad_norm": the total norm of the
    full batch's gradient before anything changed it (float)}``.

    Source: 第三篇 · 结论 (Autograd) / part 3, conclusion; 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q5.
    """
    raise NotImplementedError("C5: train_step_accumulated")
