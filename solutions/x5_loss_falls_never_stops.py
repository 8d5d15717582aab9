"""X5 — loss falls while the model never stops (reference answer)."""


def mask_eos(example, eos_id):
    labels = [-100 if t == eos_id else label for t, label in zip(example["input_ids"], example["labels"], strict=True)]
    return {"input_ids": list(example["input_ids"]), "labels": labels}


def loss_fell(losses):
    last = losses[-3:]
    return bool(sum(last) / len(last) < 0.5 * losses[0])


def stops(new_tokens, eos_id, answer_len):
    return eos_id in list(new_tokens)[: answer_len + 2 + 1]
