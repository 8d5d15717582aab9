"""The quiz's right answers, computed by the hidden checks' own ground truth. Nothing here is typed
in: every function calls the check-side code that decides the same fact for ``make grade``
(``grader/checks/truth/``, which the checks import too), on the variant's drawn numbers.

This is the only module of the quiz that imports check-side code, and only from
``grader/checks/truth/`` (tests/test_check_imports.py): a fact a check and a question share is
one function there, never a check file's private helper.

Expensive measurements (activation bytes measured in a real decoder layer, the list approach's
peak factor) are cached per process and, through :func:`set_cache`, in the quiz's SQLite file,
keyed by the library versions.
"""

from __future__ import annotations

import functools
import inspect
import json
import math
from collections.abc import Callable

# ------------------------------------------------------------------ persistent cache (optional)
_store_get: Callable[[str], str | None] | None = None
_store_put: Callable[[str, str], None] | None = None


def set_cache(get: Callable[[str], str | None] | None, put: Callable[[str, str], None] | None) -> None:
    global _store_get, _store_put
    _store_get, _store_put = get, put


def _versions() -> str:
    import torch
    import transformers

    return f"torch={torch.__version__},transformers={transformers.__version__}"


_memo: dict[str, object] = {}


def _cached(name: str, args: tuple, compute: Callable[[], object]):
    key = f"{name}{json.dumps(args, sort_keys=True, default=str)}|{_versions()}"
    if key in _memo:
        return _memo[key]
    if _store_get is not None:
        hit = _store_get(key)
        if hit is not None:
            _memo[key] = json.loads(hit)
            return _memo[key]
    value = _memo[key] = compute()
    if _store_put is not None:
        _store_put(key, json.dumps(value))
    return value


def _persisted(name: str, args: tuple, compute: Callable[[], object]):
    """A deterministic measurement worth seconds, kept across processes by the grader's signed memo
    (grader/checks/truth/memo.py, keyed by its inputs, this module's code and the libraries):
    each quiz process (and test) would otherwise measure the same Llama-3-8B layer again."""
    from grader.checks.truth import memo

    return memo.memoised(name, args, compute, sources=("quiz/truth.py",))


# ------------------------------------------------------------------ real configs
def llama3_8b() -> dict:
    from grader.given.tiny_models import LLAMA3_8B

    return dict(LLAMA3_8B)


def qwen2_5_0_5b() -> dict:
    from grader.given.tiny_models import QWEN2_5_0_5B

    return dict(QWEN2_5_0_5B)


MODELS = {"Llama-3-8B": llama3_8b, "Qwen2.5-0.5B": qwen2_5_0_5b}
TINY = {
    "vocab_size": 64,
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 1,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 8,
    "tie_word_embeddings": False,
    "max_position_embeddings": 64,
}


# ------------------------------------------------------------------ training state (A6, B5, C1, C4)
@functools.cache
def state_bytes_per_param() -> dict[str, float]:
    """Bytes per parameter of each part of the training state, read off the real tensors of a small
    model set up in the bf16 + AdamW convention after one step (A6's ``real_state``): fully
    trainable for the five trainable parts, with peft LoRA for the frozen base's bf16 copy."""
    from grader.checks.truth.training_state import real_state

    items = tuple(sorted(TINY.items()))
    full, lora = real_state(items, None, None, 0), real_state(items, 4, "all-linear", 0)
    out = {k: v / full["n_trainable"] for k, v in full["parts"].items() if k != "frozen_weights"}
    out["frozen_weights"] = lora["parts"]["frozen_weights"] / lora["n_frozen"]
    return out


TRAINABLE_PARTS = ("weights", "grads", "master", "adam_m", "adam_v")


def bytes_per_trainable_param() -> float:
    b = state_bytes_per_param()
    return sum(b[k] for k in TRAINABLE_PARTS)


def grads_and_state_per_param() -> float:
    """What LoRA removes for a frozen parameter: everything but its bf16 weight (C4: 14 bytes)."""
    b = state_bytes_per_param()
    return sum(b[k] for k in TRAINABLE_PARTS if k != "weights")


def full_state_bytes(n_params: float) -> float:
    return n_params * bytes_per_trainable_param()


def lora_state_bytes(n_base: float, n_trainable: float) -> float:
    return n_base * state_bytes_per_param()["frozen_weights"] + n_trainable * bytes_per_trainable_param()


