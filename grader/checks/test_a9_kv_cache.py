"""A9 — KV-cache bytes. Ground truth: the key and value tensors of a real transformers
DynamicCache after a forward pass with use_cache=True: of a tiny random GQA Llama on CPU for drawn
configs, and of the real Llama-3-8B / Qwen2.5-0.5B configs on the meta device, where a
[128, 4096] batch allocates nothing but its tensors still know their nbytes (part 6, KV cache).

The contract's paths: head_dim given, absent, different from hidden/heads and null (a real config
field written as null: vllm-project/vllm#18573); four cache dtypes (2, 4, 8 bytes); batch and
sequence lengths; the course's Llama-3-8B and Qwen2.5-0.5B; fits_on_gpu exactly at, one byte
below and around the need.
"""

import torch
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import expect_equal, fail
from grader.checks.truth.kv_cache import meta_cache_bytes, real_cache_bytes
from grader.given.tiny_models import LLAMA3_8B, QWEN2_5_0_5B
from grader.i18n import _

COURSE_LLAMA3_PER_TOKEN = 131_072  # part 6: 2 x 8 x 128 x 32 x 2 bytes
DTYPES = [torch.bfloat16, torch.float16, torch.float32, torch.float64]


def _kv(learner, config, b, t, nbytes, name="config") -> tuple[int, str]:
    what = f"kv_cache_bytes({name}, batch_size={b}, seq_len={t}, bytes_per_element={nbytes})"
    got = learner.kv_cache_bytes(config, b, t, nbytes)
    if type(got) is not int:
        fail(_("{what} must return a plain int (bytes)", what=what), "int", f"{type(got).__name__}: {got!r}")
    return got, what


@settings(max_examples=8)
@given(strategies.llama_config_variants(), st.integers(1, 3), st.integers(1, 24), st.sampled_from(DTYPES))
def test_matches_dynamic_cache(learner, variants, batch, seq, dtype):
    # The same config with head_dim given, absent, != hidden/heads and null (Mistral's "head_dim": null).
    for config in variants:
        expected = real_cache_bytes(config, batch, seq, dtype)
        nbytes = torch.empty((), dtype=dtype).element_size()
        got, what = _kv(learner, config, batch, seq, nbytes)
        expect_equal(
            got,
            expected,
            _("{what} for config {config} ({dtype} DynamicCache)", what=what, config=config, dtype=dtype),
            hint=_("each layer caches K and V of shape [B, n_kv_heads, T, head_dim]"),
        )


@settings(max_examples=3)
@given(st.sampled_from(["Llama-3-8B", "Qwen2.5-0.5B"]), st.integers(1, 256), st.integers(1, 8192))
def test_llama3_8b_per_token(learner, name, batch, seq):
    expected = meta_cache_bytes(LLAMA3_8B, 1, 1, torch.bfloat16)
    if expected != COURSE_LLAMA3_PER_TOKEN:
        raise RuntimeError(f"the meta DynamicCache gives {expected} B/token, the course {COURSE_LLAMA3_PER_TOKEN}")
    got, what = _kv(learner, LLAMA3_8B, 1, 1, 2, "Llama-3-8B")
    expect_equal(got, expected, what, hint=_("2 (K and V) x 8 kv heads x 128 head_dim x 32 layers x 2 bytes"))
    config = {"Llama-3-8B": LLAMA3_8B, "Qwen2.5-0.5B": QWEN2_5_0_5B}[name]
    got, what = _kv(learner, config, batch, seq, 2, name)
    expect_equal(
        got,
        meta_cache_bytes(config, batch, seq, torch.bfloat16),
        what,
        hint=_("bytes per token x batch x seq_len; Qwen2.5-0.5B: 2 kv heads x 64 x 24 layers"),
    )


@st.composite
def _fits_cases(draw):
    real = st.sampled_from([LLAMA3_8B, QWEN2_5_0_5B])
    config = draw(st.one_of(real, strategies.varied_llama_configs, strategies.varied_llama_configs))
    n = draw(st.integers(1, 256))
    ctx = draw(st.integers(1, min(8192, config["max_position_embeddings"] * 32)))
    weight = draw(st.integers(0, 200 * 10**9))
    # The GPU is drawn around the exact need: exactly enough, one byte short, or a margin either way.
    margin = draw(st.sampled_from(["exact", "one_short", "more", "less"]))
    delta = draw(st.integers(1, 10**10))
    return config, n, ctx, weight, margin, delta


@settings(max_examples=12)
@given(_fits_cases())
def test_fits_decision(learner, case):
    config, n, ctx, weight, margin, delta = case
    gb = 10**9
    names = {id(LLAMA3_8B): "Llama-3-8B", id(QWEN2_5_0_5B): "Qwen2.5-0.5B"}
    cases = [(LLAMA3_8B, 128, 4096, 80 * gb, 16 * gb)]  # the course's question first
    gpu = (
        weight
        + meta_cache_bytes(config, n, ctx, torch.bfloat16)
        + {"exact": 0, "one_short": -1, "more": delta, "less": -delta}[margin]
    )
    if gpu > 0:
        cases.append((config, n, ctx, gpu, weight))
    for cfg, n_req, context, gpu_bytes, weight_bytes in cases:
        name = names.get(id(cfg), "config")
        kv = meta_cache_bytes(cfg, n_req, context, torch.bfloat16)
        expected = weight_bytes + kv <= gpu_bytes
        what = (
            f"fits_on_gpu({name}, n_requests={n_req}, context_len={context}, gpu_bytes={gpu_bytes:,}, "
            f"weight_bytes={weight_bytes:,})"
        )
        got = learner.fits_on_gpu(cfg, n_req, context, gpu_bytes, weight_bytes, 2)
        if type(got) is not bool:
            fail(_("{what} must return a bool", what=what), "bool", f"{type(got).__name__}: {got!r}")
        expect_equal(
            got,
            expected,
            what,
            hint=_(
                "weights {weight_bytes:,} B + KV cache {kv:,} B: it fits when weights + "
                "KV cache <= GPU memory; 128 x 4K on Llama-3-8B is 68.7 GB of KV",
                weight_bytes=weight_bytes,
                kv=kv,
            ),
        )


# ------------------------------------------------------------------ mistakes named by what the answer does
from grader.checks.support import kv_mistakes  # noqa: E402
from grader.checks.support.mistakes import shows  # noqa: E402 - the naming test finds declaring checks by it

shows("fits_on_gpu", *kv_mistakes.KEYS)
kv_mistakes.declare(__name__, ("matches_dynamic_cache", "llama3_8b_per_token"), ("matches_dynamic_cache",))
_kv_truth = kv_mistakes.truth
