"""A4 — gradient accumulation (part 7, §五.A question 4; part 3, Autograd accumulates).

``backward()`` adds into ``.grad``; it never overwrites. That is why every step needs
``zero_grad`` and also why gradient accumulation needs no extra code: k small batches,
k backward calls, one ``optimizer.step()``. Use real PyTorch autograd in both functions.
"""


def grad_after_k_backwards(w: float, x: float, k: int) -> float:
    """``w.grad`` after k forward+backward passes of ``L = (w*x - 1)**2`` with no ``zero_grad``.

    Make ``w`` a float64 scalar tensor with ``requires_grad=True``; k times: compute the loss
    afresh and call ``backward()``. Do not clear the gradient in between.

    Args:
        w, x: floats (any value). k: number of backward calls, k >= 1.

    Returns:
        ``w.grad`` as a Python float. The course's case: w=3, x=2, k=3 -> 60.0
        (one backward gives 2*(w*x - 1)*x = 20).

    Source: part 3, must-remember "backward() accumulates into .grad, so every step needs
    zero_grad"; part 7, §五.A question 4.
    """
    raise NotImplementedError("A4: grad_after_k_backwards")


def accumulate_grads(model, micro_batches) -> None:
    """One accumulation step: leave in every ``param.grad`` the gradient of the full-batch loss.

    Args:
        model: a ``torch.nn.Module`` in float64 (a tiny LM). ``model(input_ids)`` takes a
            LongTensor ``(b, T)`` and returns logits, a float64 tensor ``(b, T, V)``.
            On entry its ``.grad`` fields still hold the previous step's gradients (as after
            ``optimizer.step()`` when nobody called ``zero_grad``): clear them first.
        micro_batches: a list of k >= 1 dicts ``{"input_ids": LongTensor (b_i, T_i),
            "labels": LongTensor (b_i, T_i)}``. The b_i and the T_i may differ (each
            micro-batch padded to its own longest example, as with dynamic padding).
            ``labels[i, t]`` is the target of position t (already shifted, do not shift
            again); -100 means "no loss here" (prompt or padding). A micro-batch may have no
            valid label at all; the full batch has at least one.

    The full-batch loss is the mean cross-entropy over ALL non-ignored tokens of the full
    batch (all the micro-batches together), i.e. what
    ``F.cross_entropy(logits.view(-1, V), labels.view(-1), ignore_index=-100)`` would give on
    all their tokens pooled. Each micro-batch's loss must therefore be scaled so that the k
    backward calls add up to exactly that (a plain 1/k is right only when every micro-batch
    has the same number of valid tokens).

    Call ``model`` once per micro-batch (never on the concatenated batch: accumulation exists
    so that only one micro-batch's activations are alive at a time; the check's model also sees
    whole rows, so padding micro-batches to one length changes its logits). Do not call
    ``optimizer.step()``; return nothing. Checked within 1e-6 of the full-batch gradient.

    Source: part 3, must-remember "backward() accumulates, so gradient accumulation needs no
    extra code" and "ignore_index=-100 is the SFT loss mask"; part 7, §四 ("no zero_grad
    between two backward calls is a bug" — on purpose it is gradient accumulation).
    """
    raise NotImplementedError("A4: accumulate_grads")
