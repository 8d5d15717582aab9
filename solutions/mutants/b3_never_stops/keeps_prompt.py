"""Masks the padding but keeps the prompt tokens in the labels: the loss is language modelling over
the whole sequence, as SFTTrainer's default collator does without completion-only loss.

huggingface/trl issue #1507 ("if we don't use DataCollatorForCompletionOnlyLM, then
DataCollatorForLanguageModeling is used and the loss is calculated on both - prompt and
completion") and trl issue #3315; the stub asks for -100 on the prompt.
"""

import torch

from solutions.b3_never_stops import *  # noqa: F401,F403

KILLED_BY = ("padded_batch_labels",)
MISCONCEPTION = "keep the prompt tokens in the labels: only the answer and its EOS belong in the loss"


def build_labels(input_ids, prompt_lens, lengths):
    T = input_ids.shape[1]
    pos = torch.arange(T).unsqueeze(0)
    keep = pos < torch.tensor(lengths).unsqueeze(1)
    return torch.where(keep, input_ids, torch.full_like(input_ids, -100))
