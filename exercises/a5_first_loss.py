"""A5 — first-step loss (part 7, §五.A question 5; part 3, the ln V sanity check).

Before any training step a language model knows nothing, so it should spread its probability
evenly over the V tokens of the vocabulary: the first loss is -ln(1/V) = ln V. Qwen2.5-0.5B
(V = 151936) should start near 11.9; a first loss of 15.0 means the initial logits are too
large: look at the output layer's initialisation.
"""


def expected_first_loss(vocab_size: int) -> float:
    """The cross-entropy loss (in nats, natural log) of a model that predicts uniformly.

    Args:
        vocab_size: V, an int >= 2.

    Returns:
        A float: ln V (e.g. V = 128 -> 4.85, V = 151936 -> 11.93). Checked against
        ``F.cross_entropy`` on all-zero logits, relative error 1e-6.

    Source: part 3, must-remember "the first-step loss should be about ln V (4.85 for
    V = 128)"; part 7, §五.A question 5.
    """
    raise NotImplementedError("A5: expected_first_loss")


def is_suspicious(first_loss: float, vocab_size: int) -> bool:
    """Should this first-step loss make you check the initialisation?

    Args:
        first_loss: the loss (nats) of the very first training step, a float.
        vocab_size: V, an int >= 2.

    Returns:
        ``True`` when ``first_loss`` is more than 1.0 nat above ln V, else ``False`` (a
        Python bool). Only losses far ABOVE ln V are flagged here. The check keeps away from
        the border: losses within ln V +- 0.5 must give False, losses at ln V + 1.5 or more
        must give True. The course's case: ``is_suspicious(15.0, 151936)`` is True
        (ln 151936 = 11.93); ``is_suspicious(5.07, 128)`` is False (ln 128 = 4.85).

    Source: part 3, must-remember "first-step loss ~ ln V checks the initialisation";
    part 7, §五.A question 5 ("15.0 is clearly too high: the initial logits are too large").
    """
    raise NotImplementedError("A5: is_suspicious")


def init_output_layer(vocab_size: int, n_embd: int):
    """A freshly initialised output-layer (lm_head) weight for a tiny GPT.

    Return only the weight. The grader builds a real tiny GPT in its own process (token +
    position embeddings, one transformer block, final LayerNorm, then ``logits = h @ weight.T``
    with no bias), puts your weight into its output layer and runs one forward of random tokens
    with random targets. After the final LayerNorm each hidden vector has about unit variance
    per dimension.

    Args:
        vocab_size: V, an int. n_embd: d, the hidden size, an int.

    Returns:
        A float32 ``torch.Tensor`` of shape ``(V, d)`` (rows are vocabulary entries, as in
        ``nn.Linear(d, V).weight``), all values finite (shape, dtype and finiteness are
        checked). Any random init you like, as long as the model's first loss (about 256
        tokens) is ln V within 0.4 nats (the course's 5.07 vs ln 128 = 4.85 is within).

    Source: part 3, must-remember "first-step loss ~ ln V; far above means the output layer's
    initial logits are too large"; part 7, §五.A question 5.
    """
    raise NotImplementedError("A5: init_output_layer")
