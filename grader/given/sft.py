"""The SFT pieces of P4, X5 and B4: the data and greedy decoding. P4's and X5's checks run the
training and the decoding in their own process (a run in the learner's process could be replaced by
the learner's module); the drivers use the data and ``add_lora``. Learner-visible (the stubs
describe this run): it holds no part of any answer (the data path, the training loop, the LoRA
recipe and the judge of "answered and stopped" are the checks', in grader/checks/truth/sft.py).

The format is a plain ``Q: {question}\\nA:`` prompt followed by `` {answer}`` and the EOS token
``<|endoftext|>``, a format SmolLM2-135M-Instruct does not already stop in (before SFT it rambles on).
"""

from __future__ import annotations

import random

PROMPT = "Q: {question}\nA:"

# Capital cities (questions phrased one way throughout). Training and held-out are disjoint.
TRAIN_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (f"What is the capital of {country}?", city)
    for country, city in [
        ("France", "Paris"),
        ("Germany", "Berlin"),
        ("Spain", "Madrid"),
        ("Japan", "Tokyo"),
        ("Russia", "Moscow"),
        ("Egypt", "Cairo"),
        ("Greece", "Athens"),
        ("Austria", "Vienna"),
        ("Norway", "Oslo"),
        ("Sweden", "Stockholm"),
        ("Portugal", "Lisbon"),
        ("Ireland", "Dublin"),
        ("Poland", "Warsaw"),
        ("Kenya", "Nairobi"),
    ]
)
HELD_OUT_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (f"What is the capital of {country}?", city)
    for country, city in [
        ("Italy", "Rome"),
        ("England", "London"),
        ("China", "Beijing"),
        ("Thailand", "Bangkok"),
        ("Finland", "Helsinki"),
        ("Denmark", "Copenhagen"),
    ]
)

# 12 steps, not the 30 of the course's measurement (why: grader/checks/truth/sft.py).
TRAIN_STEPS, BATCH_SIZE = 12, 4


def eos_id(tokenizer) -> int:
    from grader.given.smollm import EOS_TOKEN

    return int(tokenizer.convert_tokens_to_ids(EOS_TOKEN))


def add_lora(model, lora: dict):
    """``model`` wrapped in peft LoRA with the settings the check sends (``LoraConfig`` fields)."""
    from peft import LoraConfig, get_peft_model

    return get_peft_model(model, LoraConfig(**lora))


def batch_order(n_pairs: int, steps: int, batch_size: int, seed: int) -> list[list[int]]:
    """Which pairs go in each step's batch: shuffled epochs, deterministic from ``seed``."""
    rng, order, out = random.Random(seed), [], []
    while len(out) < steps:
        if len(order) < batch_size:
            perm = list(range(n_pairs))
            rng.shuffle(perm)
            order += perm
        out.append(order[:batch_size])
        order = order[batch_size:]
    return out


def greedy_new_tokens(model, tokenizer, questions, max_new_tokens: int, eos: int) -> list[list[int]]:
    """Greedy continuation of each ``Q: ...\\nA:`` prompt (one at a time, no padding): the new
    token ids, EOS included when it is produced (generation stops there)."""
    import torch

    out = []
    with torch.no_grad():
        for q in questions:
            ids = tokenizer(PROMPT.format(question=q), add_special_tokens=False, return_tensors="pt")["input_ids"]
            gen = model.generate(
                ids,
                attention_mask=torch.ones_like(ids),
                max_new_tokens=max_new_tokens,
                do_sample=False,
                eos_token_id=eos,
                pad_token_id=eos,
            )
            out.append([int(t) for t in gen[0, ids.shape[1] :]])
    return out
