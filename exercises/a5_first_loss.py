"""A5 — 训练第一步的 loss。

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 5 题）::

    用 Qwen2.5-0.5B（词表 151936）从头初始化训练，第一步 loss 应约多少？看到 15.0 说明什么？

评分器测什么：对抽取的词表大小，你给的期望 loss 与一个刚初始化的预测在 ``F.cross_entropy`` 下的 loss 相比；
你对明显正常或明显不正常的第一步 loss 的判断；
以及一个真实的小 GPT（输出层由你初始化）的第一步 loss。

学习：第三篇 · 必记；第七篇 · C. 面试题（第 2 题）。

English
-------

A5 — the loss of the very first training step.

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
    """一个刚初始化的语言模型在第一步应有的交叉熵 loss，词表为 ``vocab_size`` 个 token。

    参数：
        vocab_size: V，int，>= 2。

    返回：
        float，单位 nat（``F.cross_entropy`` 的单位）。允许相对误差 1e-6。

    出处：第三篇 · 必记；第七篇 · A. 判断与计算（第 5 题）。

    English
    -------

    The cross-entropy loss a freshly initialised language model should have at its first
    step, for a vocabulary of ``vocab_size`` tokens.

    Args:
        vocab_size: V, an int >= 2.

    Returns:
        A float, in nats (the unit of ``F.cross_entropy``). Relative error 1e-6 is allowed.

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q5.
    """
    raise NotImplementedError("A5: expected_first_loss")


def is_suspicious(first_loss: float, vocab_size: int) -> bool:
    """这个第一步的 loss 该不该让你回头检查初始化？

    参数：
        first_loss: 训练第一步的 loss（nat）。
        vocab_size: V，int，>= 2。

    返回：
        一个普通的 bool：这个 loss 说明初始化有问题时为 True，不说明时为 False（不管它还可能说明
        别的什么）。评分器只问明显属于其中一种的情形（以及课程的这道题）。

    出处：第三篇 · 必记；第七篇 · A. 判断与计算（第 5 题）。

    English
    -------

    Should this first-step loss make you go and check the initialisation?

    Args:
        first_loss: the loss (nats) of the very first training step.
        vocab_size: V, an int >= 2.

    Returns:
        A plain bool: True when the loss is a sign that the initialisation is wrong, False when it
        is not (whatever else it may be a sign of). The grader asks only cases that are clearly one
        or the other (and the course's question).

    Source: 第三篇 · 必记 / part 3, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q5.
    """
    raise NotImplementedError("A5: is_suspicious")


def init_output_layer(vocab_size: int, n_embd: int):
    """一个小 GPT 输出层（lm_head）的刚初始化的权重。

    评分器在它自己的进程里搭一个真实的小 GPT（token 与位置嵌入、一个 transformer block、最后一个
    LayerNorm，然后 ``logits = h @ weight.T``，无 bias），把你的权重放进它的输出层，在随机的 token
    与目标上算第一步 loss。

    参数：
        vocab_size: V，int。n_embd: d，隐藏维度，int。

    返回：
        float32 的 ``torch.Tensor``，形状 ``(V, d)``（同 ``nn.Linear(d, V).weight``），有限值。

    测的是：这个模型的第一步 loss 与刚初始化的模型应给的值相比，容差为零点几个 nat。

    出处：第三篇 · 必记；第七篇 · C. 面试题（第 2 题）。

    English
    -------

    A freshly initialised weight for the output layer (lm_head) of a tiny GPT.

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
