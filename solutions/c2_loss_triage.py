"""C2 — loss-not-decreasing triage (part 7 §五.C q2; parts 2 and 3)."""

import math
import statistics


def first_loss_verdict(first_loss, vocab_size):
    gap = first_loss - math.log(vocab_size)
    return "too_high" if gap > 1 else "too_low" if gap < -1 else "ok"


def check_loss_shapes(logits_shape, labels_shape):
    if tuple(logits_shape[:-1]) != tuple(labels_shape) or len(logits_shape) != len(labels_shape) + 1:
        raise ValueError(f"logits {tuple(logits_shape)} vs labels {tuple(labels_shape)}")


def missing_line(trace):
    lr, norms, at_step = trace["lr"], trace["grad_norm"], trace["grad_norm_at_step"]
    if len(set(lr)) == 1:
        return "scheduler_step"
    if any(n > 1.0 + 1e-3 for n in at_step):
        return "clip_grad_norm"
    if len(norms) >= 2 and all(n >= 1.25 * norms[0] for n in norms[1:]):
        return "zero_grad"
    return "none"


def grad_norm_healthy(grad_norms):
    if not all(math.isfinite(x) for x in grad_norms):
        return False
    median = statistics.median(grad_norms)
    return not any(x > 5 * median for x in grad_norms[5:])
