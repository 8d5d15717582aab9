"""Hypothesis strategies shared by every check: shapes, dtypes, attention inputs.

Draws are derandomized by the grading profile (grader/engine/plugin.py), so a verdict is the same on
every run; what the learner cannot do is tune an answer to the course's single example.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from grader.checks.truth.experiments import SETTINGS_ITEMS


@st.composite
def llama_configs(draw, max_layers: int = 3, max_kv_heads: int = 4):
    """Plain-dict Llama configs: head_dim 4..16, GQA groups 1..4, tied or untied embeddings."""
    n_kv = draw(st.integers(1, max_kv_heads))
    group = draw(st.integers(1, 4))
    head_dim = draw(st.sampled_from([4, 8, 16]))
    n_heads = n_kv * group
    return {
        "vocab_size": draw(st.integers(16, 300)),
        "hidden_size": n_heads * head_dim,
        "intermediate_size": draw(st.integers(8, 96)),
        "num_hidden_layers": draw(st.integers(1, max_layers)),
        "num_attention_heads": n_heads,
        "num_key_value_heads": n_kv,
        "head_dim": head_dim,
        "tie_word_embeddings": draw(st.booleans()),
        "max_position_embeddings": 256,
    }


# Broadcastable pairs of shapes, sides 0..6 (0 included: size-0 dims broadcast too).
broadcastable_pairs = hnp.mutually_broadcastable_shapes(
    num_shapes=2, min_dims=0, max_dims=5, min_side=0, max_side=6
).map(lambda s: s.input_shapes)


@st.composite
def rank_mismatched_pairs(draw, max_dims: int = 5):
    """(a, b) where b is a's trailing dims with some replaced by 1, and a has more dims."""
    a = draw(hnp.array_shapes(min_dims=2, max_dims=max_dims, min_side=2, max_side=9))
    drop = draw(st.integers(1, len(a) - 1))
    b = tuple(1 if draw(st.booleans()) else d for d in a[drop:])
    return (a, b) if draw(st.booleans()) else (b, a)


@st.composite
def incompatible_pairs(draw):
    """Two shapes numpy refuses to broadcast: one aligned dim differs and neither side is 1."""
    a, b = draw(broadcastable_pairs.filter(lambda p: len(p[0]) > 0 and len(p[1]) > 0))
    i = draw(st.integers(1, min(len(a), len(b))))  # counted from the right
    x = draw(st.integers(2, 9))
    y = draw(st.integers(2, 9).filter(lambda v: v != x))
    a = a[:-i] + (x,) + a[len(a) - i + 1 :]
    b = b[:-i] + (y,) + b[len(b) - i + 1 :]
    return a, b


small_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=9)


# ---------------------------------------------------------------- P1 causal attention
@st.composite
def attention_shapes(draw, min_T: int = 1, max_T: int = 64, max_d: int = 64, d_at_least_T: bool = False):
    """(batch, heads, T, d) for q, k, v; with ``d_at_least_T`` an identity V (T x d) fits."""
    b, h = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    T = draw(st.integers(min_T, max_T))
    lo = T if d_at_least_T else 1
    d = draw(st.integers(lo, max(max_d, lo)))
    return b, h, T, d


seeds = st.integers(0, 2**31 - 1)  # for a torch.Generator: the data is drawn in the check


# ---------------------------------------------------------------- A8 / A9: model configs
# Plain-dict Llama configs (grader/given/tiny_models.py) in the four shapes real config.json files
# take: head_dim given and equal to hidden/heads (Llama-3), head_dim absent (older Llama: then
# head_dim = hidden/heads), head_dim given and different from hidden/heads (Qwen3, Gemma), and
# head_dim written out as null (Mistral/Mixtral: "head_dim": null, which means absent; a
# ``config.get("head_dim", hidden // heads)`` then returns None: vllm-project/vllm#18573,
# llm-d/llm-d-benchmark#426).
LINEAR_MODULES = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


@st.composite
def llama_config_variants(draw, max_layers: int = 3, max_kv_heads: int = 4):
    """One drawn config in all four shapes: (head_dim given, absent, different, null)."""

    cfg = dict(draw(llama_configs(max_layers=max_layers, max_kv_heads=max_kv_heads)))
    absent = {k: v for k, v in cfg.items() if k != "head_dim"}
    per_head = draw(st.sampled_from([2, 4, 8, 16, 32]).filter(lambda m: m != cfg["head_dim"]))
    differs = dict(cfg, hidden_size=cfg["num_attention_heads"] * per_head)
    null = dict(absent, head_dim=None)
    return cfg, absent, differs, null


