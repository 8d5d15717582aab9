"""P2 — the twenty-line training loop (part 3; part 7, §五 "five things to do").

Train the course's character-level Transformer with the loop a tutorial's five lines become
once the four additions of part 3 are in: ``autocast``, ``.float()`` logits with
``ignore_index=-100``, ``clip_grad_norm_(1.0)``, and a warmup + cosine schedule; plus
``zero_grad(set_to_none=True)``.

The model and the text are given (``grader/given/char_model.py``, importable from your code)::

    from grader.given.char_model import build_model, make_corpus, encode, get_batch
    model = build_model(seed)              # GPT: vocab 128, 4 layers, n_embd 128, 4 heads,
                                           # block_size 128, 840,448 parameters, fp32
    data = encode(make_corpus(n_chars, seed=data_seed))   # LongTensor of ASCII codes
    x, y = get_batch(data, batch_size, seq_len, generator) # (B, T) inputs, (B, T) next chars
    logits = model(x)                      # (B, T, 128); always model(x), never model.forward(x)

The grader runs short loops on crafted batches and measures what each line changes (the loss
you return and the weights after a step, some steps with its own ``SGD(lr=1)`` optimizer so the
weights move by exactly minus the gradient ``optimizer.step()`` saw; the ``.grad`` fields
afterwards), then one 80-step training run whose weights it evaluates on text you never saw. Everything runs on CPU; bf16 autocast there is ~30x slower (part 3), so the
graded bf16 runs are tiny and the long run is fp32 (``amp_dtype=None``).
"""


def lr_at(step: int, *, max_lr: float, min_lr: float, warmup_steps: int, total_steps: int) -> float:
    """The learning rate of optimizer step ``step`` (0-based): linear warmup, then cosine decay.

    - ``step < warmup_steps``: ``max_lr * (step + 1) / warmup_steps`` (so step 0 is not 0;
      with ``warmup_steps == 0`` there is no warmup);
    - ``warmup_steps <= step < total_steps``: with ``progress = (step - warmup_steps) /
      (total_steps - warmup_steps)`` in [0, 1): ``min_lr + 0.5 * (max_lr - min_lr) *
      (1 + cos(pi * progress))`` — max_lr right after warmup, falling to min_lr;
    - ``step >= total_steps``: ``min_lr``.

    Args: learning rates as floats (1/step units), ``0 <= warmup_steps < total_steps``.
    Returns: a Python float. Example: part 3's run warms up 50 steps to 3e-4 and decays to 3e-5.

    Source: part 3, must-remember "warmup + cosine: without warmup the first steps may diverge".
    """
    raise NotImplementedError("P2: lr_at")


def configure_optimizer(model, config: dict):
    """Return ``(optimizer, scheduler)`` for ``model``.

    - ``optimizer``: ``torch.optim.AdamW`` over ``model.parameters()``, ``lr=config["max_lr"]``,
      ``betas=(0.9, 0.95)``, ``weight_decay=config["weight_decay"]``.
    - ``scheduler``: an object with ``.step()`` such that the ``k``-th ``optimizer.step()``
      (k = 0, 1, ...) runs with ``lr_at(k, max_lr=..., min_lr=..., warmup_steps=...,
      total_steps=...)`` from ``config`` (keys ``max_lr``, ``min_lr``, ``warmup_steps``,
      ``total_steps``, ``weight_decay``). ``torch.optim.lr_scheduler.LambdaLR`` with
      ``lambda k: lr_at(k, ...) / max_lr`` does exactly this (it sets lr_at(0) at once).

    Checked: the learning rate each ``optimizer.step()`` runs with (read from how far it moves the weights).
    Source: part 3, the five objects (Optimizer) and must-remember "warmup + cosine".
    """
    raise NotImplementedError("P2: configure_optimizer")


def train_step(model, optimizer, scheduler, batch, amp_dtype=None) -> dict:
    """One step of the loop; returns ``{"loss": float, "grad_norm": float}``.

    Args:
        model: the GPT (fp32 parameters; leave them fp32).
        optimizer, scheduler: from ``configure_optimizer``.
        batch: ``(x, y)``, LongTensors ``(B, T)``: inputs and targets (already shifted: ``y[b, t]``
            is the character after ``x[b, t]``). Some targets may be -100: no loss there
            (as padding and prompt tokens in SFT).
        amp_dtype: ``torch.bfloat16`` -> run the forward under
            ``torch.autocast(device_type=x.device.type, dtype=amp_dtype)``; ``None`` -> plain fp32.

    In this order: forward ``logits = model(x)`` (under autocast when asked); the loss
    ``F.cross_entropy(logits.float().view(-1, V), y.view(-1), ignore_index=-100)`` — fp32
    logits, mean over the targets that are not -100; ``backward()``;
    ``torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)``; ``optimizer.step()``;
    ``scheduler.step()``; ``optimizer.zero_grad(set_to_none=True)`` — so that when
    ``train_step`` returns, every ``param.grad`` is None.

    Returns: ``"loss"``: this step's loss as a float (``loss.item()``, computed before the
    update; about ln 128 = 4.85 at the first step); ``"grad_norm"``: the total gradient norm
    BEFORE clipping (what ``clip_grad_norm_`` returns), a float.

    Source: part 3, must-remember "the twenty lines: autocast, .float() + ignore_index=-100,
    clip_grad_norm_(1.0), warmup + cosine; zero_grad(set_to_none=True) saves a memory write;
    backward() accumulates, so every step must clear the gradients".
    """
    raise NotImplementedError("P2: train_step")


def train(config: dict):
    """Train a fresh model; return ``(model, losses)``: the trained GPT and one float per step.

    ``config`` keys: ``seed`` (model init: ``build_model(seed)``, and the batch generator:
    ``torch.Generator().manual_seed(seed)``), ``data_seed`` and ``corpus_chars`` (the text:
    ``encode(make_corpus(corpus_chars, seed=data_seed))``), ``steps``, ``batch_size``,
    ``seq_len`` (T of each batch, <= 128), ``max_lr``, ``min_lr``, ``warmup_steps``,
    ``weight_decay`` (the schedule's ``total_steps`` is ``steps``), ``amp_dtype`` (None or
    ``torch.bfloat16``, passed to ``train_step``).

    Each step: ``get_batch(data, batch_size, seq_len, generator)`` then ``train_step``.
    The grader runs 80 steps of batch 8 x 64 at max_lr 3e-3 with 10 warmup steps (fp32, ~10 s)
    and checks that the perplexity ``exp(loss)`` on freshly generated text falls from ~128 to below 12.

    Source: part 3, must-remember "840,448 parameters; first loss 5.07 ~ ln 128; one CPU
    minute: PPL 128 -> 9.6".
    """
    raise NotImplementedError("P2: train")
