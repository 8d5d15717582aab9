"""P2 — the twenty-line training loop, on the course's character-level Transformer.

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
    """The learning rate of optimizer step ``step`` (0-based) under the course's schedule.

    Conventions the grader relies on: during the warmup (``step < warmup_steps``) the rate
    rises as the course's warmup does and step ``warmup_steps - 1`` runs at ``max_lr`` (so
    step 0 is not 0);
    ``warmup_steps == 0`` means no warmup; step ``warmup_steps`` runs at ``max_lr``, then the
    rate decays as the course's schedule does, reaching ``min_lr`` at ``total_steps``; every
    step from ``total_steps`` on runs at ``min_lr``.

    Args: learning rates as floats, ``0 <= warmup_steps < total_steps``.
    Returns: a Python float.

    Source: 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("P2: lr_at")


def configure_optimizer(model, config: dict):
    """Return ``(optimizer, scheduler)`` for ``model``.

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
    """One step of the loop; returns ``{"loss": float, "grad_norm": float}``.

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
    """Train a fresh model; return ``(model, losses)``: the trained GPT and one float per step.

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
