"""A4 — what backward() does to ``.grad``, and accumulating gradients on purpose.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 4)::

    第三篇的手算例子 \\(w = 3\\)、\\(x = 2\\)、\\(L = (wx - 1)^2\\)，每次重新前向、连续 backward() 三次而不
    zero_grad，w.grad 是多少？

    Part 3's worked example w = 3, x = 2, L = (wx - 1)^2: a fresh forward each time and
    backward() three times in a row without zero_grad: what is w.grad?

Answer it for any w, x and number of backward calls with real PyTorch autograd, then use what
it shows for one accumulation step over micro-batches of a real model.

What the grader measures: ``w.grad`` against autograd run in its own process; the gradients
your accumulation step leaves in the model against one backward of the full batch's loss.

Study: 第三篇 · 结论 (Autograd) / part 3, conclusion; 第七篇 · 四、常见误区 / part 7, §四.
"""


def grad_after_k_backwards(w: float, x: float, k: int) -> float:
    """``w.grad`` after ``k`` passes of: a fresh forward of ``L = (w*x - 1)**2``, then
    ``L.backward()``; nothing is called in between.

    Use a real tensor for ``w`` (float64, ``requires_grad=True``) and real autograd.

    Args:
        w, x: floats (any value). k: the number of backward calls, k >= 1.

    Returns:
        ``w.grad`` as a Python float.

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q4.
    """
    raise NotImplementedError("A4: grad_after_k_backwards")


def accumulate_grads(model, micro_batches) -> None:
    """One accumulation step: leave in every ``param.grad`` the gradient of the full batch's loss.

    Args:
        model: a ``torch.nn.Module`` in float64 (a tiny language model): ``model(input_ids)``
            takes a LongTensor ``(b, T)`` and returns float64 logits ``(b, T, V)``. On entry its
            ``.grad`` fields hold the gradients of an earlier batch (as after an
            ``optimizer.step()``).
        micro_batches: a list of k >= 1 dicts ``{"input_ids": LongTensor (b_i, T_i),
            "labels": LongTensor (b_i, T_i)}``; the b_i and T_i differ between micro-batches.
            ``labels[i, t]`` is the target of position t, already shifted (do not shift again);
            positions whose label is the course's label ignore index carry no loss. A
            micro-batch may have no counted position at all; the full batch has at least one.

    The full batch's loss is the mean cross-entropy over every counted position of all the
    micro-batches together, as one cross-entropy call on all their positions pooled would
    give it. Run ``model`` on each micro-batch on its own (never on a concatenation: that is
    what accumulation avoids), do not call an optimizer, return nothing.

    Measured: every ``param.grad`` after your call against the full-batch gradient, within 1e-6.

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · 四、常见误区 / part 7, §四.
    """
    raise NotImplementedError("A4: accumulate_grads")
