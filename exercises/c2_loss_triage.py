"""C2 — loss 不降，或第一步就看着不对。

课程问（第七篇 · 五、通关自测 · C. 面试题，第 2 题）::

    训练 loss 不降或第一步就异常，你排查的顺序是什么？

这里你会做的每一项检查都是一个函数；然后是追问方向。评分器像面试官那样一个接一个地问。

评分器测什么：你对一个小的字符级 GPT 的真实第一步 loss（正常初始化的，以及输出层被放大的）和抽取的
loss 的判断；你的形状检查与 torch 的 cross_entropy 悄悄照跑的那些形状相比；你对去掉了一行的训练循环的
真实短跑的诊断；你对抽取的曲线的判断。

学习：第三篇 · 必记；第二篇 · 常见误解；第七篇 · C. 面试题（第 2 题）。

English
-------

C2 — the loss does not fall, or the first step already looks wrong.

The course asks (第七篇 · 五、通关自测 · C. 面试题, question 2)::

    训练 loss 不降或第一步就异常，你排查的顺序是什么？

    The training loss does not fall, or the very first step already looks wrong: in what order
    do you investigate?

Here each check you would make is a function; then the follow-up direction. The grader asks
them one after another, as an interviewer would.

What the grader measures: your verdicts on real first losses of a small char GPT (with its
normal init and with its output layer scaled up) and on drawn ones; your shape check against
shapes torch's cross_entropy runs on silently; your diagnosis on real short runs of the
training loop with one line removed; your curve judgement on drawn curves.

Study: 第三篇 · 必记 / part 3, must-remember; 第二篇 · 常见误解 / part 2, misconceptions;
第七篇 · C. 面试题 / part 7, §五.C q2.
"""


def first_loss_verdict(first_loss: float, vocab_size: int) -> str:
    """``"ok"``、``"too_high"`` 或 ``"too_low"``：第一步的 loss 与一个刚初始化的模型对这个词表应有的
    loss 相比。评分器只问明显属于三者之一的 loss。

    出处：第三篇 · 必记；第七篇 · C. 面试题（第 2 题）。

    English
    -------

    ``"ok"``, ``"too_high"`` or ``"too_low"``: the first step's loss compared with the loss a
    freshly initialised model should have for this vocabulary. The grader asks only losses that
    are clearly one of the three.

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q2.
    """
    raise NotImplementedError("C2: first_loss_verdict")


def check_loss_shapes(logits_shape: tuple[int, ...], labels_shape: tuple[int, ...]) -> None:
    """守住 loss：除非这些 labels 逐位置地就是这些 logits 的目标（在 logits 的最后一维、即词表上的交叉熵），
    否则抛出 ``ValueError``；是的话返回 None。

    出处：第二篇 · 常见误解；第七篇 · 四、常见误区。

    English
    -------

    Guard the loss: raise ``ValueError`` unless these labels are, position by position, the
    targets of these logits (a cross-entropy over the logits' last axis, the vocabulary);
    return None when they are.

    Source: 第二篇 · 常见误解 / part 2, misconceptions; 第七篇 · 四、常见误区 / part 7, §四.
    """
    raise NotImplementedError("C2: check_loss_shapes")


def missing_line(trace: dict) -> str:
    """从一次短跑记录下来的东西看，训练循环缺了哪一行。

    参数：
        trace: ``{"lr": [...], "grad_norm": [...], "grad_norm_at_step": [...]}``，每次优化器 step
            一项：所用的学习率、紧接 ``backward()`` 之后的总梯度范数，以及 ``optimizer.step()``
            运行时的总梯度范数。这次运行本应是课程的循环：每步都变化的学习率（它的 warmup）、像课程
            的循环那样做梯度裁剪、每步同一个 batch，以及较小的学习率。

    返回：
        ``"scheduler_step"``、``"clip_grad_norm"`` 或 ``"zero_grad"``：被漏掉的那一行（漏了不止
        一行时，其中任意一行）；trace 显示什么都没缺时为 ``"none"``。

    出处：第三篇 · 必记（二十行训练循环）。

    English
    -------

    Which line of the training loop is missing, from what a short run recorded.

    Args:
        trace: ``{"lr": [...], "grad_norm": [...], "grad_norm_at_step": [...]}``, one entry per
            optimizer step: the learning rate used, the total gradient norm right after
            ``backward()``, and the total gradient norm when ``optimizer.step()`` ran. The run
            was meant to be the course's loop: a learning rate that changes at every step (its
            warmup), gradient clipping as the course's loop clips, the same batch at every step
            and a small learning rate.

    Returns:
        ``"scheduler_step"``, ``"clip_grad_norm"`` or ``"zero_grad"``: the line that was left
        out (when more than one was, any one of them); ``"none"`` when the trace shows none missing.

    Source: 第三篇 · 必记 / part 3, must-remember (the twenty lines).
    """
    raise NotImplementedError("C2: missing_line")


def grad_norm_healthy(grad_norms: list[float]) -> bool:
    """追问：这条梯度范数曲线（每步一个值）看起来健康吗？一个普通的 bool。

    评分器只问明显健康或明显不健康的曲线。

    出处：第七篇 · C. 面试题（追问方向）（第 2 题）。

    English
    -------

    Follow-up: does this gradient-norm curve (one value per step) look healthy? A plain bool.

    The grader asks only curves that are clearly healthy or clearly not.

    Source: 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q2, follow-up directions.
    """
    raise NotImplementedError("C2: grad_norm_healthy")
