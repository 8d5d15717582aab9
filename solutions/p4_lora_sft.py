"""P4 — a LoRA SFT that learns to stop (reference answer)."""

import torch

IGNORE_INDEX = -100


def _prompt(question):
    return f"Q: {question}\nA:"


def _response(answer):
    return f" {answer}"


def encode_example(tokenizer, question, answer, eos_id):
    prompt = tokenizer(_prompt(question), add_special_tokens=False)["input_ids"]
    response = tokenizer(_response(answer), add_special_tokens=False)["input_ids"] + [eos_id]
    return {"input_ids": list(prompt) + list(response), "labels": [IGNORE_INDEX] * len(prompt) + list(response)}


def collate(examples, pad_id):
    T = max(len(e["input_ids"]) for e in examples)
    input_ids = torch.full((len(examples), T), pad_id, dtype=torch.long)
    labels = torch.full((len(examples), T), IGNORE_INDEX, dtype=torch.long)
    attention_mask = torch.zeros((len(examples), T), dtype=torch.long)
    for i, e in enumerate(examples):
        n = len(e["input_ids"])
        input_ids[i, :n] = torch.tensor(e["input_ids"], dtype=torch.long)
        labels[i, :n] = torch.tensor(e["labels"], dtype=torch.long)
        attention_mask[i, :n] = 1
    return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


def masked_fraction(labels):
    return float((labels == IGNORE_INDEX).sum()) / labels.numel()


def add_lora(model):
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, target_modules="all-linear", task_type="CAUSAL_LM")
    return get_peft_model(model, config)
