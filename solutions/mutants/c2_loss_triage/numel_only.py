"""Checks only that logits.view(-1, V) and labels.view(-1) have the same length: transposed
labels pass, exactly the silent error the assert is for."""

import math

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("shape_guard",)


def check_loss_shapes(logits_shape, labels_shape):
    if math.prod(logits_shape[:-1]) != math.prod(labels_shape):
        raise ValueError("length mismatch")
