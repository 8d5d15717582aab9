"""P4 driver: the learner's data path and LoRA set-up around a real model, in the learner's process.

``data``: the learner's ``encode_example`` on each pair (with SmolLM2's real tokenizer) and
``collate`` on the results; returns them as plain data for the check to compare with its own
tokenisation. ``lora_params``: a tiny random Llama from a plain config through the learner's
``add_lora``; returns what peft's counters and modules say. ``training_batches`` and
``lora_config``: the learner's batches of the training pairs and its LoRA configuration, the
artefacts the check trains SmolLM2 with in its own process (what this process reports about a
training run could be forged: the learner's module runs here, beside this code).
"""

from __future__ import annotations

import torch

from grader.given import sft, smollm

BATCH_KEYS = ("input_ids", "attention_mask", "labels")


def _batch_problem(batch) -> str | None:
    if not isinstance(batch, dict) or not all(k in batch for k in BATCH_KEYS):
        return f"collate returned {type(batch).__name__} {sorted(batch) if isinstance(batch, dict) else ''}".strip()
    for k in BATCH_KEYS:
        t = batch[k]
        if not isinstance(t, torch.Tensor) or t.dim() != 2 or t.dtype != torch.long:
            return (
                f"collate(...)[{k!r}] is {type(t).__name__} {getattr(t, 'dtype', '')} "
                f"{tuple(getattr(t, 'shape', ()))}, expected a 2-D torch.long tensor"
            )
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
    return {"trainable": trainable, "total": total, "scalings": sorted(scalings), "wrapped": sorted(set(wrapped))}


# The LoraConfig fields the check rebuilds the learner's LoRA from (plain values only): the rest
# (paths, revisions, method-specific sub-configs) stay peft's defaults.
LORA_FIELDS = (
    "task_type",
    "r",
    "lora_alpha",
    "target_modules",
    "exclude_modules",
    "lora_dropout",
    "bias",
    "fan_in_fan_out",
    "use_rslora",
    "use_dora",
    "modules_to_save",
    "init_lora_weights",
    "layers_to_transform",
    "layers_pattern",
    "rank_pattern",
    "alpha_pattern",
)


def _plain(value):
    """A config value as plain data: sets sorted into lists, str enums as their value."""
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, str):
        return str(getattr(value, "value", value))
    return value


def lora_config(learner_module, *, cache: str) -> dict:
    """The learner's ``add_lora`` on SmolLM2 from the cache: its peft LoRA configuration, the
    :data:`LORA_FIELDS` as plain data (the check builds its own LoRA model from them)."""
    peft_model = learner_module.add_lora(smollm.load_model(cache))
    configs = getattr(peft_model, "peft_config", None)
    if not isinstance(configs, dict) or len(configs) != 1:
        return {"error": f"add_lora returned {type(peft_model).__name__} without one peft adapter config"}
    config = next(iter(configs.values()))
    if str(_plain(getattr(config, "peft_type", ""))) != "LORA":
        return {"error": f"add_lora's adapter is {_plain(getattr(config, 'peft_type', None))!r}, not LoRA"}
    return {"lora": {name: _plain(getattr(config, name)) for name in LORA_FIELDS if hasattr(config, name)}}


def training_batches(learner_module, *, cache: str, pairs, order, pad: int) -> dict:
    """The learner's ``encode_example`` on every pair and its ``collate`` on each step's rows
    (``order``: the pair indices of each batch, the check's). Returns the batches (or an error)."""
    tokenizer = smollm.load_tokenizer(cache)
    examples = encode_all(learner_module, tokenizer, pairs, sft.eos_id(tokenizer))
    batches = []
    for idx in order:
        batch = learner_module.collate([dict(examples[i]) for i in idx], pad)
        problem = _batch_problem(batch)
        if problem:
            return {"error": problem}
        batches.append({k: batch[k].detach().clone() for k in BATCH_KEYS})
    return {"batches": batches}
