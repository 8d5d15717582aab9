"""Compares the activations alone with the GPU's memory: a step whose state fits and whose
activations fit on their own is called "fits", although the two together do not.

vLLM compares the KV cache with the memory LEFT after the weights ("KV cache is needed, which is
larger than the available KV cache memory (0.71 GiB)", vllm-project/tpu-inference PR #223): the
blocks share one GPU.
"""

from solutions.b1_lora_oom import *  # noqa: F401,F403

KILLED_BY = ("overflowing_block",)
MISCONCEPTION = "compare the activations alone with the GPU: the state and the activations share it"


def diagnose(state_bytes, activation_bytes, gpu_bytes):
    if state_bytes > gpu_bytes:
        return "parameters_and_state"
    return "activations" if activation_bytes > gpu_bytes else "fits"
