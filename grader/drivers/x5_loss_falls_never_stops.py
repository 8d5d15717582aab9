"""X5 driver: P4's training and decoding (grader.drivers.p4_lora_sft.train_and_decode) on the
batches the check built from the learner's ``mask_eos`` output, with the LoRA settings the
check sends."""

from __future__ import annotations

from grader.drivers.p4_lora_sft import _one_thread, train_and_decode
from grader.given import sft


def run(learner_module, *, batches: list, lora: dict, cache: str, steps: int, seed: int,
        max_new_tokens: int, threads: int = 1) -> dict:
    import torch

    _one_thread(threads)
    torch.manual_seed(seed)
    return train_and_decode(batches, lambda model: sft.add_lora(model, lora), cache=cache, steps=steps,
                            max_new_tokens=max_new_tokens)
