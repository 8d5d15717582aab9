"""Rounds the GPU count down (floor division): Llama-3-8B's 128.5 GB looks like one 80 GB GPU."""

from solutions.c1_70b_plan import *  # noqa: F403

KILLED_BY = ("full_finetune_total", "lora_total")


def gpus_needed(total_bytes, gpu_bytes):
    return max(1, total_bytes // gpu_bytes)
