"""X5 — loss 降了：SFT 成了吗？实验。

课程把它列为误区之一，并问它为什么错（第七篇 · 四、常见误区，误区 · 为什么错 两列）::

    loss 降下来 SFT 就成了

故意复现这个失败。评分器用它自己正确的数据流程（``Q: {question}\\nA:``
+ `` {answer}`` + 序列结束 token ``<|endoftext|>``），对每个训练样本应用你的 :func:`mask_eos`，用 LoRA
训练 SmolLM2-135M-Instruct（12 步，batch 4，14 个首都问答对，在一个 CPU 线程上约 30-60 s），然后贪心解码
6 个留出的问题（最多 8 个新 token）。

评分器测什么：loss 是否下降，模型是否回答、是否停下，以及你的两个判断函数对这次运行（以及抽取的曲线和生成
结果）的读法与评分器一致。

学习：第五篇 · 常见误解；第五篇 · 必记。

English
-------

X5 — the loss falls: did the SFT work? The experiment.

The course lists it among its misconceptions and asks why it is wrong (第七篇 · 四、常见误区,
columns 误区 · 为什么错)::

    loss 降下来 SFT 就成了

    The loss went down, so the SFT worked.

Reproduce the failure on purpose. The grader takes its own correct data path (``Q: {question}\\nA:``
+ `` {answer}`` + the end-of-sequence token ``<|endoftext|>``), applies your :func:`mask_eos` to
every training example, trains SmolLM2-135M-Instruct with LoRA (12 steps, batch 4, 14
capital-city pairs, about 30-60 s on one CPU thread) and decodes 6 held-out questions greedily
(8 new tokens at most).

What the grader measures: whether the loss fell, whether the model answers and whether it stops,
and that your two judging functions read the run (and drawn curves and generations) as the grader does.

Study: 第五篇 · 常见误解 / part 5, misconceptions; 第五篇 · 必记 / part 5, must-remember.
"""


def mask_eos(example: dict, eos_id: int) -> dict:
    """这个实验运行的数据流程变体：序列结束 token 不计入 loss。

    参数：
        example: 一个问答对的 ``{"input_ids": list[int], "labels": list[int]}``，由评分器正确的数据
            流程构建（它的最后一个 token 是 ``eos_id``，按那个流程打 label）。
        eos_id: 序列结束 token 的 id。

    返回：
        一个新的（NEW）dict（不要修改参数），``input_ids`` 相同、labels 相同，只是输入 token 为
        ``eos_id`` 的位置都不被 loss 学习。

    出处：第五篇 · 必记；第三篇 · 必记。

    English
    -------

    The variant of the data path this experiment runs: the end-of-sequence token out of the loss.

    Args:
        example: ``{"input_ids": list[int], "labels": list[int]}`` of one pair, as the grader's
            correct data path builds it (its last token is ``eos_id``, labelled as that path labels it).
        eos_id: the id of the end-of-sequence token.

    Returns:
        A NEW dict (do not modify the argument) with the same ``input_ids`` and the same labels,
        except that no position whose input token is ``eos_id`` is learned by the loss.

    Source: 第五篇 · 必记 / part 5, must-remember; 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("X5: mask_eos")


def loss_fell(losses: list) -> bool:
    """训练让 loss 下降了吗？

    参数：
        losses: 每一步的 loss，float（至少 4 个）。

    返回：
        一个普通的 bool：loss 在整次运行中下降了（比较结尾与开头）时为 True。
        评分器只问界限分明的曲线：下降的那些结尾（最后 3 个 loss）低于第一个 loss 的 0.3x；没下降的那些
        每一步都在第一个 loss 的 15% 之内，包括步与步之间的噪声（所以 ``[1, 1, 1, 0.875]`` 没有下降，
        尽管它最后一步最低）。

    出处：第七篇 · 四、常见误区。

    English
    -------

    Did training lower the loss?

    Args:
        losses: the loss of every step, floats (at least 4).

    Returns:
        A plain bool: True when the loss fell over the run, comparing its end with its start.
        The grader asks only clear-cut curves: those that fell end (their last 3 losses) below
        0.3x the first loss; those that did not stay within 15% of the first loss at every step,
        step-to-step noise included (so ``[1, 1, 1, 0.875]`` did not fall, though its last step is
        the lowest).

    Source: 第七篇 · 四、常见误区 / part 7, §四.
    """
    raise NotImplementedError("X5: loss_fell")


def stops(new_tokens: list, eos_id: int, answer_len: int) -> bool:
    """一次生成是否在答案之后立即停下？

    参数：
        new_tokens: prompt 之后生成的 token id（贪心；生成在 ``eos_id`` 处或达到 token 预算后结束）。
        eos_id: 序列结束的 id。answer_len: 期望答案的 token 数。

    返回：
        一个普通的 bool：``eos_id`` 出现在前 ``answer_len + 3`` 个新 token 之内时（答案，至多再 2 个
        token，然后结束）为 True，否则为 False。

    （写明这个窗口是因为它是评分器对“停下”的定义，不是课程的事实：评分器用它判断真实运行的生成结果，同 P4，
    stops() 必须同样地读它们。）

    出处：第五篇 · 结论。

    English
    -------

    Did a generation stop right after its answer?

    Args:
        new_tokens: the token ids generated after the prompt (greedy; generation ends at
            ``eos_id`` or after a token budget).
        eos_id: the end-of-sequence id. answer_len: the number of tokens of the expected answer.

    Returns:
        A plain bool: True when ``eos_id`` comes within the first ``answer_len + 3`` new tokens
        (the answer, at most 2 more tokens, then the end), else False.

    (This window is stated because it is the grader's definition of "stopped", not a course fact:
    the grader judges the real run's generations with it, as P4 does, and stops() must read them
    alike.)

    Source: 第五篇 · 结论 / part 5, conclusion.
    """
    raise NotImplementedError("X5: stops")
