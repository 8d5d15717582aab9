"""B3 — 微调后的模型回答正确，却一直不停。

课程问（第七篇 · 五、通关自测 · B. 跨篇综合，第 3 题）::

    微调后的模型回答正确但一直不停、吐乱码。从哪一行、哪个文件查？

这里你写一个 SFT collator 的 label 逻辑，以及对别人的 collator 产生的 batch 的诊断。张量是形状
``(B, T)`` 的 ``torch.long``，右侧 padding。检查里的 batch 来自 SmolLM2 的 tokenizer，模板是
``Q: {question}\\nA:`` +
`` {answer}`` + 序列结束 token ``<|endoftext|>``；padding 的 id 由评分器选。

评分器测什么：你的 labels 与参考数据流程在真实 batch 上的 labels 相比；你找出的东西与由参考实现和
真实的有缺陷的 collator 打 label 的 batch 相比。

学习：第五篇 · 必记；第三篇 · 必记；第七篇 · 四、常见误区。

English
-------

B3 — the fine-tuned model answers correctly but never stops.

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
    """一个右侧 padding 的 SFT batch 的 labels。

    参数：
        input_ids: ``(B, T)`` ``torch.long``；第 ``i`` 行有 ``lengths[i]`` 个真实 token（prompt、
            answer，然后是作为最后一个真实 token 的序列结束 token），之后是 padding。
        prompt_lens: ``B`` 个 int，每行开头 prompt 的 token 数。
        lengths: ``B`` 个 int，每行真实 token 的个数。

    返回：
        ``(B, T)`` ``torch.long`` 的 labels，不移位（模型在内部移位）：每个位置要么是 token id
        （loss 学它），要么是课程让 label 不计入 loss 的那个值（loss 跳过它）。

    出处：第五篇 · 必记；第七篇 · B. 跨篇综合（第 3 题）。

    English
    -------

    The labels of a right-padded SFT batch.

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
    """读一个别人的 collator 打好 label 的 batch：其中哪些位置会让在这种 batch 上微调的模型回答了却一直
    不停。

    参数：
        input_ids, attention_mask, labels: 一个 batch 的 ``(B, T)`` ``torch.long``（attention
            mask 在真实 token 上为 1，在 padding 上为 0）。eos_id: 序列结束 token 的 id。

    返回：
        int 组成的 ``(row, position)`` tuple 的排好序的 list；没有时为空 list。

    出处：第七篇 · B. 跨篇综合（第 3 题）；第三篇 · 必记。

    English
    -------

    Read a batch that someone else's collator labelled: the positions in it that make a model
    fine-tuned on such batches answer and never stop.

    Args:
        input_ids, attention_mask, labels: ``(B, T)`` ``torch.long`` of one batch (attention
            mask 1 on real tokens, 0 on padding). eos_id: the id of the end-of-sequence token.

    Returns:
        A sorted list of ``(row, position)`` tuples of ints; an empty list when there are none.

    Source: 第七篇 · B. 跨篇综合 / part 7, §五.B q3; 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("B3: suspect_positions")
