"""P4 driver: the learner's data path and LoRA set-up around a real model, in the learner's process.

``data``: the learner's ``encode_example`` on each pair (with SmolLM2's real tokenizer) and
``collate`` on the results; returns them as plain data for the check to compare with its own
tokenisation. ``lora_params``: a tiny random Llama from a plain config through the learner's
``add_lora``; returns what peft's counters and modules say. ``train_and_answer``: SmolLM2-135M
from the model cache, the learner's LoRA and batches, the shared twenty-line loop of
``grader.given.sft.train``, then greedy answers to the held-out prompts (token ids; the check judges).
X5's driver reuses :func:`train_and_decode` with the batches its check built.
"""

from __future__ import annotations

import torch

from grader.given import sft
from grader.given import smollm

BATCH_KEYS = ("input_ids", "attention_mask", "labels")


def _batch_problem(batch) -> str | None:
    if not isinstance(batch, dict) or not all(k in batch for k in BATCH_KEYS):
        return f"collate returned {type(batch).__name__} {sorted(batch) if isinstance(batch, dict) else ''}".strip()
    for k in BATCH_KEYS:
        t = batch[k]
        if not isinstance(t, torch.Tensor) or t.dim() != 2 or t.dtype != torch.long:
            return (f"collate(...)[{k!r}] is {type(t).__name__} {getattr(t, 'dtype', '')} "
                    f"{tuple(getattr(t, 'shape', ()))}, expected a 2-D torch.long tensor")
    if len({tuple(batch[k].shape) for k in BATCH_KEYS}) != 1:
        return f"collate's tensors differ in shape: { {k: tuple(batch[k].shape) for k in BATCH_KEYS} }"
    return None


def encode_all(learner_module, tokenizer, pairs, eos: int) -> list[dict]:
    out = []
    for q, a in pairs:
        e = learner_module.encode_example(tokenizer, q, a, eos)
        out.append({"input_ids": [int(t) for t in e["input_ids"]], "labels": [int(t) for t in e["labels"]]})
    return out


def data(learner_module, *, cache: str, pairs, pad: int) -> dict:
    tokenizer = smollm.load_tokenizer(cache)
    eos = sft.eos_id(tokenizer)
    try:
        examples = encode_all(learner_module, tokenizer, pairs, eos)
    except (KeyError, TypeError, ValueError) as exc:
        return {"error": f"encode_example must return {{'input_ids': [...], 'labels': [...]}}: {exc!r}"}
    batch = learner_module.collate([dict(e) for e in examples], pad)
    problem = _batch_problem(batch)
    if problem:
        return {"error": problem, "examples": examples}
    return {"examples": examples, "batch": {k: batch[k].detach().clone() for k in BATCH_KEYS}}


def trainable_count(model) -> tuple[int, int]:
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return trainable, sum(p.numel() for p in model.parameters())


def lora_params(learner_module, *, config: dict, seed: int) -> dict:
    from grader.given.tiny_models import build_llama

    model = build_llama(config, seed=seed)
    peft_model = learner_module.add_lora(model)
    if not isinstance(peft_model, torch.nn.Module):
        return {"error": f"add_lora returned {type(peft_model).__name__}, expected the peft model"}
    trainable, total = trainable_count(peft_model)
    scalings, wrapped = set(), []
    for name, module in peft_model.named_modules():
        if hasattr(module, "scaling") and isinstance(module.scaling, dict) and hasattr(module, "lora_A"):
            scalings.update(float(s) for s in module.scaling.values())
            wrapped.append(name.split(".")[-1])
    return {"trainable": trainable, "total": total, "scalings": sorted(scalings),
            "wrapped": sorted(set(wrapped))}


def train_and_answer(learner_module, *, cache: str, steps: int, seed: int, max_new_tokens: int,
                     threads: int = 0) -> dict:
    """Train the learner's LoRA on ``sft.TRAIN_PAIRS`` with the learner's batches, answer the
    held-out prompts greedily. Returns losses and new token ids (or an error)."""
    _one_thread(threads)
    torch.manual_seed(seed)
    tokenizer = smollm.load_tokenizer(cache)
    eos = sft.eos_id(tokenizer)
    examples = encode_all(learner_module, tokenizer, sft.TRAIN_PAIRS, eos)
    pad = int(tokenizer.pad_token_id if tokenizer.pad_token_id is not None else eos)
    batches = []
    for idx in sft.batch_order(len(examples), steps, sft.BATCH_SIZE, seed):
        batch = learner_module.collate([dict(examples[i]) for i in idx], pad)
        problem = _batch_problem(batch)
        if problem:
            return {"error": problem}
        batches.append(batch)
    out = train_and_decode(batches, learner_module.add_lora, cache=cache, steps=steps, max_new_tokens=max_new_tokens)
    out["eos_labels"] = sum(int(t == eos) for e in examples for t in e["labels"])
    return out


def _one_thread(threads: int) -> None:
    if threads:  # one thread: reproducible sums, and no OpenMP stalls on a shared machine
        torch.set_num_threads(threads)


def train_and_decode(batches, add_lora, *, cache: str, steps: int, max_new_tokens: int) -> dict:
    """SmolLM2 from the cache, ``add_lora`` on it, ``sft.train`` on ``batches``, greedy held-out
    answers (new token ids; the check judges them)."""
    tokenizer = smollm.load_tokenizer(cache)
    eos = sft.eos_id(tokenizer)
    peft_model = add_lora(smollm.load_model(cache))
    trainable, total = trainable_count(peft_model)
    losses = sft.train(peft_model, batches, steps=steps)
    questions = [q for q, _ in sft.HELD_OUT_PAIRS]
    generated = sft.greedy_new_tokens(peft_model, tokenizer, questions, max_new_tokens, eos)
    return {"losses": losses, "generated": generated, "trainable": trainable, "total": total}
