"""The SFT ground truth of P4, X5, B3 and B4, computed in the check process: the data path
(prompt and response tokenised separately, EOS appended, prompt and padding labels ignored),
the course's LoRA recipe and the judge of "answered and stopped".

Part 5's lesson: after a short LoRA SFT the model knows the answers but never stops when the
end-of-sequence token is not in the loss.
"""

from __future__ import annotations

import torch

from grader.given.sft import PROMPT

IGNORE_INDEX = torch.nn.CrossEntropyLoss().ignore_index  # what transformers' causal-LM loss skips
# The training recipe of the course's measurement (part 5): LoRA r=16, alpha=32, all-linear.
LORA_R, LORA_ALPHA = 16, 32
STOP_WITHIN = 2  # EOS must come at most this many tokens after the answer's own tokens
# Why grader/given/sft.py's TRAIN_STEPS is 12, not the 30 of the course's measurement: the loss is
# ~0 by step 5 and 12 steps gave the same verdicts (solution: 5/6 answered, 6/6 stopped; EOS
# masked: 5/6 answered, 0/6 stopped) in 28 s on one thread of the shared 2-core machine, load
# included. Kept here, with the checks: it is B3/X5's conclusion.


def lora_settings(*, init_lora_weights: bool = True) -> dict:
    """``LoraConfig`` fields of the course's recipe, as plain data (they cross to the learner's
    process for X5 and B4). ``init_lora_weights=False`` draws A and B both non-zero, so the
    adapters change the outputs from the start (B4: a merge that drops or mis-scales them shows)."""
    return {
        "r": LORA_R,
        "lora_alpha": LORA_ALPHA,
        "lora_dropout": 0.0,
        "target_modules": "all-linear",
        "task_type": "CAUSAL_LM",
        "init_lora_weights": init_lora_weights,
    }


def reference_example(tokenizer, question: str, answer: str, eos: int) -> dict:
    """The check's own tokenisation: prompt and response tokenised separately, EOS appended;
    labels -100 on the prompt, the token ids on the response and on EOS."""
    prompt = tokenizer(PROMPT.format(question=question), add_special_tokens=False)["input_ids"]
    response = tokenizer(f" {answer}", add_special_tokens=False)["input_ids"] + [eos]
    return {"input_ids": list(prompt) + list(response), "labels": [IGNORE_INDEX] * len(prompt) + list(response)}


def reference_batch(examples: list[dict], pad: int) -> dict:
    """Right-padded ``(B, T)`` int64 tensors; padding positions have label -100, mask 0."""
    T = max(len(e["input_ids"]) for e in examples)
    B = len(examples)
    input_ids = torch.full((B, T), pad, dtype=torch.long)
    labels = torch.full((B, T), IGNORE_INDEX, dtype=torch.long)
    mask = torch.zeros((B, T), dtype=torch.long)
    for i, e in enumerate(examples):
        n = len(e["input_ids"])
        input_ids[i, :n] = torch.tensor(e["input_ids"])
        labels[i, :n] = torch.tensor(e["labels"])
        mask[i, :n] = 1
    return {"input_ids": input_ids, "attention_mask": mask, "labels": labels}


def buggy_collator_labels(batch, lengths, eos, pad, bug, rows_hit):
    """Labels as a buggy collator makes them from ``batch`` (``bug``: "none", "pad_by_id" masks every
    pad-id position, "drop_eos" masks the EOS of ``rows_hit``), and the real EOS positions it masked
    (B3's ground truth, the quiz's)."""
    labels = batch["labels"].clone()
    if bug == "pad_by_id":
        labels[batch["input_ids"] == pad] = IGNORE_INDEX
    elif bug == "drop_eos":
        for i in rows_hit:
            labels[i, lengths[i] - 1] = IGNORE_INDEX
    masked = sorted((i, lengths[i] - 1) for i in range(len(lengths)) if labels[i, lengths[i] - 1] == IGNORE_INDEX)
    return labels, masked


def judge(tokenizer, pairs, generated: list[list[int]], eos: int) -> list[dict]:
    """Per held-out prompt: the decoded answer, whether it is right (the text before EOS, stripped,
    starts with the capital) and whether EOS came within ``STOP_WITHIN`` tokens after the answer."""
    rows = []
    for (question, answer), new in zip(pairs, generated, strict=True):
        n_answer = len(tokenizer(f" {answer}", add_special_tokens=False)["input_ids"])
        text_ids = new[: new.index(eos)] if eos in new else new
        text = tokenizer.decode(text_ids)
        rows.append(
            {
                "question": question,
                "expected": answer,
                "text": text,
                "answered": text.strip().startswith(answer),
                "stopped": eos in new[: n_answer + STOP_WITHIN + 1],
            }
        )
    return rows


LR = 1e-3  # AdamW's learning rate in the SFT run of P4 and X5


def train(model, batches, *, steps: int, lr: float = LR) -> list[float]:
    """The training loop of P4 and X5: AdamW on the trainable parameters, one batch per step,
    the loss the model computes from ``labels``. Returns the loss of every step. Here, on the check
    side, not in grader/given: its steps in order are P2's and C5's answer."""
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=0.0)
    model.train()
    losses = []
    for step in range(steps):
        batch = batches[step % len(batches)]
        out = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], labels=batch["labels"])
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad()
        losses.append(float(out.loss.detach()))
    model.eval()
    return losses


def train_and_answer(batches: list[dict], lora: dict, *, cache, steps: int, seed: int, max_new_tokens: int) -> dict:
    """The SFT run of P4 and X5, in THIS process: SmolLM2 from the model cache wrapped in LoRA
    (``lora``: ``LoraConfig`` fields), the loop above on ``batches``, then greedy answers
    to the held-out prompts. Returns the losses and the new token ids of each answer.

    Here, not in the learner's process: there the learner's module runs beside the training and
    could replace it, the model or what is reported. One torch thread (reproducible sums), so the
    run is a function of its inputs: memoised by them (grader.checks.truth.memo), the model's
    files included; a mutant whose batches are the solution's reuses the solution's run."""
    import json
    from pathlib import Path

    from grader.checks.truth import memo
    from grader.engine.model_cache import MANIFEST
    from grader.isolation import files

    weights = json.loads(files.read_regular(Path(cache) / MANIFEST, 1 << 20))["files"]
    inputs = {
        "batches": batches,
        "lora": lora,
        "steps": steps,
        "seed": seed,
        "max_new_tokens": max_new_tokens,
        "lr": LR,
        "model": weights,
    }
    return memo.memoised(
        "sft.train_and_answer",
        inputs,
        lambda: _train_and_answer(batches, lora, cache=cache, steps=steps, seed=seed, max_new_tokens=max_new_tokens),
    )


def _train_and_answer(batches: list[dict], lora: dict, *, cache, steps: int, seed: int, max_new_tokens: int) -> dict:
    from grader.given import sft, smollm

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(seed)
        tokenizer = smollm.load_tokenizer(cache)
        eos = sft.eos_id(tokenizer)
        model = sft.add_lora(smollm.load_model(cache), lora)
        losses = train(model, batches, steps=steps)
        questions = [q for q, _ in sft.HELD_OUT_PAIRS]
        return {"losses": losses, "generated": sft.greedy_new_tokens(model, tokenizer, questions, max_new_tokens, eos)}
    finally:
        torch.set_num_threads(threads)
