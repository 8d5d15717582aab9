"""Blames whichever block is larger when the two together overflow: a state larger than its
activations is called the culprit though it fits alone — part 7's misconception-table row
「加了 LoRA 还 OOM 是 LoRA 没生效」, in the form "the big block must be the one that overflows"."""

from solutions.b1_lora_oom import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "B1", ("overflowing_block",), "blames the parameters and state"


def diagnose(state_bytes, activation_bytes, gpu_bytes):
    if state_bytes + activation_bytes <= gpu_bytes:
        return "fits"
    return "parameters_and_state" if state_bytes >= activation_bytes else "activations"
