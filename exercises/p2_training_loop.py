"""P2 — 二十行训练循环，在课程的字符级 Transformer 上。

课程问（第七篇 · 二、逐篇回顾 · 第三篇，核心问题；也是 总纲 · 八、自测清单：五件做出来的事 之一）::

    不用 Trainer，能不能从零写一个训练循环、在小数据集上训一个小 Transformer、并解释每一行为什么在那里？

写一个 LLM 的循环，而不是教程里的五行：它还需要什么、按什么顺序，由你决定。模型和文本是给定的
（``grader/given/char_model.py``，可以从你的代码导入）::

    from grader.given.char_model import build_model, make_corpus, encode, get_batch
    model = build_model(seed)                             # 一个小 GPT，fp32 参数
    data = encode(make_corpus(n_chars, seed=data_seed))   # ASCII 码组成的 LongTensor
    x, y = get_batch(data, batch_size, seq_len, generator) # (B, T) 输入，(B, T) 下一个字符
    logits = model(x)                                     # (B, T, 128)

评分器测什么，在 CPU 上：你返回的 loss 和一步之后的权重（有些步用它自己的 ``SGD(lr=1)`` 优化器，于是
权重恰好移动 ``optimizer.step()`` 看到的梯度的负值），之后的 ``.grad`` 字段，每一步的学习率，以及一次
短训练之后在没见过的文本上的验证 perplexity。每个期望值都在评分器自己的进程里计算。

学习：第三篇 · 必记；第三篇 · 结论；总纲 · 四、PyTorch 使用层：五个对象与一张显存账。

English
-------

P2 — the twenty-line training loop, on the course's character-level Transformer.

The course asks (第七篇 · 二、逐篇回顾 · 第三篇, 核心问题; one of 总纲 · 八、自测清单：五件做出来的事)::

    不用 Trainer，能不能从零写一个训练循环、在小数据集上训一个小 Transformer、并解释每一行为什么在那里？

    Without Trainer, can you write a training loop from scratch, train a small Transformer on a
    small data set, and explain why each line is there?

Write the loop of an LLM, not the five lines of a tutorial: what else it needs, and in what
order, is yours to decide. The model and the text are given (``grader/given/char_model.py``,
importable from your code)::

    from grader.given.char_model import build_model, make_corpus, encode, get_batch
    model = build_model(seed)                             # a small GPT, fp32 parameters
    data = encode(make_corpus(n_chars, seed=data_seed))   # LongTensor of ASCII codes
    x, y = get_batch(data, batch_size, seq_len, generator) # (B, T) inputs, (B, T) next characters
    logits = model(x)                                     # (B, T, 128)

What the grader measures, on CPU: the loss you return and the weights after a step (some steps
with its own ``SGD(lr=1)`` optimizer, so the weights move by exactly minus the gradient
``optimizer.step()`` saw), the ``.grad`` fields afterwards, the learning rate of each step, and
the validation perplexity on unseen text after one short training run. Every expected value is
computed in the grader's own process.

Study: 第三篇 · 必记 / part 3, must-remember; 第三篇 · 结论 / part 3, conclusion;
总纲 · 四、PyTorch 使用层：五个对象与一张显存账 / L1 overview, §四.
"""


