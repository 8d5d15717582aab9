"""A5 — the loss of the very first training step.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 5)::

    用 Qwen2.5-0.5B（词表 151936）从头初始化训练，第一步 loss 应约多少？看到 15.0 说明什么？

    Training Qwen2.5-0.5B (vocabulary 151936) from a fresh initialisation: what should the
    first step's loss be, roughly? What does seeing 15.0 tell you?

What the grader measures: the expected loss against ``F.cross_entropy`` of a freshly
initialised prediction, for drawn vocabulary sizes; your judgement on first losses that are
clearly fine or clearly not; and the first loss of a real tiny GPT whose output layer you
initialise.

Study: 第三篇 · 必记 / part 3, must-remember; 第七篇 · C. 面试题, question 2 / part 7, §五.C q2.
"""


def expected_first_loss(vocab_size: int) -> float:
    """The cross-entropy loss a freshly initialised language model should have at its first
    step, for a vocabulary of ``vocab_size`` tokens.

    Args:
        vocab_size: V, an int >= 2.

    Returns:
        A float, in nats (the unit of ``F.cross_entropy``). Relative error 1e-6 is allowed.

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q5.
    """
    raise NotImplementedError("A5: expected_first_loss")


def is_suspicious(first_loss: float, vocab_size: int) -> bool:
    """Should this first-step loss make you go and check the initialisation?

    Args:
        first_loss: the loss (nats) of the very first training step.
        vocab_size: V, an int >= 2.

    Returns:
        A plain bool: True when the loss is clearly too high for a freshly initialised model,
        False when it is what such a model gives. The grader asks only cases that are clearly
        one or the other (and the course's question).

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q5.
    """
    raise NotImplementedError("A5: is_suspicious")


def init_output_layer(vocab_size: int, n_embd: int):
    """A freshly initialised weight for the output layer (lm_head) of a tiny GPT.

    The grader builds a real tiny GPT in its own process (token and position embeddings, one
    transformer block, a final LayerNorm, then ``logits = h @ weight.T`` without bias), puts
    your weight into its output layer and computes the first loss on random tokens and targets.

    Args:
        vocab_size: V, an int. n_embd: d, the hidden size, an int.

    Returns:
        A float32 ``torch.Tensor`` of shape ``(V, d)`` (as ``nn.Linear(d, V).weight``), finite.

    Measured: that model's first loss against what a freshly initialised model should give,
    within a tolerance of a few tenths of a nat.

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · C. 面试题, question 2 / part 7, §五.C q2.
    """
    raise NotImplementedError("A5: init_output_layer")
