"""LoRA on q_proj and v_proj only (the old peft default) where the course's figure hooks all
seven linears (part 5: all-linear; Llama-3-8B r=16 -> 41.9M LoRA parameters)."""

from solutions.p3_memory_estimate import *  # noqa: F401,F403
from solutions.p3_memory_estimate import _dims, parameter_count

KILLED_BY = ("course_llama3_8b",)


def course_memory_gb(config, lora_r=16):
    d, h, kv, hd, ff, L, V = _dims(config)
    n = parameter_count(config)
    lora = L * lora_r * ((d + h * hd) + (d + kv * hd))
    return {"full": n * 16 / 1e9, "lora": (n * 2 + lora * 16) / 1e9, "qlora": (n * 4.5 / 8 + lora * 16) / 1e9}