def lr_at(step: int, *, max_lr: float, min_lr: float, warmup_steps: int, total_steps: int) -> float:
    """优化器第 ``step`` 步（从 0 开始）在课程的学习率调度下的学习率。

    评分器依赖的约定：warmup 期间（``step < warmup_steps``）学习率按第三篇训练循环里那个调度器
    （``get_cosine_schedule_with_warmup``）的方式上升，但提前一步：第 ``warmup_steps - 1`` 步以
    ``max_lr`` 运行（所以第 0 步不是 0）；
    ``warmup_steps == 0`` 表示没有 warmup；第 ``warmup_steps`` 步以 ``max_lr`` 运行，之后学习率按课程的
    调度衰减，在 ``total_steps`` 时达到 ``min_lr``；从 ``total_steps`` 起的每一步都以 ``min_lr`` 运行。

    参数：学习率为 float，``0 <= warmup_steps < total_steps``。
    返回：Python float。

    出处：第三篇 · 必记。

    English
    -------

    The learning rate of optimizer step ``step`` (0-based) under the course's schedule.

    Conventions the grader relies on: during the warmup (``step < warmup_steps``) the rate
    rises the way the scheduler in part 3's training loop (``get_cosine_schedule_with_warmup``)
    rises, one step earlier: step ``warmup_steps - 1`` runs at ``max_lr`` (so step 0 is not 0);
    ``warmup_steps == 0`` means no warmup; step ``warmup_steps`` runs at ``max_lr``, then the
    rate decays as the course's schedule does, reaching ``min_lr`` at ``total_steps``; every
    step from ``total_steps`` on runs at ``min_lr``.

    Args: learning rates as floats, ``0 <= warmup_steps < total_steps``.
    Returns: a Python float.

    Source: 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("P2: lr_at")


def configure_optimizer(model, config: dict):
    """为 ``model`` 返回 ``(optimizer, scheduler)``。

    - ``optimizer``：在 ``model.parameters()`` 上的 ``torch.optim.AdamW``，
      ``lr=config["max_lr"]``，``weight_decay=config["weight_decay"]``。
    - ``scheduler``：一个有 ``.step()`` 的对象，在每次 ``optimizer.step()`` 之后调用一次，
      使得第 ``k`` 次 ``optimizer.step()``（k = 0, 1, ...）以 ``config`` 给出的
      ``lr_at(k, max_lr=..., min_lr=..., warmup_steps=..., total_steps=...)`` 运行
      （键 ``max_lr``、``min_lr``、``warmup_steps``、``total_steps``、``weight_decay``）。

    测的是：每次 ``optimizer.step()`` 所用的学习率，从它让权重移动多远读出。
    出处：第三篇 · 结论（五个对象）。

    English
    -------

    Return ``(optimizer, scheduler)`` for ``model``.

    - ``optimizer``: ``torch.optim.AdamW`` over ``model.parameters()`` with
      ``lr=config["max_lr"]`` and ``weight_decay=config["weight_decay"]``.
    - ``scheduler``: an object with ``.step()``, called once after each ``optimizer.step()``,
      such that the ``k``-th ``optimizer.step()`` (k = 0, 1, ...) runs with
      ``lr_at(k, max_lr=..., min_lr=..., warmup_steps=..., total_steps=...)`` from ``config``
      (keys ``max_lr``, ``min_lr``, ``warmup_steps``, ``total_steps``, ``weight_decay``).

    Measured: the learning rate each ``optimizer.step()`` runs with, read from how far it moves
    the weights.
    Source: 第三篇 · 结论 (五个对象) / part 3, conclusion.
    """
    raise NotImplementedError("P2: configure_optimizer")


def train_step(model, optimizer, scheduler, batch, amp_dtype=None) -> dict:
    """循环的一步；返回 ``{"loss": float, "grad_norm": float}``。

    参数：
        model: 这个 GPT（fp32 参数）。
        optimizer, scheduler: 来自 ``configure_optimizer``（或评分器自己的一对）。
        batch: ``(x, y)``，LongTensor ``(B, T)``：输入和目标，已经移位
            （``y[b, t]`` 是 ``x[b, t]`` 之后的字符）。有些目标可能是课程让 label 不计入 loss 的那个值：那里
            没有 loss（就像 SFT 里的 padding 和 prompt token）。
        amp_dtype: ``torch.bfloat16``：以这个 dtype 做混合精度训练，同课程的循环；``None``：普通 fp32。

    返回：
        ``"loss"``：这一步在计入的目标上的平均 loss，Python float，在更新之前计算；
        ``"grad_norm"``：``backward()`` 留下的梯度的总（L2）范数，在任何东西改动它之前，float。

    每次调用恰好一次 ``optimizer.step()``。测的是：loss 和 ``optimizer.step()`` 看到的梯度，与在评分器进程
    里对同一模型和 batch 运行的课程循环相比；以及 ``train_step`` 返回之后的 ``.grad`` 字段：每个要么是
    ``None``，要么恰好是这一步施加的梯度（全零的张量两者都不是）。

    出处：第三篇 · 必记；第三篇 · 结论（Autograd）。

    English
    -------

    One step of the loop; returns ``{"loss": float, "grad_norm": float}``.

    Args:
        model: the GPT (fp32 parameters).
        optimizer, scheduler: from ``configure_optimizer`` (or the grader's own pair).
        batch: ``(x, y)``, LongTensors ``(B, T)``: inputs and targets, already shifted
            (``y[b, t]`` is the character after ``x[b, t]``). Some targets may be the course's
            label ignore index: no loss there (as padding and prompt tokens in SFT).
        amp_dtype: ``torch.bfloat16``: train in mixed precision with that dtype, as the course's
            loop does; ``None``: plain fp32.

    Returns:
        ``"loss"``: this step's mean loss over the targets that count, as a Python float,
        computed before the update; ``"grad_norm"``: the total (L2) norm of the gradient as
        ``backward()`` left it, before anything changed it, as a float.

    Exactly one ``optimizer.step()`` per call. Measured: the loss and the gradient
    ``optimizer.step()`` saw against the course's loop run in the grader's process on the same
    model and batch, and the ``.grad`` fields after ``train_step`` returns: each is either
    ``None`` or exactly the gradient this step applied (a tensor of zeros is neither).

    Source: 第三篇 · 必记 / part 3, must-remember; 第三篇 · 结论 (Autograd) / part 3, conclusion.
    """
    raise NotImplementedError("P2: train_step")


def train(config: dict):
    """训练一个新模型；返回 ``(model, losses)``：训练好的 GPT 和每一步一个 float。

    ``config`` 的键：``seed``（模型：``build_model(seed)``，以及 batch 生成器：
    ``torch.Generator().manual_seed(seed)``）、``data_seed`` 和 ``corpus_chars``（文本：
    ``encode(make_corpus(corpus_chars, seed=data_seed))``）、``steps``、``batch_size``、
    ``seq_len``（每个 batch 的 T，<= 128）、``max_lr``、``min_lr``、``warmup_steps``、
    ``weight_decay``（调度的 ``total_steps`` 就是 ``steps``）、``amp_dtype``（None 或
    ``torch.bfloat16``，传给 ``train_step``）。每一步：``get_batch(data, batch_size,
    seq_len, generator)``，然后 ``train_step``。

    测的是：评分器跑一次短的 fp32 训练（几十步，约十秒），在它从未训练过的新生成文本上评估返回的模型的
    perplexity，与一个阈值相比，以及第一步的 loss。

    出处：第三篇 · 必记。

    English
    -------

    Train a fresh model; return ``(model, losses)``: the trained GPT and one float per step.

    ``config`` keys: ``seed`` (the model: ``build_model(seed)``, and the batch generator:
    ``torch.Generator().manual_seed(seed)``), ``data_seed`` and ``corpus_chars`` (the text:
    ``encode(make_corpus(corpus_chars, seed=data_seed))``), ``steps``, ``batch_size``,
    ``seq_len`` (T of each batch, <= 128), ``max_lr``, ``min_lr``, ``warmup_steps``,
    ``weight_decay`` (the schedule's ``total_steps`` is ``steps``), ``amp_dtype`` (None or
    ``torch.bfloat16``, passed to ``train_step``). Each step: ``get_batch(data, batch_size,
    seq_len, generator)``, then ``train_step``.

    Measured: the grader runs a short fp32 run (tens of steps, about ten seconds) and evaluates
    the returned model's perplexity on freshly generated text it never trained on, against a
    threshold, and the first loss.

    Source: 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("P2: train")