varied_llama_configs = llama_config_variants().flatmap(st.sampled_from)


# target_modules for LoRA: "all-linear" or a non-empty list of the seven linear layers' names.
lora_targets = st.one_of(
    st.just("all-linear"),
    st.lists(st.sampled_from(LINEAR_MODULES), min_size=1, max_size=7, unique=True),
)


# ---------------------------------------------------------------- A4 gradient accumulation
@st.composite
def accumulation_cases(draw):
    """A tiny LM config (V 16..64, n_embd 4..16), a model seed, micro-batch sizes, lengths, mask rates.

    ``lengths[i]`` is micro-batch i's sequence length, all different (as with dynamic padding):
    no single forward can hold rows of two micro-batches without padding, which the A4 model
    notices. ``mask_rates[i]`` is the fraction of labels set to -100 in micro-batch i; drawn
    per micro-batch so that micro-batches hold different numbers of valid tokens.
    """
    cfg = {"vocab_size": draw(st.integers(16, 64)), "n_embd": draw(st.integers(4, 16))}
    k = draw(st.integers(1, 4))
    return {
        "config": cfg,
        "seed": draw(st.integers(0, 2**31 - 1)),
        "sizes": draw(st.lists(st.integers(1, 3), min_size=k, max_size=k)),
        "lengths": draw(st.lists(st.integers(2, 8), min_size=k, max_size=k, unique=True)),
        "mask_rates": draw(st.lists(st.sampled_from([0.0, 0.3, 0.6, 1.0]), min_size=k, max_size=k)),
        "data_seed": draw(st.integers(0, 2**31 - 1)),
    }


# w, x for L = (w*x - 1)^2, and the number of backward calls k
scalar_grad_cases = st.tuples(
    st.floats(-4, 4, allow_nan=False).map(lambda v: round(v, 3)),
    st.floats(-4, 4, allow_nan=False).map(lambda v: round(v, 3)),
    st.integers(1, 6),
)


# ---------------------------------------------------------------- A5 first-step loss
vocab_sizes = st.one_of(st.integers(2, 1000), st.integers(1000, 300_000))

# (V, offset above ln V in nats). The course gives two points and no rule between them: "第一步 loss
# 5.07 ≈ ln 128 = 4.85" (+0.22 is fine) and "ln 151936 ≈ 11.9；15.0 明显偏高" (+3.1 is clearly too
# high). Fine: within +-0.5. Clearly too high: strictly more than 1.5 above, the boundary itself on
# the side the course leaves open (a learner's `loss > ln V + 1.5` is right there), kept clear of it
# by far more than a float's rounding at ln V + 1.5, so that sum never lands on the boundary.
FAR_ABOVE_NATS = 1.5
fine_first_losses = st.tuples(vocab_sizes, st.floats(-0.5, 0.5, allow_nan=False))
high_first_losses = st.tuples(vocab_sizes, st.floats(FAR_ABOVE_NATS + 1e-9, 20.0, allow_nan=False))


@st.composite
def tiny_gpt_shapes(draw):
    """vocab_size, n_embd (= n_head x head size), n_head, batch, seq_len and a seed for a tiny GPT."""
    n_head = draw(st.integers(1, 4))
    return {
        "vocab_size": draw(st.integers(16, 4096)),
        "n_embd": n_head * draw(st.sampled_from([8, 16])),
        "n_head": n_head,
        "batch": 8,
        "seq_len": draw(st.integers(24, 40)),
        "seed": draw(st.integers(0, 2**31 - 1)),
    }


# ---------------------------------------------------------------- A1 streaming JSONL
@st.composite
def small_corpora(draw):
    """A small JSONL corpus to generate: lines, distinct texts, blank-line rate, min_chars, seed."""
    return {
        "n_lines": draw(st.integers(0, 400)),
        "unique": draw(st.integers(1, 60)),
        "blank_rate": draw(st.sampled_from([0.0, 0.0, 0.1])),
        "min_chars": draw(st.integers(0, 60)),
        "seed": draw(st.integers(0, 2**31 - 1)),
    }


# fits_in_memory: a file size in GB and a draw in [0, 1) placed inside the clear bands
file_sizes_gb = st.floats(0.01, 2000, allow_nan=False)
unit_draws = st.floats(0, 1, exclude_max=True, allow_nan=False)


