"""X5 — the loss falls: did the SFT work? The experiment.

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
    """The variant of the data path this experiment runs: the end-of-sequence token out of the loss.

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
    """Did training lower the loss?

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
    """Did a generation stop right after its answer?

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
