"""C2 — the loss does not fall, or the first step already looks wrong.

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
    """``"ok"``, ``"too_high"`` or ``"too_low"``: the first step's loss compared with the loss a
    freshly initialised model should have for this vocabulary. The grader asks only losses that
    are clearly one of the three.

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q2.
    """
    raise NotImplementedError("C2: first_loss_verdict")


def check_loss_shapes(logits_shape: tuple[int, ...], labels_shape: tuple[int, ...]) -> None:
    """Guard the loss: raise ``ValueError`` unless these labels are, position by position, the
    targets of these logits (a cross-entropy over the logits' last axis, the vocabulary);
    return None when they are.

    Source: 第二篇 · 常见误解 / part 2, misconceptions; 第七篇 · 四、常见误区 / part 7, §四.
    """
    raise NotImplementedError("C2: check_loss_shapes")


def missing_line(trace: dict) -> str:
    """Which line of the training loop is missing, from what a short run recorded.

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
    """Follow-up: does this gradient-norm curve (one value per step) look healthy? A plain bool.

    The grader asks only curves that are clearly healthy or clearly not: curves of the kind the
    course's script logs, and such curves with one value changed: a value after the first step
    set to 6 or more times the curve's largest value, or any value set to one that is not a
    finite number.

    Source: 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q2, follow-up directions.
    """
    raise NotImplementedError("C2: grad_norm_healthy")
