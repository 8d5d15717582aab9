"""C5 — LLM 训练循环里 MNIST 教程没有的那几行。

课程问（第七篇 · 五、通关自测 · C. 面试题，第 5 题）::

    不用 Trainer 写一个 LLM 的训练循环，哪几行是 MNIST 教程里没有的、各在防什么？

用循环本身作答：教程缺的每一行都通过测量你的循环做了什么来分别检出；然后是追问方向。``lr_at``、
``configure_optimizer`` 和 ``train_step`` 的契约与 P2 完全相同（``exercises/p2_training_loop.py``，同一个
模型 ``grader.given.char_model``）；如果你做过 P2，可以直接复用：
``from p2_training_loop import lr_at, configure_optimizer, train_step``。

评分器测什么：与 P2 相同的测量（loss、``optimizer.step()`` 看到的梯度、每一步的学习率），一次一行；以及
一个用它自己的 ``SGD(lr=1)`` 优化器的累积步，它对权重的移动必须是整个 batch 的梯度，就像课程的循环会
施加的那样。

学习：第三篇 · 必记；第七篇 · C. 面试题（第 5 题）。

English
-------

C5 — the lines of an LLM training loop that the MNIST tutorial does not have.

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
    """优化器第 ``step`` 步的学习率：P2 的 ``lr_at`` 的契约。

    出处：第三篇 · 必记。

    English
    -------

    The learning rate of optimizer step ``step``: the contract of P2's ``lr_at``.

    Source: 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("C5: lr_at")


def configure_optimizer(model, config: dict):
    """``model`` 的 ``(optimizer, scheduler)``：P2 的 ``configure_optimizer`` 的契约。

    出处：第三篇 · 结论。

    English
    -------

    ``(optimizer, scheduler)`` for ``model``: the contract of P2's ``configure_optimizer``.

    Source: 第三篇 · 结论 / part 3, conclusion.
    """
    raise NotImplementedError("C5: configure_optimizer")


def train_step(model, optimizer, scheduler, batch, amp_dtype=None) -> dict:
    """循环的一步：P2 的 ``train_step`` 的契约；返回
    ``{"loss": float, "grad_norm": float}``。

    出处：第三篇 · 必记；第七篇 · C. 面试题（第 5 题）。

    English
    -------

    One step of the loop: the contract of P2's ``train_step``; returns
    ``{"loss": float, "grad_norm": float}``.

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q5.
    """
    raise NotImplementedError("C5: train_step")


def train_step_accumulated(model, optimizer, scheduler, micro_batches: list, amp_dtype=None) -> dict:
    """追问：在 k 个等大的 micro-batch 上累积的一次优化器 step。

    参数：
        micro_batches: k 个 ``(x, y)`` LongTensor 对组成的 list，形状都是 (B, T)，没有被忽略的
            目标；合起来就是整个 batch。

    每个 micro-batch 运行一次模型；做出课程的循环在整个 batch 上会做的那一步（其他一切同 ``train_step``），
    恰好调用一次 ``optimizer.step()``。
    返回一个 dict：``"loss"``，整个 batch 的平均 loss（float）；``"grad_norm"``，整个 batch 的梯度
    在被任何东西改动之前的总范数（float）。

    出处：第三篇 · 结论（Autograd）；第七篇 · C. 面试题（追问方向）（第 5 题）。

    English
    -------

    Follow-up: one optimizer step accumulated over k equal-sized micro-batches.

    Args:
        micro_batches: a list of k ``(x, y)`` LongTensor pairs of the same shape (B, T) with no
            ignored targets; together they are the full batch.

    Run the model once per micro-batch; make the step that the course's loop would make on the
    full batch (everything else as in ``train_step``), with exactly one ``optimizer.step()``.
    Returns a dict: ``"loss"``, the full batch's mean loss (float), and ``"grad_norm"``, the
    total norm of the full batch's gradient before anything changed it (float).

    Source: 第三篇 · 结论 (Autograd) / part 3, conclusion; 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q5.
    """
    raise NotImplementedError("C5: train_step_accumulated")
