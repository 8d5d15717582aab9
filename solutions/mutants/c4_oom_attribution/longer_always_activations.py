"""Longer sequences always mean activations, even at inference where the KV cache grows."""

from solutions.c4_oom_attribution import *  # noqa: F403
from solutions.c4_oom_attribution import attribute_oom as _attribute_oom

KILLED_BY = ("oom_attribution",)


def attribute_oom(event):
    if event["when"] == "longer_sequence":
        return "activations"
    return _attribute_oom(event)
