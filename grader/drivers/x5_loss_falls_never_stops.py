"""X5 driver: P4's experiment (grader.drivers.p4_lora_sft.experiment) with the reference data path
and LoRA, except that every training example goes through the learner's ``mask_eos``."""

from __future__ import annotations

from grader.given import sft
from grader.drivers.p4_lora_sft import experiment


def run(learner_module, *, cache: str, steps: int, seed: int, max_new_tokens: int, threads: int = 1) -> dict:
    def encode(tokenizer, question, answer, eos):
        example = sft.reference_example(tokenizer, question, answer, eos)
        return learner_module.mask_eos({k: list(v) for k, v in example.items()}, eos)

    return experiment(encode, lambda examples, pad: sft.reference_batch(examples, pad), sft.reference_lora,
                      cache=cache, steps=steps, seed=seed, max_new_tokens=max_new_tokens, threads=threads)
