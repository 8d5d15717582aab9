"""Upcasts the logits to fp32 before returning them (``logits.float()``, as the Hugging Face causal-LM
heads long did): the value is close, but the dtype autocast produced — bf16 — is no longer what
the experiment reports ("do not convert dtypes").

huggingface/transformers issue #30860 ("Removing the line ``logits = logits.float()`` in most
ModelForCausalLM" — it doubles the logits' memory); QwenLM/Qwen3 issue #570 (why are the logits
made fp32?); huggingface/accelerate PR #134 ("automatically converts the outputs of the model to
FP32").
"""

from solutions.x3_autocast_dtypes import *  # noqa: F403
from solutions.x3_autocast_dtypes import autocast_experiment as _reference

KILLED_BY = ("logits_dtype",)
MISCONCEPTION = "upcast the logits (logits.float()): autocast's matmul output is bf16; report it as produced"


def autocast_experiment(x, weight, bias, targets):
    out = _reference(x, weight, bias, targets)
    out["logits"] = out["logits"].float()
    return out
