"""C2 — the training loss does not fall, or the first step already looks wrong: in which order
do you look? (part 7, §五.C question 2; parts 2 and 3).

The cheapest checks first: (1) the first loss against ln V; (2) the shapes going into the loss;
(3) which of the twenty lines is missing, read from what the loop records. Then the follow-up:
what a healthy gradient-norm curve looks like.
"""


def first_loss_verdict(first_loss: float, vocab_size: int) -> str:
    """``"ok"`` if ``|first_loss - ln(vocab_size)| <= 1`` nat, ``"too_high"`` if it is more than
    1 nat above (the output layer's init makes the logits too large), ``"too_low"`` if more
    than 1 nat below (e.g. the labels leak into the inputs). ln 128 = 4.85, ln 32000 = 10.4.
    Source: part 3, must-remember "the first-step loss should be ln V".
    """
    raise NotImplementedError("C2: first_loss_verdict")


def check_loss_shapes(logits_shape: tuple[int, ...], labels_shape: tuple[int, ...]) -> None:
    """Raise ``ValueError`` unless ``logits_shape == labels_shape + (V,)`` for some V, i.e. the
    labels have exactly the logits' shape without the vocabulary axis. Return None otherwise.

    ``logits.view(-1, V)`` and ``labels.view(-1)`` match in length even when labels are
    transposed, so cross_entropy would run silently: assert before the loss.
    Source: part 2, "assert shapes, above all logits and labels before the loss".
    """
    raise NotImplementedError("C2: check_loss_shapes")


def missing_line(trace: dict) -> str:
    """Which line of the loop is missing, from what a short run recorded.

    Args:
        trace: ``{"lr": [...], "grad_norm": [...], "grad_norm_at_step": [...]}``, one entry per
            optimizer step: the learning rate used, the total gradient norm before clipping, and
            the norm when ``optimizer.step()`` ran (after clipping). The run uses warmup
            (the lr must change every step), clip_grad_norm_(1.0) and the same batch every step.

    Returns:
        ``"scheduler_step"`` if the lr never changes; else ``"clip_grad_norm"`` if some step ran
        with a norm above 1.0 + 1e-3; else ``"zero_grad"`` if from the second step on every
        pre-clip norm is at least 1.25 x the first step's (the batch repeats and the lr is tiny,
        so a fresh gradient keeps its norm: a larger one still holds last step's gradient);
        else ``"none"``.
    Source: part 3, the twenty lines (zero_grad, clip_grad_norm_, sched.step()).
    """
    raise NotImplementedError("C2: missing_line")


def grad_norm_healthy(grad_norms: list[float]) -> bool:
    """Follow-up: does a gradient-norm curve look healthy? False if any value is non-finite, or if
    any value after the first 5 steps exceeds 5 x the median of all values (a spike); True
    otherwise (a large first step, ~2.0, then ~0.3, is healthy).
    Source: part 7 §五.C question 2, follow-up "what should the grad_norm curve look like".
    """
    raise NotImplementedError("C2: grad_norm_healthy")
