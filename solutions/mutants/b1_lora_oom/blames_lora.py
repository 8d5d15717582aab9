"""'LoRA and still OOM: LoRA did not take effect': blames the parameters and state whenever it OOMs."""

from solutions.b1_lora_oom import *  # noqa: F403

KILLED_BY = ("overflowing_block",)


def diagnose(state_bytes, activation_bytes, gpu_bytes):
    return "fits" if state_bytes + activation_bytes <= gpu_bytes else "parameters_and_state"
