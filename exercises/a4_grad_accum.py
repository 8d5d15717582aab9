"""A4 — backward() 对 ``.grad`` 做了什么，以及有意地累积梯度。

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 4 题）::

    第三篇的手算例子 \\(w = 3\\)、\\(x = 2\\)、\\(L = (wx - 1)^2\\)，每次重新前向、连续 backward() 三次而不
    zero_grad，w.grad 是多少？

对任意 w、x 和 backward 调用次数，用真实的 PyTorch autograd 作答，再把它显示的东西用在一个真实模型
在多个 micro-batch 上的一次累积步里。

评分器测什么：``w.grad`` 与在它自己进程里运行的 autograd 相比；你的累积步留在模型里的梯度与对整个
batch 的 loss 做一次 backward 相比。

学习：第三篇 · 结论（Autograd）；第七篇 · 四、常见误区。

English
-------

A4 — what backward() does to ``.grad``, and accumulating gradients on purpose.

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
    """做 ``k`` 遍以下操作之后的 ``w.grad``：重新前向 ``L = (w*x - 1)**2``，然后 ``L.backward()``；
    中间不调用任何别的东西。

    ``w`` 用一个真实的张量（float64，``requires_grad=True``），用真实的 autograd。

    参数：
        w, x: float（任意值）。k: backward 调用次数，k >= 1。

    返回：
        ``w.grad``，Python float。

    出处：第三篇 · 必记；第七篇 · A. 判断与计算（第 4 题）。

    English
    -------

    ``w.grad`` after ``k`` passes of: a fresh forward of ``L = (w*x - 1)**2``, then
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
    """一次累积步：在每个 ``param.grad`` 里留下整个 batch 的 loss 的梯度。

    参数：
        model: float64 的 ``torch.nn.Module``（一个很小的语言模型）：``model(input_ids)``
            接收 LongTensor ``(b, T)``，返回 float64 的 logits ``(b, T, V)``。进入时它的
            ``.grad`` 字段存着更早一个 batch 的梯度（就像一次 ``optimizer.step()`` 之后）。
        micro_batches: k >= 1 个 dict 组成的 list，``{"input_ids": LongTensor (b_i, T_i),
            "labels": LongTensor (b_i, T_i)}``；各 micro-batch 的 b_i 和 T_i 不同。
            ``labels[i, t]`` 是位置 t 的目标，已经移位（不要再移）；label 为课程的 label
            ignore index 的位置不计 loss。某个 micro-batch 可能一个计入的位置都没有；整个 batch
            至少有一个。

    整个 batch 的 loss 是所有 micro-batch 合在一起、每个计入位置上的交叉熵的平均，就像把它们所有位置
    合起来做一次交叉熵调用得到的那样。对每个 micro-batch 单独运行 ``model``（绝不在拼接后的数据上：
    累积要避免的正是这个），不要调用优化器，不返回任何东西。

    测的是：你的调用之后每个 ``param.grad`` 与整个 batch 的梯度相比，误差在 1e-6 以内。

    出处：第三篇 · 必记；第七篇 · 四、常见误区。

    English
    -------

    One accumulation step: leave in every ``param.grad`` the gradient of the full batch's loss.

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
