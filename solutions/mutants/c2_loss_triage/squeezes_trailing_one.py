"""Accepts labels of shape (B, T, 1) by squeezing the trailing 1, the usual fix for
"multi-target not supported" (zergtant/pytorch-handbook issue #37: "y should be changed to
y.squeeze_()"; pytorch/pytorch issue #3670). The stub asks to refuse any shape other than the
logits' shape without V: a (B, T, 1) tensor says the labels came from the wrong place.
"""

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("shape_guard",)
MISCONCEPTION = "squeeze a trailing 1 off the labels' shape instead of refusing it"


def check_loss_shapes(logits_shape, labels_shape):
    labels_shape = tuple(labels_shape)
    if labels_shape and labels_shape[-1] == 1 and len(labels_shape) == len(logits_shape):
        labels_shape = labels_shape[:-1]
    if tuple(logits_shape[:-1]) != labels_shape:
        raise ValueError(f"logits {tuple(logits_shape)} vs labels {labels_shape}")