def qlora_state_bytes(n_base: float, n_trainable: float) -> float:
    """C1's follow-up: the base stored in 4 bits (half a byte per parameter, rounded up), adapters 16."""
    return -(-int(n_base) // 2) + n_trainable * bytes_per_trainable_param()


def inference_bytes(n_params: float) -> float:
    """One bf16 copy of the weights (C1: the real bf16 model's parameter bytes)."""
    import torch

    return n_params * torch.empty((), dtype=torch.bfloat16).element_size()


def gpus_needed(total_bytes: float, gpu_bytes: float) -> int:
    """C1's rule: the fewest GPUs whose memory holds the state (rounded up)."""
    return -(-int(round(total_bytes)) // int(gpu_bytes))


def ddp_or_fsdp(replica_bytes: float, gpu_bytes: float) -> str:
    """C1's rule: DDP only if a full replica fits one GPU, else FSDP."""
    return "DDP" if replica_bytes <= gpu_bytes else "FSDP"


def ddp_per_gpu_bytes(state: float, activations: float) -> float:
    """B5's rule: a full replica's state on every GPU plus its own activations."""
    return state + activations


def fsdp_per_gpu_bytes(state: float, n_gpus: int) -> float:
    return -(-int(round(state)) // n_gpus)


def effective_batch(per_gpu: int, n_gpus: int, accumulation: int) -> int:
    return per_gpu * n_gpus * accumulation


# ------------------------------------------------------------------ models on the meta device (A8, A9, B4)
@functools.cache
def _model_params(items: tuple) -> int:
    from grader.checks.truth.meta_tensors import model_params

    return model_params(dict(items))


def model_params(config: dict) -> int:
    """Parameters of the model built from ``config`` on the meta device (B4's ``model_params``)."""
    return _model_params(tuple(sorted(config.items())))


def lora_trainable(config: dict, r: int, target_modules="all-linear") -> int:
    """What peft makes trainable on a meta-device model (A8's ``peft_trainable``)."""
    from grader.checks.truth.lora_params import peft_trainable

    return peft_trainable(config, r, target_modules)


def kv_cache_bytes(config: dict, batch: int, seq: int, dtype: str = "bfloat16") -> int:
    """Bytes of the keys and values in a real DynamicCache after a meta-device forward (A9)."""
    import torch

    from grader.checks.truth.kv_cache import meta_cache_bytes

    return meta_cache_bytes(config, batch, seq, getattr(torch, dtype))


def real_kv_cache_bytes(config: dict, batch: int, seq: int, dtype: str = "float32") -> int:
    """The same from a real forward of a tiny random model on CPU (A9, C4)."""
    import torch

    from grader.checks.truth.kv_cache import real_cache_bytes

    return real_cache_bytes(config, batch, seq, getattr(torch, dtype))


# ------------------------------------------------------------------ activations (A7, B1, C1)
T_MEASURED = 32  # tokens of the measured forward; the bytes grow linearly with T (A7's premise)


def _activation_per_token_layer(config: dict, dtype: str, checkpointing: bool) -> float:
    from grader.checks.truth.activations import measured_bytes

    one = dict(config, num_hidden_layers=1, vocab_size=16)  # the blocks only: vocab does not change them
    return measured_bytes(one, 1, T_MEASURED, dtype, checkpointing=checkpointing) / T_MEASURED


def activation_bytes(config: dict, batch: int, seq: int, dtype: str = "bfloat16", checkpointing: bool = False) -> float:
    """Saved-for-backward bytes of the decoder layers, measured with ``saved_tensors_hooks`` in one
    real transformers decoder layer of this config (A7's ``measured_bytes``), times
    B x T x layers: the proportionality A7's checks measure (``growth_with_inputs``)."""
    args = (sorted(config.items()), dtype, checkpointing)
    per = _cached(
        "activation_per_token_layer",
        args,
        lambda: _persisted(
            "quiz.activation_per_token_layer", args, lambda: _activation_per_token_layer(config, dtype, checkpointing)
        ),
    )
    return per * batch * seq * config["num_hidden_layers"]


@functools.cache
def activation_factors() -> dict[str, bool]:
    """Which knobs change the measured activations of a small real Llama (A7's measurement)."""
    from grader.checks.truth.activations import measured_bytes

    base = {
        "vocab_size": 64,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": 8,
        "tie_word_embeddings": False,
        "max_position_embeddings": 64,
    }
    b0 = measured_bytes(base, 2, 8, "float32")
    knobs = {
        "batch": (dict(base), 4, 8),
        "seq_len": (dict(base), 2, 16),
        "layers": (dict(base, num_hidden_layers=4), 2, 8),
        "hidden": (dict(base, hidden_size=64, head_dim=16), 2, 8),
        "vocab": (dict(base, vocab_size=640), 2, 8),
    }
    return {k: measured_bytes(cfg, b, t, "float32") != b0 for k, (cfg, b, t) in knobs.items()}


# ------------------------------------------------------------------ A1, C7: streaming
def list_peak_factor() -> float:
    """The list approach's peak / file size, measured with tracemalloc (A1's ``measured_factor``)."""
    from grader.checks.truth.streaming import measured_factor

    return _cached("list_peak_factor", (), measured_factor)


def unique_texts(docs: list[str], min_chars: int = 1) -> list[str]:
    """C7's serial clean -> filter -> exact dedupe."""
    from grader.checks.truth.dedupe import serial

    return serial(docs, min_chars)


def make_docs(seed: int, n: int, max_words: int = 6) -> list[str]:
    from grader.checks.truth.dedupe import make_docs as _make

    return _make(seed, n, max_words)


def why_processes_fall_short() -> frozenset:
    """C7's follow-up, the course's answer as C7's check grades it (part 1: 「差在进程启动与 pickle」)."""
    from grader.checks.truth.dedupe import COURSE_CAUSES

    return COURSE_CAUSES


def thread_speedup_range() -> tuple[float, float]:
    """R's rule: under the GIL, threads give ~1x for CPU-bound Python whatever the cores; the band is the one
    R's check accepts (grader/checks/truth/recall.py, as test_thread_speedup)."""
    import sys

    from grader.checks.truth.recall import THREAD_SPEEDUP_BAND

    if not getattr(sys, "_is_gil_enabled", lambda: True)():
        raise RuntimeError("a free-threaded interpreter: the GIL answer does not apply")
    return THREAD_SPEEDUP_BAND


# ------------------------------------------------------------------ A2, A3: shapes
def meta_nbytes(shape: tuple, dtype: str) -> int:
    from grader.checks.truth import meta_tensors

    return meta_tensors.nbytes(tuple(shape), dtype)


def meta_index_shape(shape: tuple, index: tuple) -> tuple:
    from grader.checks.truth import meta_tensors

    return meta_tensors.index_shape(tuple(shape), index)


def broadcast(a: tuple, b: tuple) -> tuple | None:
    """A3's ground truth: np.broadcast_shapes, None when numpy refuses."""
    import numpy as np

    try:
        return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        return None


# ------------------------------------------------------------------ A4, C5: autograd and the loop
def grad_after_k_backwards(w: float, x: float, k: int) -> float:
    from grader.checks.truth.grad_accumulation import grad_after_k_backwards

    return grad_after_k_backwards(w, x, k)


def micro_loss_scale(k: int, micro: int, seed: int = 0) -> float:
    """The factor each of k equal micro-batches' mean loss needs so that the accumulated gradient
    equals the full batch's: real autograd on a small linear model (float64)."""
    import torch

    g = torch.Generator().manual_seed(seed)
    x = torch.randn(k * micro, 3, generator=g, dtype=torch.float64)
    y = torch.randn(k * micro, 1, generator=g, dtype=torch.float64)
    w0 = torch.randn(3, 1, generator=g, dtype=torch.float64)

    def grad(xs, ys):
        w = w0.clone().requires_grad_(True)
        torch.nn.functional.mse_loss(xs @ w, ys).backward()
        return w.grad

    full = grad(x, y)
    summed = sum(grad(x[i * micro : (i + 1) * micro], y[i * micro : (i + 1) * micro]) for i in range(k))
    return float((full / summed).mean())


def ignore_index() -> int:
    """F.cross_entropy's default ignore_index (the R check reads it the same way; = the SFT truth's
    IGNORE_INDEX, what transformers' causal-LM loss skips)."""
    import torch.nn.functional as F

    from grader.checks.truth.sft import IGNORE_INDEX

    default = int(inspect.signature(F.cross_entropy).parameters["ignore_index"].default)
    if default != IGNORE_INDEX:
        raise RuntimeError(f"torch's ignore_index default {default} != the SFT truth's {IGNORE_INDEX}")
    return default


def clipped_norm(norm: float, max_norm: float = 1.0, seed: int = 0) -> float:
    """The gradient norm after torch.nn.utils.clip_grad_norm_ on a real gradient of that norm."""
    import torch

    g = torch.Generator().manual_seed(seed)
    p = torch.nn.Parameter(torch.zeros(7, dtype=torch.float64))
    grad = torch.randn(7, generator=g, dtype=torch.float64)
    p.grad = grad / grad.norm() * norm
    torch.nn.utils.clip_grad_norm_([p], max_norm)
    return float(p.grad.norm())


def lr_at(step: int, max_lr: float, min_lr: float, warmup_steps: int, total_steps: int) -> float:
    """The lr a real AdamW runs step ``step`` with under torch's warmup + cosine schedulers
    (grader/checks/truth/training_loop.py, P2's and C5's ground truth)."""
    from grader.checks.truth.training_loop import scheduled_lr

    return scheduled_lr(step, max_lr=max_lr, min_lr=min_lr, warmup_steps=warmup_steps, total_steps=total_steps)


@functools.cache
def autocast_dtypes() -> dict[str, str]:
    """X3's ground truth: a Linear and cross_entropy run under CPU autocast(bfloat16)."""
    import torch

    from grader.checks.truth.autocast import cpu_bf16_autocast

    g = torch.Generator().manual_seed(0)
    x, w, b = torch.randn(4, 8, generator=g), torch.randn(5, 8, generator=g) / 8**0.5, torch.randn(5, generator=g)
    out = cpu_bf16_autocast(x, w, b, torch.randint(0, 5, (4,), generator=g))
    return {
        "parameters": str(out["weight_after"].dtype).replace("torch.", ""),
        "matmul_output": str(out["logits"].dtype).replace("torch.", ""),
        "loss": str(out["loss"].dtype).replace("torch.", ""),
    }


@functools.cache
def hooks_run() -> dict[str, bool]:
    """Does a forward hook run under model(x) and under model.forward(x)? A real nn.Module."""
    import torch

    seen = []
    m = torch.nn.Linear(2, 2)
    m.register_forward_hook(lambda *_: seen.append(1))
    x = torch.zeros(1, 2)
    m(x)
    call = len(seen) == 1
    m.forward(x)
    return {"call": call, "forward": len(seen) == 2}


# ------------------------------------------------------------------ A5, C2: first loss, triage
def uniform_loss(vocab_size: int) -> float:
    """A5's ground truth: cross-entropy of all-zero logits over V classes (= ln V)."""
    from grader.checks.truth.first_loss import uniform_loss as _u

    return _u(vocab_size)


def first_loss_verdict(loss: float, vocab_size: int, drawn: str) -> str:
    """A drawn first loss's verdict is how it was drawn (``drawn``: ok, too_high, too_low), as C2's
    check draws its cases; the premise is checked against ln V measured here: more than 1 nat above
    is too high, more than 1 below too low (A5's flag, C2's hint)."""
    gap = loss - uniform_loss(vocab_size)
    measured = "too_high" if gap > 1 else "too_low" if gap < -1 else "ok"
    if measured != drawn:
        raise RuntimeError(f"quiz: a first loss drawn {drawn} is {gap:+.2f} nats from ln V")
    return drawn


def char_gpt_verdict(seed: int, head_scale: float) -> str:
    """C2's real char GPT: the shipped init is ok, an output layer scaled x30 or more is too high;
    the measured first loss must show it (C2's check premise: within 0.5 nats of ln V iff ok)."""
    want = "ok" if head_scale == 1.0 else "too_high"
    real = real_first_loss(seed, head_scale)
    if (abs(real - uniform_loss(char_gpt_vocab())) < 0.5) != (want == "ok"):
        raise RuntimeError(f"quiz: the char GPT with its head scaled x{head_scale} starts at {real:.3f}")
    return want


def char_gpt_vocab() -> int:
    from grader.checks.truth.first_loss import SMALL

    return SMALL.vocab_size


def real_first_loss(seed: int, head_scale: float) -> float:
    """C2's ground truth: the first loss of a real small char GPT with its output layer scaled."""
    from grader.checks.truth.first_loss import real_first_loss as _r

    return _r(seed, head_scale)


def loss_shapes_run(logits_shape: tuple, labels_shape: tuple) -> bool:
    """Does F.cross_entropy(logits.view(-1, V), labels.view(-1)) run (no error) for these shapes?"""
    import torch
    import torch.nn.functional as F

    logits, labels = torch.zeros(logits_shape), torch.zeros(labels_shape, dtype=torch.long)
    try:
        F.cross_entropy(logits.view(-1, logits_shape[-1]), labels.view(-1))
    except (RuntimeError, ValueError, IndexError):
        return False
    return True


def real_trace(seed: int, missing: str, steps: int = 6) -> dict:
    """C2's ground truth: a real short run of the twenty-line loop with one line removed."""
    from grader.checks.truth.loop_trace import real_trace as _t

    return _t(seed, missing, steps)


def triage_lines() -> tuple[str, ...]:
    """What C2's traces may leave out ("none": nothing), as its check draws them."""
    from grader.checks.truth.loop_trace import LINES

    return LINES


def grad_norm_healthy(norms: list[float], drawn_healthy: bool) -> bool:
    """A grad-norm curve is healthy as drawn (C2's check: a large first step then values within 4x of
    each other; spoiled after step 5 by a NaN or a spike); the premise, C2's hint, is checked: finite
    and no norm after the fifth step above 5x the median."""
    import statistics

    rule = all(math.isfinite(v) for v in norms) and not any(v > 5 * statistics.median(norms) for v in norms[5:])
    if rule != drawn_healthy:
        raise RuntimeError(f"quiz: a curve drawn {'healthy' if drawn_healthy else 'spoiled'} reads otherwise: {norms}")
    return drawn_healthy


# ------------------------------------------------------------------ A10: profiler
def idle_fraction(wall_ms: float, device_ms: float) -> float:
    return max(0.0, 1.0 - device_ms / wall_ms)


def step_kind(idle: float, share: float) -> str | None:
    """The A10 check's setups, each shown with a wide margin: which one these numbers are."""
    from grader.checks.truth.profiled_steps import LABELS, clearly

    kinds = [k for k in LABELS if clearly(k, idle, share)]
    return kinds[0] if len(kinds) == 1 else None


def real_profile(kind: str, batch: int, seq: int, seed: int) -> dict:
    """A real torch.profiler run of two training steps of the A10 check's setup ``kind``."""
    from grader.checks.truth.profiled_steps import profile_step

    return profile_step(kind, batch, seq, seed)


def gemm_share(ops: list[dict]) -> float:
    from grader.checks.truth.profiled_steps import reference_view

    return reference_view(ops, 1.0)[1]


# ------------------------------------------------------------------ roofline (R, B4, C3)
def ridge(peak_flops: float, bandwidth: float) -> float:
    return peak_flops / bandwidth


def roofline(flops: float, nbytes: float, peak: float, bandwidth: float) -> dict:
    """C3's rule: the step waits for the slower ceiling."""
    t = max(flops / peak, nbytes / bandwidth)
    return {
        "time_s": t,
        "bound": "memory" if flops / nbytes < peak / bandwidth else "compute",
        "intensity": flops / nbytes,
    }


@functools.cache
def decode_flops_per_weight_byte(batch: int) -> float:
    """Matmul FLOPs counted by FlopCounterMode in a real one-token decode step of a tiny bf16 Llama,
    per byte of its linear weights (C3's ``real_decode_step``): the decode intensity."""
    from grader.checks.truth.decode import real_decode_step

    _, nbytes, flops = real_decode_step(TINY, batch)
    return flops / nbytes


def decode_flops_per_param(batch: int) -> float:
    """FLOPs per weight per decode step, from the same real count (2 per token: one multiply-add)."""
    from grader.checks.truth.decode import real_decode_step

    n, _, flops = real_decode_step(TINY, batch)
    return flops / n


def decode_floor_s(n_params: float, bytes_per_param: float, bandwidth: float) -> float:
    """Every weight read once per token (R's and B4's decode floor)."""
    return n_params * bytes_per_param / bandwidth


def quantization_speedup(n: int, tokens: int, before: float, after: float, peak: float, bw: float) -> float:
    """C3's rule: time = max(2 N tokens / peak, N bytes / bw), before over after."""
    return max(2 * n * tokens / peak, n * before / bw) / max(2 * n * tokens / peak, n * after / bw)


def moe_decode_cost(total: int, active: int, batch: int, bytes_per_param: float) -> tuple[float, float]:
    """C3's follow-up: FLOPs of the active experts, bytes of every expert."""
    return 2 * active * batch, total * bytes_per_param


# ------------------------------------------------------------------ B2, C6: experiments
def mean_std(values) -> tuple[float, float]:
    from grader.checks.truth.experiments import mean_std as _m

    return _m(values)


def bands_overlap(a, b) -> bool:
    from grader.checks.truth.experiments import bands_overlap as _b

    return _b(a, b)


def ci95_half_width(p: float, n: int) -> float:
    from grader.checks.truth.experiments import ci95_half_width as _c

    return _c(p, n)


def seven_items() -> tuple[str, ...]:
    from grader.checks.truth.experiments import SEVEN_ITEMS

    return SEVEN_ITEMS


def settings_items() -> tuple[str, ...]:
    from grader.checks.truth.experiments import SETTINGS_ITEMS

    return SETTINGS_ITEMS


def verdict(a, b, n) -> str | None:
    """B2's ground truth: need_more_seeds / real / not_shown (None on a rounding edge)."""
    from grader.checks.truth.experiments import seed_verdict

    return seed_verdict(a, b, n)


def changed_questions(a: list[tuple[str, bool]], b: list[tuple[str, bool]]) -> dict[str, list[str]]:
    """C6's ground truth: a pandas inner merge of two eval tables, then query."""
    import pandas as pd

    m = pd.DataFrame(a, columns=["q", "a"]).merge(pd.DataFrame(b, columns=["q", "b"]), on="q")
    return {"improved": sorted(m.query("~a and b")["q"]), "degraded": sorted(m.query("a and ~b")["q"])}


def same_seed_identical(seed: int) -> tuple[bool, bool]:
    """A seeded torch computation run twice with the seed, once with another: (same, differs)."""
    import torch

    def run(s):
        g = torch.Generator().manual_seed(s)
        return float(torch.randn(64, generator=g).sum())

    return run(seed) == run(seed), run(seed) != run(seed + 1)


# ------------------------------------------------------------------ C4: the four blocks
def blocks() -> tuple[str, ...]:
    from grader.checks.truth.oom_blocks import BLOCKS

    return BLOCKS


def oom_block(event: dict) -> str:
    """C4's ground truth: the course's table of when each block overflows (``course_block``)."""
    from grader.checks.truth.oom_blocks import course_block

    return course_block(dict(event))


def remedies_for(block: str) -> set[str]:
    from grader.checks.truth.oom_blocks import SHRINKS

    return {name for name, shrinks in SHRINKS.items() if block in shrinks}


def all_remedies() -> tuple[str, ...]:
    from grader.checks.truth.oom_blocks import SHRINKS

    return tuple(SHRINKS)


def activation_estimate(config: dict, batch: int, seq: int, nbytes: int) -> float:
    """C4's follow-up rule: B x T x layers x (6 d + 3 d_ff) x bytes."""
    return (
        batch
        * seq
        * config["num_hidden_layers"]
        * (6 * config["hidden_size"] + 3 * config["intermediate_size"])
        * nbytes
    )


def course_activation_rule(batch: int, seq: int) -> float:
    """The course's rule of thumb for Llama-3-8B's activations (part 4: "B = 1、T = 4096 约 16.5 GiB",
    proportional to B x T), by C4's follow-up formula (6 d + 3 d_ff bf16 values per token and layer)."""
    return activation_estimate(llama3_8b(), batch, seq, 2)


def max_batch_that_fits(fixed: float, per_sample: float, gpu: float) -> int:
    return max(0, int((gpu - fixed) // per_sample))


# ------------------------------------------------------------------ R: recall
def part_topics() -> dict[str, tuple[int, ...]]:
    """R's check: the course's table of which parts teach each topic (topics spelled in
    grader/given/recall_topics.py); a topic the table places in two parts has both."""
    from grader.checks.truth.recall import PARTS_OF

    return {t: tuple(sorted(parts)) for t, parts in PARTS_OF.items()}


def record_item(name: str) -> str | None:
    """Which of the seven run-record items a name means ("data version"), by the matcher of the R
    and C6 checks (grader/checks/truth/meaning.py)."""
    from grader.checks.truth.meaning import record_item as _record_item

    item = _record_item(name)
    return None if item is None else item.replace("_", " ")


def state_part(name: str) -> str | None:
    """Which part of a trainable parameter's training state a name means ("fp32 主权重"), by the
    matcher of the checks that take these parts (grader/checks/truth/meaning.py)."""
    from grader.checks.truth.meaning import state_part as _state_part

    return _state_part(name, frozen=False)


def members(item: str) -> tuple[str, ...]:
    """The parts a matched name stands for: the two AdamW moments for a name of both ("AdamW 两个矩",
    "m and v"), any other item itself, by the checks' grouping (grader/checks/truth/meaning.py)."""
    from grader.checks.truth.meaning import members as _members

    return _members(item)


def phrases(item: str) -> tuple[str, ...]:
    """The checks' phrases for a run record's item or a part of the training state ("随机种子"),
    each of which names it whole (grader/checks/truth/meaning.py)."""
    from grader.checks.truth.meaning import RECORD_VOCABULARY, STATE_VOCABULARY

    return {**RECORD_VOCABULARY, **STATE_VOCABULARY}[item.replace(" ", "_")]


def record_items() -> tuple[str, ...]:
    from grader.checks.truth.experiments import RECORD_ITEMS

    return RECORD_ITEMS


def einsum_right(spec: str, which: str, with_heads: bool, seed: int = 0) -> bool:
    """The R check's semantics: np.einsum(spec) on random arrays equals Q @ K^T (qk) or P @ V (pv),
    all sizes distinct so that a swapped axis cannot hide."""
    import numpy as np

    rng = np.random.default_rng(seed)
    for b, h, t, s, d in [(2, 3, 4, 5, 6), (3, 2, 5, 7, 4)]:
        lead = (b, h) if with_heads else (b,)
        if which == "qk":
            x, y = rng.standard_normal(lead + (t, d)), rng.standard_normal(lead + (s, d))
            want = x @ y.swapaxes(-1, -2)
        else:
            x, y = rng.standard_normal(lead + (t, s)), rng.standard_normal(lead + (s, d))
            want = x @ y
        try:
            got = np.einsum(spec, x, y)
        except Exception:  # noqa: BLE001  a malformed spec is a wrong answer
            return False
        if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=1e-12):
            return False
    return True


def torchrun_ok(command: str, n: int, script: str) -> bool:
    """B5's ground truth: torch's own torchrun argument parser reads nproc_per_node and the script."""
    import contextlib
    import io
    import shlex

    from torch.distributed.run import get_args_parser

    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    if not argv or argv[0] != "torchrun":
        return False
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            args = get_args_parser().parse_args(argv[1:])
    except SystemExit:
        return False
    return (str(args.nproc_per_node), args.training_script) == (str(n), script)


def streaming_peak_grows() -> bool:
    """Does a line-by-line pass (A1's ``expected_counts``: read -> filter -> dedupe -> count, keeping
    only the set of distinct texts) need more memory on a bigger file? tracemalloc on A1's generated
    1 MB and 8 MB files with the same distinct texts: grows if the peak rises by more than 1/8 of the
    extra bytes."""

    def measure():
        import gc
        import os
        import tempfile
        import tracemalloc

        from grader.checks.truth.streaming import expected_counts, generate_mb

        peaks, sizes = [], []
        with tempfile.TemporaryDirectory() as tmp:
            for mb_ in (1, 8):
                path = os.path.join(tmp, f"{mb_}.jsonl")
                generate_mb(path, mb_, seed=0)
                sizes.append(os.path.getsize(path))
                gc.collect()
                tracemalloc.start()
                expected_counts(path, 10)
                peaks.append(tracemalloc.get_traced_memory()[1])
                tracemalloc.stop()
        return peaks[1] - peaks[0] > (sizes[1] - sizes[0]) / 8

    return _cached("streaming_peak_grows", (), measure)


@functools.cache
def merge_keeps_param_count() -> bool:
    """peft's merge_and_unload on a real tiny Llama with LoRA (the course's r=16 all-linear recipe):
    does the merged model have exactly the base model's parameters (B4: zero inference overhead)?"""
    import warnings

    from peft import LoraConfig, get_peft_model

    from grader.checks.truth import sft
    from grader.given.tiny_models import build_llama

    base = build_llama(TINY)
    n_base = sum(p.numel() for p in base.parameters())
    settings = dict(sft.lora_settings(init_lora_weights=False))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        merged = get_peft_model(base, LoraConfig(**settings)).merge_and_unload()
    return sum(p.numel() for p in merged.parameters()) == n_base


def sft_labels(rows: list[tuple[int, int]], eos: int = 2, pad: int = 0) -> dict:
    """P4's reference data path (grader.checks.truth.sft) on rows of (prompt tokens, answer tokens
    before EOS): ``reference_example`` tokenises prompt and answer separately and appends EOS;
    ``reference_batch`` right-pads. A stand-in tokenizer returns the given number of ids per text."""
    import torch

    from grader.checks.truth import sft
    from grader.given.sft import PROMPT

    lengths = {}

    class Tok:
        def __call__(self, text, add_special_tokens=False):
            return {"input_ids": [7] * lengths[text]}

    examples = []
    for i, (p, a) in enumerate(rows):
        q, ans = f"q{i}", f"a{i}"
        lengths[PROMPT.format(question=q)] = p
        lengths[f" {ans}"] = a
        examples.append(sft.reference_example(Tok(), q, ans, eos))
    batch = sft.reference_batch(examples, pad)
    labels = batch["labels"]
    n = [len(e["input_ids"]) for e in examples]
    return {
        "ignored": int((labels == sft.IGNORE_INDEX).sum()),
        "total": labels.numel(),
        "eos_kept": all(int(labels[i, n[i] - 1]) == eos for i in range(len(rows))),
        "pad_kept": bool((labels[batch["attention_mask"] == 0] != sft.IGNORE_INDEX).any()),
        "eos_masked_by_pad_id": _masked_by_pad_id(batch, n, eos) if pad == eos else None,
        "ignore_index": int(sft.IGNORE_INDEX),
        "shape": tuple(labels.shape),
        "labels": torch.Tensor.tolist(labels),
    }


def _masked_by_pad_id(batch, lengths, eos) -> bool:
    """B3's buggy collator (mask by pad id) with pad = EOS: are real EOS labels masked?"""
    from grader.checks.truth.sft import buggy_collator_labels

    _, masked = buggy_collator_labels(batch, lengths, eos, eos, "pad_by_id", set())
    return bool(masked)


def overflowing_block(state: float, activations: float, gpu: float) -> str | None:
    """B1's cases, as its check builds them: the state alone larger than the GPU (the parameters
    and state), the state fitting and the activations on top not (the activations), or both
    fitting (None). The quiz draws budgets from measured bytes and keeps the activations' case."""
    if state > gpu:
        return "grads_and_state"
    return "activations" if state + activations > gpu else None


def why_processes() -> str:
    """B5 / R: one process per GPU because of the GIL (threads give ~1x for CPU-bound Python)."""
    thread_speedup_range()  # raises on a free-threaded interpreter
    return "gil"


def torchrun_command(n: int, script: str) -> str:
    """A command torch's own torchrun parser reads as n processes of ``script`` (checked, not assumed)."""
    cmd = f"torchrun --nproc_per_node={n} {script}"
    if not torchrun_ok(cmd, n, script):
        raise RuntimeError(f"quiz: torchrun's parser does not accept {cmd!r}")
    return cmd


def profile_summary(kind: str, batch: int, seq: int, seed: int) -> dict | None:
    """A real torch.profiler run of two training steps of the A10 check's ``kind`` setup, as the
    question shows it: wall time, the ops' summed self times, the GEMM/attention share and the top
    rows. Kept in the quiz's cache so that the variant shows the same table every time; None when
    the setup did not show clearly on this machine (the A10 check's own margin)."""

    def measure():
        with _quiet_stderr():
            try:
                prof = real_profile(kind, batch, seq, seed)
            except RuntimeError:
                return None
        ops = sorted(prof["ops"], key=lambda o: -o["self_ms"])
        return {
            "wall_ms": prof["wall_ms"],
            "device_ms": sum(o["self_ms"] for o in ops),
            "share": gemm_share(ops),
            "top": [[o["name"], int(o["count"]), round(o["self_ms"], 2), round(o["total_ms"], 2)] for o in ops[:6]],
        }

    return _cached("profile_summary", (kind, batch, seq, seed), measure)


class _quiet_stderr:
    """The profiler's C++ side logs to file descriptor 2; keep it off the learner's terminal."""

    def __enter__(self):
        import os
        import sys

        try:
            sys.stderr.flush()
            self._saved = os.dup(2)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)
        except OSError:
            self._saved = None
        return self

    def __exit__(self, *exc):
        import os

        if self._saved is not None:
            os.dup2(self._saved, 2)
            os.close(self._saved)
        return False