# ---------------------------------------------------------------- A7 activation memory
@st.composite
def llama_like_configs(draw, max_layers: int = 3):
    """Plain Llama configs shaped like real ones: GQA, d_ff 2..4 x d (the MLP is the larger part)."""
    n_kv = draw(st.integers(1, 2))
    n_heads = n_kv * draw(st.integers(1, 4))
    head_dim = draw(st.sampled_from([4, 8, 16]))
    d = n_heads * head_dim
    return {
        "vocab_size": draw(st.integers(16, 128)),
        "hidden_size": d,
        "intermediate_size": int(d * draw(st.sampled_from([2, 2.5, 3, 3.5, 4]))),
        "num_hidden_layers": draw(st.integers(1, max_layers)),
        "num_attention_heads": n_heads,
        "num_key_value_heads": n_kv,
        "head_dim": head_dim,
        "tie_word_embeddings": draw(st.booleans()),
        "max_position_embeddings": 256,
    }


activation_dtypes = st.sampled_from(["float32", "bfloat16"])
activation_batches = st.integers(1, 3)
activation_seq_lens = st.integers(2, 32)


# ---------------------------------------------------------------- A2 nbytes and index shapes
DTYPE_NAMES = (
    "float64",
    "float32",
    "float16",
    "bfloat16",
    "int64",
    "int32",
    "int16",
    "int8",
    "uint8",
    "bool",
    "complex64",
    "complex128",
)

# Shapes for byte counts: scalars, size-0 dims, and sizes of real activations (up to 4096 per dim).
nbytes_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4096)


def _bound(n: int):
    # past either end, often: slices clamp, and a rule that forgets it must meet such a bound
    return st.none() | st.integers(-n - 3, n + 3) | st.sampled_from([-n - 2, n + 2])


def slices(n: int):
    """A slice for a dim of length n, as torch accepts it: step None or positive, bounds anywhere."""
    return st.builds(slice, _bound(n), _bound(n), st.none() | st.integers(1, 4))


@st.composite
def single_element_slices(draw, n: int):
    """A slice that keeps exactly one element of a dim of length n >= 1 (x[:, -1:] and friends)."""
    j = draw(st.integers(0, n - 1))
    return draw(
        st.sampled_from(
            [
                slice(j, j + 1),
                slice(j - n, j - n + 1 if j < n - 1 else None),
                slice(-1, None),
                slice(j, None, n),
                slice(None, 1, draw(st.integers(1, 4))),
            ]
        )
    )


@st.composite
def index_expressions(draw, shape: tuple[int, ...]):
    """A basic index for ``x[...]``: ints in range, slices, None, at most one Ellipsis, as a tuple."""
    n = len(shape)
    k = draw(st.integers(0, n))  # dims addressed explicitly
    ellipsis_at = draw(st.none() | st.integers(0, k))
    dims = list(range(k)) if ellipsis_at is None else list(range(ellipsis_at)) + list(range(n - (k - ellipsis_at), n))
    items = []
    for d in dims:
        size = shape[d]
        use_int = size > 0 and draw(st.booleans())
        items.append(draw(st.integers(-size, size - 1)) if use_int else draw(slices(size)))
    if ellipsis_at is not None:
        items.insert(ellipsis_at, Ellipsis)
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    return tuple(items)


# ---------------------------------------------------------------- P2 training loop
@st.composite
def lr_schedules(draw):
    """Keyword arguments of a warmup + cosine schedule: max_lr, min_lr, warmup_steps, total_steps."""
    max_lr = draw(st.sampled_from([1e-4, 3e-4, 1e-3, 3e-3, 6e-4]))
    warmup = draw(st.integers(0, 60))
    return {
        "max_lr": max_lr,
        "min_lr": max_lr * draw(st.sampled_from([0.0, 0.1, 0.05])),
        "warmup_steps": warmup,
        "total_steps": warmup + draw(st.integers(1, 500)),
    }


# (model seed, data seed) for the character Transformer's short runs
p2_runs = st.tuples(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1))


# ---------------------------------------------------------------- P3 memory estimate
@st.composite
def memory_cases(draw):
    """(plain Llama config, batch size, sequence length) for one fp32 AdamW training step. The
    config is drawn in any of its four shapes (head_dim given, absent, null, or different from
    hidden_size / heads: the stub allows all four)."""

    return draw(varied_llama_configs), draw(st.integers(1, 4)), draw(st.integers(2, 64))


