"""The SFT pieces shared by P4, B3, B4 and X5: the data, the reference data path, the training
loop, greedy decoding and the judge of "answered and stopped".

The lesson (part 5): after a short LoRA SFT the model knows the answers but never stops when
the end-of-sequence token is not in the loss. The format is a plain ``Q: {question}\\nA:`` prompt
followed by `` {answer}`` and the EOS token ``<|endoftext|>`` (id 0 in SmolLM2's vocabulary), a
format SmolLM2-135M-Instruct does not already stop in (before SFT it rambles on).

Used in two processes: the checks use :func:`reference_example` / :func:`reference_batch` (their
own tokenisation) and :func:`judge`; the drivers (in the learner's process) use :func:`train`
and :func:`greedy_new_tokens` around the learner's data path and LoRA set-up.
"""

from __future__ import annotations

import random

IGNORE_INDEX = -100
PROMPT = "Q: {question}\nA:"

# Capital cities (questions phrased one way throughout). Training and held-out are disjoint.
TRAIN_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (f"What is the capital of {country}?", city) for country, city in [
        ("France", "Paris"), ("Germany", "Berlin"), ("Spain", "Madrid"), ("Japan", "Tokyo"),
        ("Russia", "Moscow"), ("Egypt", "Cairo"), ("Greece", "Athens"), ("Austria", "Vienna"),
        ("Norway", "Oslo"), ("Sweden", "Stockholm"), ("Portugal", "Lisbon"), ("Ireland", "Dublin"),
        ("Poland", "Warsaw"), ("Kenya", "Nairobi"),
    ])
HELD_OUT_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (f"What is the capital of {country}?", city) for country, city in [
        ("Italy", "Rome"), ("England", "London"), ("China", "Beijing"), ("Thailand", "Bangkok"),
        ("Finland", "Helsinki"), ("Denmark", "Copenhagen"),
    ])

# The training recipe of the course's measurement (part 5): LoRA r=16, alpha=32, all-linear.
LORA_R, LORA_ALPHA = 16, 32
# 12 steps, not the 30 of the course's measurement: the loss is ~0 by step 5 and 12 steps gave the same
# verdicts (solution: 5/6 answered, 6/6 stopped; EOS masked: 5/6 answered, 0/6 stopped) in 28 s
# on one thread of the shared 2-core machine, load included.
TRAIN_STEPS, LR, BATCH_SIZE = 12, 1e-3, 4
STOP_WITHIN = 2  # EOS must come at most this many tokens after the answer's own tokens


def eos_id(tokenizer) -> int:
    from grader.given.smollm import EOS_TOKEN

    return int(tokenizer.convert_tokens_to_ids(EOS_TOKEN))


def reference_example(tokenizer, question: str, answer: str, eos: int) -> dict:
    """The check's own tokenisation: prompt and response tokenised separately, EOS appended;
    labels -100 on the prompt, the token ids on the response and on EOS."""
    prompt = tokenizer(PROMPT.format(question=question), add_special_tokens=False)["input_ids"]
    response = tokenizer(f" {answer}", add_special_tokens=False)["input_ids"] + [eos]
    return {"input_ids": list(prompt) + list(response),
            "labels": [IGNORE_INDEX] * len(prompt) + list(response)}


def reference_batch(examples: list[dict], pad: int) -> dict:
    """Right-padded ``(B, T)`` int64 tensors; padding positions have label -100, mask 0."""
    import torch

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


def reference_lora(model, *, init_lora_weights: bool = True):
    """peft LoRA as the course sets it up: r=16, alpha=32, all-linear, no dropout.

    ``init_lora_weights=False`` draws A and B both non-zero (from torch's seeded generator), so
    the adapters change the outputs from the start (B4: a merge that drops or mis-scales them shows).
    """
    from peft import LoraConfig, get_peft_model

    return get_peft_model(model, LoraConfig(r=LORA_R, lora_alpha=LORA_ALPHA, lora_dropout=0.0,
                                            target_modules="all-linear", task_type="CAUSAL_LM",
                                            init_lora_weights=init_lora_weights))


def train(model, batches, *, steps: int = TRAIN_STEPS, lr: float = LR) -> list[float]:
    """The twenty-line loop: AdamW on the trainable parameters, one batch per step; the loss is
    the model's own (labels shifted inside, -100 ignored). Returns the loss of every step."""
    import torch

    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=0.0)
    model.train()
    losses = []
    for step in range(steps):
        batch = batches[step % len(batches)]
        out = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                    labels=batch["labels"])
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        losses.append(float(out.loss.detach()))
    model.eval()
    return losses


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
            gen = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=max_new_tokens,
                                 do_sample=False, eos_token_id=eos, pad_token_id=eos)
            out.append([int(t) for t in gen[0, ids.shape[1]:]])
    return out


def judge(tokenizer, pairs, generated: list[list[int]], eos: int) -> list[dict]:
    """Per held-out prompt: the decoded answer, whether it is right (the text before EOS, stripped,
    starts with the capital) and whether EOS came within ``STOP_WITHIN`` tokens after the answer."""
    rows = []
    for (question, answer), new in zip(pairs, generated):
        n_answer = len(tokenizer(f" {answer}", add_special_tokens=False)["input_ids"])
        text_ids = new[: new.index(eos)] if eos in new else new
        text = tokenizer.decode(text_ids)
        rows.append({"question": question, "expected": answer, "text": text,
                     "answered": text.strip().startswith(answer),
                     "stopped": eos in new[: n_answer + STOP_WITHIN + 1]})
    return rows
