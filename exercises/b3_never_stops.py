"""B3 — the fine-tuned model answers correctly but never stops: where to look (part 7, §五.B
question 3; parts 3 and 5).

The course's answer: part 5 — the answers were learned but the end-of-sequence token was not in
the loss often enough (and inference must use the training template); part 3 — the loss is
decided by ``cross_entropy(..., ignore_index=-100)``: a position labelled -100 is not in the
loss, so make sure the EOS label is not -100. Look in the collator / data processing (in trl:
``trl/trainer/sft_trainer.py``, search ``completion_only_loss`` or ``-100``). The classic culprit:
``pad_token = eos_token`` plus a collator that masks "padding" by token id
(``labels[input_ids == pad_id] = -100``), which masks every real EOS too.

Here you write the label logic of a collator that cannot make that mistake, and a diagnostic
that finds masked EOS labels in a batch. Tensors are ``torch.long`` of shape ``(B, T)``, right
padded. The batches in the checks come from SmolLM2's tokenizer on ``Q: {question}\\nA:`` +
`` {answer}`` + EOS ``<|endoftext|>`` (id 0), with pad id 0 (= EOS) or 2.
"""


def build_labels(input_ids, prompt_lens: list, lengths: list):
    """The labels of a right-padded SFT batch.

    Args:
        input_ids: ``(B, T)`` ``torch.long``; row ``i`` holds ``lengths[i]`` real tokens (the
            prompt, the answer, then EOS as its last real token), then padding. The padding id
            may equal the EOS id.
        prompt_lens: ``B`` ints, the number of prompt tokens at the start of each row.
        lengths: ``B`` ints, the number of real tokens of each row (prompt + answer + EOS).

    Returns:
        ``(B, T)`` ``torch.long`` labels: -100 at the prompt positions ``[0, prompt_lens[i])``
        and at the padding positions ``[lengths[i], T)``; the token id itself elsewhere (the
        answer AND the EOS at ``lengths[i] - 1``). Decide by position, never by token id.

    Source: part 5, must-remember "the EOS token must be in the loss, and often enough";
    part 3, ``ignore_index=-100``; part 7, §五.B question 3.
    """
    raise NotImplementedError("B3: build_labels")


def find_masked_eos(input_ids, attention_mask, labels, eos_id: int) -> list:
    """Find the EOS tokens that were taken out of the loss: where the model never learns to stop.

    Args:
        input_ids, attention_mask, labels: ``(B, T)`` ``torch.long`` of one batch (attention
            mask 1 on real tokens, 0 on padding). eos_id: the EOS id (padding may use it too).

    Returns:
        A sorted list of ``(row, position)`` tuples of ints: the REAL tokens (attention mask 1)
        whose input id is ``eos_id`` and whose label is -100. Padding is not a finding, even
        when its id equals ``eos_id``. An empty list when every EOS is in the loss.

    Source: part 7, §五.B question 3 (confirm the end token is not masked to -100); part 3,
    ``cross_entropy(..., ignore_index=-100)``.
    """
    raise NotImplementedError("B3: find_masked_eos")
