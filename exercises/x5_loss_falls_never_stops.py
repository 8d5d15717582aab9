"""X5 — loss falls while the model never stops (part 7, §五.D "can explain why"; part 5).

The misconception (part 7, §四): "the loss went down, so the SFT worked". In part 5 the loss fell
from 5.3 to 1.7 in 20 steps and the model answered Paris and Rome, but never stopped: the
end-of-sequence token was not in the loss often enough. Here you reproduce the experiment on
purpose. The grader takes its own correct data path (``Q: {question}\\nA:`` + `` {answer}`` + EOS
``<|endoftext|>``, prompt labels -100), applies your :func:`mask_eos` to every training example,
trains SmolLM2-135M-Instruct with LoRA (r=16, alpha=32, all-linear, lr 1e-3, batch 4, 12 steps,
14 capital-city pairs, about 30-60 s on one CPU thread) and decodes 6 held-out questions greedily
(8 new tokens at most). Then it checks that the loss fell, that the model answers, and that it
does not stop, and that your two judging functions read the run the same way.
"""


def mask_eos(example: dict, eos_id: int) -> dict:
    """Reproduce the bug: take the EOS token out of the loss.

    Args:
        example: ``{"input_ids": list[int], "labels": list[int]}`` of one pair; the last token
            is ``eos_id`` and its label is ``eos_id``; prompt labels are -100.
        eos_id: the EOS token id (0 for SmolLM2's ``<|endoftext|>``).

    Returns:
        A NEW dict (do not modify the argument) with the same ``input_ids`` and the same
        labels, except that every position whose input token is ``eos_id`` has label -100.

    Source: part 5, must-remember "the EOS token must be in the loss, and often enough";
    part 3, ``ignore_index=-100``.
    """
    raise NotImplementedError("X5: mask_eos")


def loss_fell(losses: list) -> bool:
    """Did training lower the loss?

    Args:
        losses: the loss of every step, floats (at least 4).

    Returns:
        ``True`` when the mean of the last 3 losses is below half the FIRST loss, else
        ``False`` (a Python bool).

    Source: part 7, §四 "loss fell so the SFT worked" (it is necessary, not sufficient).
    """
    raise NotImplementedError("X5: loss_fell")


def stops(new_tokens: list, eos_id: int, answer_len: int) -> bool:
    """Did a generation stop right after its answer?

    Args:
        new_tokens: the token ids generated after the prompt (greedy; generation ends at EOS
            or after a token budget).
        eos_id: the EOS id. answer_len: the number of tokens of the expected answer.

    Returns:
        ``True`` when ``eos_id`` is among the first ``answer_len + 3`` new tokens (the answer, at
        most 2 extra tokens, then EOS), else ``False``. ``stops([7042, 0], 0, 1)`` is True;
        ``stops([7042, 7042, 7042, 7042, 0], 0, 1)`` is False.

    Source: part 5: "the answers were learned, stopping at the end token was not"; look at
    the generated outputs, not only at the loss.
    """
    raise NotImplementedError("X5: stops")
