"""'LoRA and still OOM: LoRA did not take effect' — blames grads and state at the first backward
even with LoRA, where only the tiny adapters carry state and the activations overflow."""

from solutions.c4_oom_attribution import *  # noqa: F403
from solutions.c4_oom_attribution import attribute_oom as _attribute_oom

KILLED_BY = ("oom_attribution",)


def attribute_oom(event):
    if event["when"] == "first_backward":
        return "grads_and_state"
    return _attribute_oom(event)
