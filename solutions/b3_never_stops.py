"""B3 — the model answers but never stops: where to look (reference answer)."""

import torch


def build_labels(input_ids, prompt_lens, lengths):
    T = input_ids.shape[1]
    pos = torch.arange(T).unsqueeze(0)
    keep = (pos >= torch.tensor(prompt_lens).unsqueeze(1)) & (pos < torch.tensor(lengths).unsqueeze(1))
    return torch.where(keep, input_ids, torch.full_like(input_ids, -100))


def suspect_positions(input_ids, attention_mask, labels, eos_id):
    hits = (input_ids == eos_id) & (attention_mask == 1) & (labels == -100)
    return sorted((int(i), int(j)) for i, j in hits.nonzero().tolist())