# ---------------------------------------------------------------- P4 / B3 / X5 SFT data path
_qa_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ éü中?-'", min_size=1, max_size=16)


@st.composite
def qa_batches(draw, min_size: int = 1, max_size: int = 5):
    """Lists of (question, answer) pairs: capital-city pairs and made-up text (lengths differ,
    so the collator must pad)."""
    from grader.given.sft import HELD_OUT_PAIRS, TRAIN_PAIRS

    real = st.sampled_from(TRAIN_PAIRS + HELD_OUT_PAIRS)
    made_up = st.tuples(
        _qa_words.map(lambda w: f"What is {w.strip() or 'x'}?"), _qa_words.map(lambda w: w.strip() or "y")
    )
    return draw(st.lists(st.one_of(real, made_up), min_size=min_size, max_size=max_size))


def tiny_llama_configs():
    """Tiny random Llama configs (grader.given.tiny_models) for LoRA set-ups."""

    return llama_configs(max_layers=2)


# ---------------------------------------------------------------- P5 profile and record
# (n_layers, width, batch) of the MLP whose training step the check profiles
profile_cases = st.tuples(st.integers(1, 3), st.sampled_from([32, 64, 128]), st.integers(4, 32))


# ---------------------------------------------------------------- B / C / X memory plans (C1, C4, B1, B5)
GPU_SIZES = (16 * 10**9, 24 * 10**9, 40 * 10**9, 80 * 10**9, 141 * 10**9)
gpu_bytes = st.sampled_from(GPU_SIZES) | st.integers(10**9, 200 * 10**9)
model_params = st.integers(1, 10**12)  # up to a trillion parameters: ints, not floats
state_sizes = st.integers(0, 2 * 10**13)
activation_sizes = st.integers(0, 10**12)
gpu_counts = st.integers(1, 1024)

oom_events = st.fixed_dictionaries(
    {
        "when": st.sampled_from(["load", "first_backward", "longer_sequence", "generation"]),
        "training": st.booleans(),
        "lora": st.booleans(),
        "no_grad": st.booleans(),
    }
)

# roofline inputs (C3, X4): peak FLOP/s 1e12..2e15, bandwidth 1e11..1e13 B/s, weight bytes per parameter
peak_flops = st.floats(1e12, 2e15)
bandwidths = st.floats(1e11, 1e13)
weight_bytes_per_param = st.sampled_from([0.5, 1, 2, 4])


# X2: a pair of shapes that broadcast to something else than either: (N,) vs (N, 1) and friends
@st.composite
def silently_broadcasting_pairs(draw):
    n = draw(st.integers(2, 12))
    lead = tuple(draw(st.lists(st.integers(1, 4), max_size=2)))
    pairs = [((n,), (n, 1)), ((n, 1), (n,)), (lead + (n, 1), (n,)), ((1, n), (n, 1))]
    return draw(st.sampled_from(pairs))


# B2 / C6: accuracies of several seeds, and seven-item run records that differ in drawn items
seed_scores = st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=2, max_size=8)


@st.composite
def record_pairs(draw):
    """Two seven-item run records and the sorted settings drawn to differ between them (run_id
    and metrics always differ)."""
    base = {
        "run_id": "a",
        "commit": draw(st.text("0123456789abcdef", min_size=7, max_size=7)),
        "config": {"lr": draw(st.sampled_from([1e-4, 3e-4, 1e-3])), "batch_size": draw(st.integers(1, 64))},
        "data_version": draw(st.text("0123456789abcdef", min_size=8, max_size=8)),
        "seed": draw(st.integers(0, 99)),
        "environment": {"torch": draw(st.sampled_from(["2.3.0", "2.4.1", "2.13.0"])), "python": "3.12"},
        "metrics": {"accuracy": draw(st.floats(0, 1))},
    }
    other = {**base, "run_id": "b", "metrics": {"accuracy": draw(st.floats(0, 1))}}
    changed = draw(st.sets(st.sampled_from(SETTINGS_ITEMS)))
    for key in changed:
        if key == "config":
            other["config"] = {**base["config"], "lr": base["config"]["lr"] * 2}
        elif key == "environment":
            other["environment"] = {**base["environment"], "torch": base["environment"]["torch"] + ".post1"}
        elif key == "seed":
            other["seed"] = base["seed"] + 1
        else:
            other[key] = base[key][::-1] + "x"
    return base, other, sorted(changed)
