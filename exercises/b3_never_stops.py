"""B3 — the fine-tuned model answers correctly but never stops.

The course asks (第七篇 · 五、通关自测 · B. 跨篇综合, question 3)::

    微调后的模型回答正确但一直不停、吐乱码。从哪一行、哪个文件查？

    After fine-tuning, the model answers correctly but never stops and goes on producing
    garbage. Which line, which file do you look in?

Here you write the label logic of an SFT collator, and a diagnostic for a batch that someone
else's collator produced. Tensors are ``torch.long`` of shape ``(B, T)``, right-padded. The
batches in the checks come from SmolLM2's tokenizer on the template ``Q: {question}\\nA:`` +
`` {answer}`` + the end-of-sequence token ``<|endoftext|>``; the padding id is the grader's
choice.

What the grader measures: your labels against those of the reference data path on real
batches; your findings against batches labelled by the reference and by real buggy collators.

Study: 第五篇 · 必记 / part 5, must-remember; 第三篇 · 必记 / part 3, must-remember;
第七篇 · 四、常见误区 / part 7, §四.
"""


def build_labels(input_ids, prompt_lens: list, lengths: list):
    """The labels of a right-padded SFT batch.

    Args:
        input_ids: ``(B, T)`` ``torch.long``; row ``i`` holds ``lengths[i]`` real tokens (the
            prompt, the answer, then the end-of-sequence token as its last real token), then
            padding.
        prompt_lens: ``B`` ints, the number of prompt tokens at the start of each row.
        lengths: ``B`` ints, the number of real tokens of each row.

    Returns:
        ``(B, T)`` ``torch.long`` labels, not shifted (the model shifts inside): at each
        position either the token id (the loss learns it) or the course's label ignore index
        (the loss skips it).

    Source: 第五篇 · 必记 / part 5, must-remember; 第七篇 · B. 跨篇综合 / part 7, §五.B q3.
    """
    raise NotImplementedError("B3: build_labels")


def suspect_positions(input_ids, attention_mask, labels, eos_id: int) -> list:
    """Read a batch that someone else's collator labelled: the positions in it that make a model
    fine-tuned on such batches answer and never stop.

    Args:
        input_ids, attention_mask, labels: ``(B, T)`` ``torch.long`` of one batch (attention
            mask 1 on real tokens, 0 on padding). eos_id: the id of the end-of-sequence token.

    Returns:
        A sorted list of ``(row, position)`` tuples of ints; an empty list when there are none.

    Source: 第七篇 · B. 跨篇综合 / part 7, §五.B q3; 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("B3: suspect_positions")
