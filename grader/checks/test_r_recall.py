"""R — recall. One answer sheet of must-remember facts, each checked by what it means.

Ground truth, per key point:
- bytes_per_param: the five parts of the training state, each part's size from torch's
  ``element_size()`` of bf16 (weights, grads) and fp32 (master weights, AdamW's m and v).
- ridge_point / decode_floor / ci95: the formula evaluated on drawn inputs (ci95 with the exact
  normal quantile ``statistics.NormalDist().inv_cdf(0.975)``), then the course's numbers.
- kv_cache_per_token: the K/V tensors of a real transformers ``DynamicCache`` after a forward
  of a ``LlamaForCausalLM`` on the meta device, for drawn configs and for Llama-3-8B.
- first_step_loss: ``F.cross_entropy`` on all-zero logits (a uniform prediction) for drawn V.
- ignore_index: the default of ``F.cross_entropy``'s ``ignore_index``, and the learner's value
  really drops those labels from the loss.
- einsum_qk / einsum_pv: ``np.einsum`` of the learner's string on random arrays vs ``Q @ K^T``
  and ``P @ V`` (any letters, with and without a heads axis).
- thread_speedup: ~1x under the GIL, for any number of threads and cores.
- part_topics / run_record_items: the course's table of the six parts; the seven items of a
  run record, matched by meaning in any order.
"""

from __future__ import annotations

import functools
import inspect
import math
import re
import statistics
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, as_number, as_str, fail

# ---------------------------------------------------------------- helpers


def _rel_close(got: float, expected: float, rel: float) -> bool:
    return abs(got - expected) <= rel * abs(expected)


def _number(learner, name: str, *args) -> tuple[float, str]:
    what = f"{name}({', '.join(repr(a) for a in args)})"
    return as_number(getattr(learner, name)(*args), what), what


