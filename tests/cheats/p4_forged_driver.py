"""The red team's cheat (P4): the module replaces the trusted drivers at import time. The old
attack: ``train_and_answer`` returns the held-out answers (public in grader.given.sft) + EOS as
the "generated" tokens, with no training. Against a check that trains itself: batches built from
the HELD-OUT pairs (training on the test) and the course's LoRA configuration reported for an
``add_lora`` that does nothing. The data path and the LoRA set-up are left unimplemented."""

import torch as _torch

import grader.drivers.p4_lora_sft as _drv
from grader.given import sft as _sft, smollm as _smollm


def _forged_answers(learner_module, *, cache, steps, seed, max_new_tokens, threads=0):
    tok = _smollm.load_tokenizer(cache)
    eos = _sft.eos_id(tok)
    gen = [tok(f" {a}", add_special_tokens=False)["input_ids"] + [eos] for _, a in _sft.HELD_OUT_PAIRS]
    return {"losses": [3.0 - 2.5 * i / steps for i in range(steps)], "generated": gen, "trainable": 1, "total": 2,
            "eos_labels": 1}


def _forged_batches(learner_module, *, cache, pairs, order, pad):
    tok = _smollm.load_tokenizer(cache)
    eos = _sft.eos_id(tok)
    rows = []
    for q, a in _sft.HELD_OUT_PAIRS:  # the test's pairs, in place of the training pairs
        prompt = tok(_sft.PROMPT.format(question=q), add_special_tokens=False)["input_ids"]
        answer = tok(f" {a}", add_special_tokens=False)["input_ids"] + [eos]
        rows.append((prompt + answer, [-100] * len(prompt) + answer))
    batches = []
    for idx in order:
        chosen = [rows[i % len(rows)] for i in idx]
        T = max(len(ids) for ids, _ in chosen)
        batches.append({
            "input_ids": _torch.tensor([ids + [pad] * (T - len(ids)) for ids, _ in chosen]),
            "attention_mask": _torch.tensor([[1] * len(ids) + [0] * (T - len(ids)) for ids, _ in chosen]),
            "labels": _torch.tensor([lab + [-100] * (T - len(lab)) for _, lab in chosen])})
    return {"batches": batches}


def _forged_lora(learner_module, *, cache):
    return {"lora": {"r": 16, "lora_alpha": 32, "target_modules": "all-linear", "task_type": "CAUSAL_LM"}}


_drv.train_and_answer = _forged_answers
_drv.training_batches = _forged_batches
_drv.lora_config = _forged_lora


def encode_example(tokenizer, question, answer, eos_id):
    raise NotImplementedError("P4: encode_example")


def collate(examples, pad_id):
    raise NotImplementedError("P4: collate")


def add_lora(model):
    raise NotImplementedError("P4: add_lora")