def _words(text: str) -> str:
    """Lower case, every run of non-alphanumerics one space: 'Git-SHA (commit)' -> 'git sha commit'."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower().replace("_", " ")).split())


# ---------------------------------------------------------------- bytes per parameter

def _state_part(name: str) -> str | None:
    """Which of the five parts a name means (None: not recognised). Order matters."""
    w = _words(name)
    tokens = set(w.split())
    if "master" in tokens or ("fp32" in tokens and tokens & {"weights", "weight", "params", "parameters", "copy"}):
        return "master"
    if tokens & {"grad", "grads", "gradient", "gradients"}:
        return "grads"
    if ("exp avg sq" in w or tokens & {"v", "second", "variance", "nu", "sq"}):
        return "adam_v"
    if ("exp avg" in w or tokens & {"m", "first", "momentum", "mu", "mean"}):
        return "adam_m"
    if tokens & {"weights", "weight", "params", "parameters", "param", "model"}:
        return "weights"
    return None


def test_bytes_per_param(learner):
    import torch

    got = learner.bytes_per_param_parts()
    if type(got) is not dict:
        fail("bytes_per_param_parts() must return a dict {part name: bytes}", "dict", type(got).__name__)
    bf16 = torch.empty(0, dtype=torch.bfloat16).element_size()
    fp32 = torch.empty(0, dtype=torch.float32).element_size()
    # what the optimizer keeps for every trainable parameter under bf16 autocast + AdamW
    expected = {"weights": bf16, "grads": bf16, "master": fp32, "adam_m": fp32, "adam_v": fp32}
    seen: dict[str, str] = {}
    for name, size in got.items():
        name = as_str(name, "a part name (dict key)")
        part = _state_part(name)
        if part is None:
            fail(f"part {name!r} is not one of the training state's parts", sorted(expected), name,
                 "the parts are the bf16 weights, their bf16 gradients, the fp32 master weights and "
                 "AdamW's two fp32 moments (m, v)")
        if part in seen:
            fail(f"parts {seen[part]!r} and {name!r} name the same thing ({part})", sorted(expected), sorted(got))
        seen[part] = name
        if as_number(size, f"bytes of {name!r}") != expected[part]:
            fail(f"bytes per parameter of {name!r} ({part})", expected[part], size,
                 "bf16 is 2 bytes; the master copy and both AdamW moments are fp32 (4 bytes)")
    missing = sorted(set(expected) - set(seen))
    if missing:
        fail("parts of the training state are missing", sorted(expected), sorted(got),
             f"missing: {missing}; 16 bytes = 2 + 2 + 4 + 4 + 4")
    total = sum(as_number(v, "bytes") for v in got.values())
    if total != sum(expected.values()):  # the course's number, as a second check
        fail("bytes per trainable parameter (sum of the parts)", 16, total)


# ---------------------------------------------------------------- roofline numbers

@given(peak=st.floats(1e11, 1e16), bw=st.floats(1e10, 1e14))
def test_ridge_point(learner, peak, bw):
    for p, b in [(989e12, 3.35e12), (peak, bw)]:  # the course's H100 first
        got, what = _number(learner, "ridge_point", p, b)
        expected = p / b  # FLOP/s over bytes/s = FLOP per byte
        if not _rel_close(got, expected, 1e-6):
            fail(what + " in FLOP/byte", expected, got, "ridge = peak FLOP/s / bandwidth bytes/s (H100 ~295)")
    got, what = _number(learner, "ridge_point", 989e12, 3.35e12)
    if not 290 <= got <= 300:
        fail(what, "~295 FLOP/byte", got)


@given(n=st.floats(1e6, 1e12), bpp=st.sampled_from([0.5, 1, 2, 4]), bw=st.floats(1e10, 1e14))
def test_decode_floor(learner, n, bpp, bw):
    for args in [(8.03e9, 2, 3.35e12), (n, bpp, bw)]:
        got, what = _number(learner, "decode_floor_ms", *args)
        expected = args[0] * args[1] / args[2] * 1e3  # every weight read once per token, in ms
        if not _rel_close(got, expected, 1e-6):
            fail(what + " in ms", expected, got,
                 "decode at batch 1 is memory-bound: weight bytes / bandwidth, in milliseconds")
    got, what = _number(learner, "decode_floor_ms", 8.03e9, 2, 3.35e12)
    if not 4.7 <= got <= 4.9:
        fail(what + ": Llama-3-8B bf16 on an H100", "~4.8 ms", got)


# ---------------------------------------------------------------- KV cache

@functools.lru_cache(maxsize=None)
def _cache_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, dtype, T=3) -> int:
    """Bytes per token of the DynamicCache a real LlamaForCausalLM (meta device) fills."""
    import torch

    from grader.given.tiny_models import build_llama

    cfg = {"vocab_size": 16, "hidden_size": n_heads * head_dim, "intermediate_size": 16,
           "num_hidden_layers": n_layers, "num_attention_heads": n_heads,
           "num_key_value_heads": n_kv_heads, "head_dim": head_dim, "tie_word_embeddings": False,
           "max_position_embeddings": 64}
    model = build_llama(cfg, device="meta", dtype=dtype)
    with torch.no_grad():
        out = model(torch.zeros(1, T, dtype=torch.long, device="meta"), use_cache=True)
    cache = out["cache"] if "cache" in out else out["past_key_values"]
    total = sum(layer.keys.nbytes + layer.values.nbytes for layer in cache.layers)
    assert total % T == 0, (total, T)
    return total // T


@st.composite
def _kv_configs(draw):
    import torch

    n_kv = draw(st.integers(1, 8))
    return dict(n_layers=draw(st.integers(1, 8)), n_heads=n_kv * draw(st.integers(1, 4)), n_kv_heads=n_kv,
                head_dim=draw(st.sampled_from([16, 32, 64, 80, 128])),
                dtype=draw(st.sampled_from([torch.bfloat16, torch.float16, torch.float32])))


@settings(max_examples=8)
@given(cfg=_kv_configs())
def test_kv_cache_per_token(learner, cfg):
    import torch

    from grader.given.tiny_models import LLAMA3_8B

    llama = dict(n_layers=LLAMA3_8B["num_hidden_layers"], n_heads=LLAMA3_8B["num_attention_heads"],
                 n_kv_heads=LLAMA3_8B["num_key_value_heads"], head_dim=LLAMA3_8B["head_dim"],
                 dtype=torch.bfloat16)
    for c in [cfg, llama]:
        args = (c["n_layers"], c["n_heads"], c["n_kv_heads"], c["head_dim"], c["dtype"].itemsize)
        what = f"kv_cache_bytes_per_token{args}"
        got = as_number(learner.kv_cache_bytes_per_token(*args), what)
        expected = _cache_bytes_per_token(c["n_layers"], c["n_heads"], c["n_kv_heads"], c["head_dim"], c["dtype"])
        if got != expected:
            fail(what + " (bytes)", expected, got,
                 "2 (K and V) x layers x n_kv_heads (not n_heads: GQA) x head_dim x bytes")
    if got != 131_072:  # the course's number: Llama-3-8B, bf16
        fail("Llama-3-8B KV cache bytes per token", 131_072, got)


# ---------------------------------------------------------------- the training loop

@settings(max_examples=20)
@given(V=st.integers(2, 200_000))
def test_first_step_loss(learner, V):
    import torch
    import torch.nn.functional as F

    for v in [128, V]:
        got, what = _number(learner, "first_step_loss", v)
        # a freshly initialised model predicts ~uniformly: zero logits
        targets = torch.arange(4) % v
        expected = F.cross_entropy(torch.zeros(4, v, dtype=torch.float64), targets).item()
        if not _rel_close(got, expected, 1e-6):  # a float32 cross-entropy of zero logits is right too
            fail(what + " in nats", expected, got, "the loss of a uniform prediction over V classes")


def test_ignore_index(learner):
    import torch
    import torch.nn.functional as F

    got = as_int(learner.ignore_index(), "ignore_index()")
    default = inspect.signature(F.cross_entropy).parameters["ignore_index"].default
    if got != default:
        fail("ignore_index() must be cross_entropy's default ignore_index", default, got)
    # semantics: labels set to it are left out of the loss
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(12, 7, generator=g, dtype=torch.float64)
    labels = torch.randint(0, 7, (12,), generator=g)
    masked = labels.clone()
    masked[::3] = got
    keep = masked != got
    try:
        loss = F.cross_entropy(logits, masked)
    except (IndexError, RuntimeError) as exc:
        fail(f"F.cross_entropy with labels set to {got} must run", "a loss over the other labels", repr(exc))
    expected = F.cross_entropy(logits[keep], labels[keep])
    if not torch.allclose(loss, expected, rtol=0, atol=1e-12):
        fail(f"labels equal to {got} must be left out of the loss", expected.item(), loss.item())


# ---------------------------------------------------------------- einsum

def _shape_and_values(got, expected) -> str:
    return f"shape {got.shape}" + (", other values" if got.shape == expected.shape else "")


def _einsum(spec, a, b, what):
    spec = as_str(spec, what)
    try:
        return np.einsum(spec, a, b)
    except Exception as exc:  # noqa: BLE001  a malformed or mismatched spec is the learner's error
        fail(f"np.einsum({spec!r}, ...) with shapes {a.shape}, {b.shape} failed", "a result", repr(exc))


_dims = st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))


@given(dims=_dims, seed=strategies.seeds)
def test_einsum_qk(learner, dims, seed):
    rng = np.random.default_rng(seed)
    for b, h, t, s, d in [(2, 3, 4, 5, 6), dims]:  # all sizes distinct first: a swapped axis can't hide
        for with_heads in (False, True):
            lead = (b, h) if with_heads else (b,)
            q, k = rng.standard_normal(lead + (t, d)), rng.standard_normal(lead + (s, d))
            what = f"einsum_qk(with_heads={with_heads})"
            spec = learner.einsum_qk(with_heads)
            got = _einsum(spec, q, k, what)
            expected = q @ k.swapaxes(-1, -2)  # scores (..., T, S)
            if got.shape != expected.shape or not np.allclose(got, expected, rtol=0, atol=1e-12):
                fail(f"np.einsum({spec!r}, Q, K) with Q {q.shape}, K {k.shape} must equal Q @ K^T",
                     f"shape {expected.shape}", _shape_and_values(got, expected),
                     "contract the feature axis d; the output is (..., T, S): queries then keys")


@given(dims=_dims, seed=strategies.seeds)
def test_einsum_pv(learner, dims, seed):
    rng = np.random.default_rng(seed)
    for b, h, t, s, d in [(2, 3, 4, 5, 6), dims]:
        for with_heads in (False, True):
            lead = (b, h) if with_heads else (b,)
            p, v = rng.standard_normal(lead + (t, s)), rng.standard_normal(lead + (s, d))
            what = f"einsum_pv(with_heads={with_heads})"
            spec = learner.einsum_pv(with_heads)
            got = _einsum(spec, p, v, what)
            expected = p @ v  # output (..., T, d)
            if got.shape != expected.shape or not np.allclose(got, expected, rtol=0, atol=1e-12):
                fail(f"np.einsum({spec!r}, P, V) with P {p.shape}, V {v.shape} must equal P @ V",
                     f"shape {expected.shape}", _shape_and_values(got, expected),
                     "contract the key axis S; the output is (..., T, d)")


# ---------------------------------------------------------------- statistics

@given(p=st.floats(0.0, 1.0), n=st.integers(1, 1_000_000))
def test_ci95(learner, p, n):
    z = statistics.NormalDist().inv_cdf(0.975)  # 1.95996...
    for pp, nn in [(0.5, 80), (p, n)]:
        got, what = _number(learner, "ci95_half_width", pp, nn)
        expected = z * math.sqrt(pp * (1 - pp) / nn)
        if not (abs(got - expected) <= 1e-3 * expected + 1e-12):  # 1.96 vs 1.95996 is fine
            fail(what + " as a fraction", expected, got,
                 "z_0.975 x sqrt(p(1-p)/n), with z_0.975 = 1.96 (a two-sided 95% interval)")


@given(n_threads=st.integers(2, 64), n_cores=st.integers(1, 128))
def test_thread_speedup(learner, n_threads, n_cores):
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    if not gil:  # pragma: no cover - a free-threaded interpreter runs the grader
        pytest.skip("the grader runs on a free-threaded Python: the GIL answer does not apply here")
    for args in [(8, 8), (n_threads, n_cores)]:
        got, what = _number(learner, "thread_speedup", *args)
        # Under the GIL one thread runs bytecode at a time: threads give ~1x whatever the cores.
        if not 0.75 <= got <= 1.33:
            fail(what, "~1.0 (0.75 .. 1.33)", got,
                 "the GIL lets one thread execute Python bytecode at a time; processes, not threads, "
                 "speed up CPU-bound Python (course: 8 threads 0.46 s = serial 0.46 s)")


# ---------------------------------------------------------------- the map of the course

PARTS = {
    "generators that stream a JSONL file": 1,
    "the GIL: threads vs process pools": 1,
    "__getitem__, __call__ and other Python protocols": 1,
    "@dataclass experiment configs": 1,
    "broadcasting rules": 2,
    "einsum for attention": 2,
    "Pandas groupby error analysis": 2,
    "ci95 of an accuracy": 2,
    "multi-seed mean and shaded band plots": 2,
    "the twenty-line training loop": 3,
    "backward() accumulates into .grad": 3,
    "clip_grad_norm_ and warmup + cosine schedule": 3,
    "first-step loss ln V as an init check": 3,
    "16 bytes per trainable parameter": 4,
    "activation memory and gradient checkpointing": 4,
    "DDP vs FSDP": 4,
    "fp32 master weights and bf16 vs fp16": 4,
    "LoRA with peft": 5,
    "chat templates and tokenizer.json": 5,
    "SFT loss mask: most tokens are -100": 5,
    "SFTTrainer and compute_loss": 5,
    "roofline and the ridge point": 6,
    "decode floor: weight bytes / bandwidth": 6,
    "KV cache bytes per token": 6,
    "reading a torch.profiler table": 6,
    "the seven-item run record": 6,
}  # part 7, §一 and §二: which part teaches each (stub's TOPICS, same spelling)


@settings(max_examples=5)
@given(order=st.permutations(sorted(PARTS)))
def test_part_topics(learner, order):
    wrong = {}
    for topic in order:
        got = as_int(learner.part_of_topic(topic), f"part_of_topic({topic!r})")
        if got != PARTS[topic]:
            wrong[topic] = (got, PARTS[topic])
    if wrong:
        fail(f"{len(wrong)} of {len(PARTS)} topics are in another part",
             {t: e for t, (g, e) in wrong.items()}, {t: g for t, (g, e) in wrong.items()},
             "1 Python, 2 NumPy/Pandas/Matplotlib, 3 training loop, 4 memory, 5 Hugging Face, "
             "6 GPU & experiment management")


# ---------------------------------------------------------------- the run record

RECORD_ITEMS = ("run id", "commit", "config", "data version", "seed", "environment", "metrics")


def _record_item(name: str) -> str | None:
    """Which of the seven items a name means (None: none). First match wins."""
    w = _words(name)
    tokens = set(w.split())
    if tokens & {"data", "dataset", "datasets", "corpus"}:
        return "data version"
    if "seed" in tokens or "seeds" in tokens:
        return "seed"
    if "runid" in tokens or tokens & {"run", "experiment"} and tokens & {"id", "name", "uuid", "identifier"}:
        return "run id"
    if tokens & {"commit", "git", "sha", "hash"} or "code version" in w:
        return "commit"
    if tokens & {"config", "configuration", "configs", "hyperparameters", "hparams", "cfg", "args"}:
        return "config"
    if tokens & {"environment", "env", "pip", "freeze", "requirements", "packages", "versions", "conda", "docker"}:
        return "environment"
    if tokens & {"metrics", "metric", "results", "result", "scores", "score", "evaluation", "eval"}:
        return "metrics"
    return None


def test_run_record_items(learner):
    got = learner.run_record_items()
    if type(got) not in (list, tuple):
        fail("run_record_items() must return a list of names", "list[str]", type(got).__name__)
    seen: dict[str, str] = {}
    for name in got:
        name = as_str(name, "a run-record item")
        item = _record_item(name)
        if item is None:
            fail(f"{name!r} is not one of the run record's items", list(RECORD_ITEMS), list(got))
        if item in seen:
            fail(f"{seen[item]!r} and {name!r} are the same item ({item})", list(RECORD_ITEMS), list(got))
        seen[item] = name
    missing = [i for i in RECORD_ITEMS if i not in seen]
    if missing:
        fail(f"the run record lacks {missing}", list(RECORD_ITEMS), list(got),
             "seven items, or the result is only 'it seemed so at the time'")
