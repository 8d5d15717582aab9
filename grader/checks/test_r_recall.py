"""R — recall. One answer sheet of must-remember facts, each checked by what it means.

Ground truth, per key point:
- bytes_per_param: the five parts of the training state, each part's size from torch's
  ``element_size()`` of bf16 (weights, grads) and fp32 (master weights, AdamW's m and v): the
  course's account. The autocast reading of "bf16 mixed precision" (an fp32 parameter that is its
  own master copy, an fp32 gradient, m and v) passes too, its sizes measured on a real layer.
- ridge_point / decode_floor / ci95: the formula evaluated on drawn inputs (ci95 with the exact
  normal quantile, grader/checks/truth/experiments.py as B2 and C6), then the course's numbers.
  A recalled formula has no truth but itself: the course's numbers are the second check.
- kv_cache_per_token: the K/V tensors of a real transformers ``DynamicCache`` after a forward
  of a ``LlamaForCausalLM`` on the meta device (grader/checks/truth/kv_cache.py, as A9), for
  drawn configs and for Llama-3-8B.
- first_step_loss: ``F.cross_entropy`` on all-zero logits (a uniform prediction) for drawn V.
- ignore_index: the default of ``F.cross_entropy``'s ``ignore_index``, and the learner's value
  really drops those labels from the loss.
- einsum_qk / einsum_pv: ``np.einsum`` of the learner's string on random arrays vs ``Q @ K^T``
  and ``P @ V`` (any letters, with and without a heads axis).
- thread_speedup: ~1x under the GIL, for any number of threads and cores.
- part_topics / run_record_items: the course's table of the six parts (its topics named in
  grader/given/recall_topics.py, their parts in grader/checks/truth/recall.py); the seven items of a run record,
  matched by
  meaning in any order.
"""

from __future__ import annotations

import inspect
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, as_number, as_str, blame, fail
from grader.checks.truth.experiments import SEVEN_ITEMS, ci95_half_width, close
from grader.checks.truth.kv_cache import meta_cache_bytes
from grader.checks.truth.meaning import COURSE_NAMES, course_names, grouped, members, record_item, state_part
from grader.checks.truth.recall import COURSE_MAP, PART_OF, PARTS_OF, THREAD_SPEEDUP_BAND
from grader.course.catalog import PART_TITLES
from grader.given import recall_topics as topic
from grader.i18n import _, either, show
from grader.isolation.learner import LearnerRaised

# ---------------------------------------------------------------- helpers


def _rel_close(got: float, expected: float, rel: float) -> bool:
    return abs(got - expected) <= rel * abs(expected)


def _number(learner, name: str, *args) -> tuple[float, str]:
    what = f"{name}({', '.join(repr(a) for a in args)})"
    return as_number(getattr(learner, name)(*args), what), what


# ---------------------------------------------------------------- bytes per parameter


def _autocast_reading() -> dict[str, int]:
    """What torch keeps per parameter when "bf16 mixed precision" is read as autocast (part 3/X3):
    the fp32 parameter itself, its fp32 gradient and AdamW's two moments, measured on a tiny layer."""
    import torch

    torch.manual_seed(0)
    layer = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(layer.parameters())
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = layer(torch.randn(2, 4)).float().sum()
    loss.backward()
    opt.step()
    p = layer.weight
    state = opt.state[p]
    return {
        "weights": p.element_size(),
        "grads": p.grad.element_size(),
        "adam_m": state["exp_avg"].element_size(),
        "adam_v": state["exp_avg_sq"].element_size(),
    }


def test_bytes_per_param(learner):
    import torch

    got = learner.bytes_per_param_parts()
    if type(got) is not dict:
        fail(_("bytes_per_param_parts() must return a dict {part name: bytes}"), "dict", type(got).__name__)
    bf16 = torch.empty(0, dtype=torch.bfloat16).element_size()
    fp32 = torch.empty(0, dtype=torch.float32).element_size()
    # what the optimizer keeps for every trainable parameter under bf16 mixed precision + AdamW, the
    # course's account (part 4: bf16 weights and grads, fp32 master and moments, 2 + 2 + 4 + 4 + 4)
    expected = {"weights": bf16, "grads": bf16, "master": fp32, "adam_m": fp32, "adam_v": fp32}
    shown = course_names(expected)  # the parts in the course's words, the reader's language
    seen: dict[str, str] = {}  # item (a part, or part 4's "AdamW 两个矩": both moments) -> the learner's name
    covered: dict[str, str] = {}  # each part -> the item that names it
    for name in got:
        name = as_str(name, _("a part name (dict key)"))
        part = state_part(name, frozen=False)
        if part is None:
            fail(
                _("part {name} is not one of the training state's parts", name=repr(name)),
                shown,
                name,
                _(
                    "the parts are the bf16 weights, their bf16 gradients, the fp32 master "
                    "weights and AdamW's two fp32 moments (m, v)"
                ),
            )
        twice = [covered[m] for m in members(part) if m in covered]
        if twice:
            fail(
                _("parts {seen} and {name} name the same thing", seen=repr(seen[twice[0]]), name=repr(name)),
                shown,
                sorted(got),
            )
        seen[part] = name
        covered.update(dict.fromkeys(members(part), part))
    sizes = {part: as_number(got[name], _("bytes of {name}", name=repr(name))) for part, name in seen.items()}
    # The autocast reading of the same words (X3 teaches it): the parameter stays fp32 and is its
    # own master copy, its gradient is fp32 too; also 16 bytes, in four parts.
    autocast = _autocast_reading()
    one_copy = set(covered) & {"weights", "master"}
    if "master" not in covered or "weights" not in covered:
        if len(one_copy) == 1 and set(covered) - one_copy == {"grads", "adam_m", "adam_v"}:
            copy = one_copy.pop()
            if sizes == grouped(
                {copy: autocast["weights"], **{k: autocast[k] for k in ("grads", "adam_m", "adam_v")}}, seen
            ):
                return
    want = grouped(expected, seen)
    for part, size in sizes.items():
        if size != want[part]:
            fail(
                _("bytes per parameter of {seen} ({part})", seen=repr(seen[part]), part=show(COURSE_NAMES[part])),
                want[part],
                got[seen[part]],
                _("bf16 is 2 bytes; the master copy and both AdamW moments are fp32 (4 bytes)"),
            )
    missing = [part for part in expected if part not in covered]
    if missing:
        fail(
            _("parts of the training state are missing"),
            shown,
            sorted(got),
            _("missing: {missing}; 16 bytes = 2 + 2 + 4 + 4 + 4", missing=", ".join(course_names(missing))),
        )
    total = sum(sizes.values())
    if total != sum(expected.values()):  # the course's number, as a second check
        fail(_("bytes per trainable parameter (sum of the parts)"), 16, total)


# ---------------------------------------------------------------- roofline numbers


@given(peak=st.floats(1e11, 1e16), bw=st.floats(1e10, 1e14))
def test_ridge_point(learner, peak, bw):
    for p, b in [(989e12, 3.35e12), (peak, bw)]:  # the course's H100 first
        got, what = _number(learner, "ridge_point", p, b)
        expected = p / b  # FLOP/s over bytes/s = FLOP per byte
        if not _rel_close(got, expected, 1e-6):
            fail(
                _("{what} in FLOP/byte", what=what),
                expected,
                got,
                _("ridge = peak FLOP/s / bandwidth bytes/s (H100 ~295)"),
            )
    got, what = _number(learner, "ridge_point", 989e12, 3.35e12)
    if not 290 <= got <= 300:
        fail(what, "~295 FLOP/byte", got)


@given(n=st.floats(1e6, 1e12), bpp=st.sampled_from([0.5, 1, 2, 4]), bw=st.floats(1e10, 1e14), ridge=st.floats(8, 1000))
def test_decode_floor(learner, n, bpp, bw, ridge):
    # accelerators whose ridge (peak / bandwidth) is far above batch 1's intensity, as real ones are
    for args in [(8.03e9, 2, 989e12, 3.35e12), (n, bpp, bw * ridge, bw)]:
        got, what = _number(learner, "decode_floor_ms", *args)
        expected = args[0] * args[1] / args[3] * 1e3  # every weight read once per token, in ms
        if not _rel_close(got, expected, 1e-6):
            fail(
                _("{what} in ms", what=what),
                expected,
                got,
                _("decode at batch 1 is memory-bound: weight bytes / bandwidth, in milliseconds"),
            )
    got, what = _number(learner, "decode_floor_ms", 8.03e9, 2, 989e12, 3.35e12)
    if not 4.7 <= got <= 4.9:
        fail(_("{what}: Llama-3-8B bf16 on an H100", what=what), "~4.8 ms", got)


# ---------------------------------------------------------------- KV cache


def _cache_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, dtype, T=3) -> int:
    """Bytes per token of the DynamicCache a real LlamaForCausalLM (meta device) fills."""
    cfg = {
        "vocab_size": 16,
        "hidden_size": n_heads * head_dim,
        "intermediate_size": 16,
        "num_hidden_layers": n_layers,
        "num_attention_heads": n_heads,
        "num_key_value_heads": n_kv_heads,
        "head_dim": head_dim,
        "tie_word_embeddings": False,
        "max_position_embeddings": 64,
    }
    total = meta_cache_bytes(cfg, 1, T, dtype)
    assert total % T == 0, (total, T)
    return total // T


@st.composite
def _kv_configs(draw):
    import torch

    n_kv = draw(st.integers(1, 8))
    return dict(
        n_layers=draw(st.integers(1, 8)),
        n_heads=n_kv * draw(st.integers(1, 4)),
        n_kv_heads=n_kv,
        head_dim=draw(st.sampled_from([16, 32, 64, 80, 128])),
        dtype=draw(st.sampled_from([torch.bfloat16, torch.float16, torch.float32])),
    )


@settings(max_examples=8)
@given(cfg=_kv_configs())
def test_kv_cache_per_token(learner, cfg):
    import torch

    from grader.given.tiny_models import LLAMA3_8B

    llama = dict(
        n_layers=LLAMA3_8B["num_hidden_layers"],
        n_heads=LLAMA3_8B["num_attention_heads"],
        n_kv_heads=LLAMA3_8B["num_key_value_heads"],
        head_dim=LLAMA3_8B["head_dim"],
        dtype=torch.bfloat16,
    )
    for c in [cfg, llama]:
        args = (c["n_layers"], c["n_heads"], c["n_kv_heads"], c["head_dim"], c["dtype"].itemsize)
        what = f"kv_cache_bytes_per_token{args}"
        got = as_number(learner.kv_cache_bytes_per_token(*args), what)
        expected = _cache_bytes_per_token(c["n_layers"], c["n_heads"], c["n_kv_heads"], c["head_dim"], c["dtype"])
        if got != expected:
            fail(
                _("{what} (bytes)", what=what),
                expected,
                got,
                _("2 (K and V) x layers x n_kv_heads (not n_heads: GQA) x head_dim x bytes"),
            )
    if got != 131_072:  # the course's number: Llama-3-8B, bf16
        fail(_("Llama-3-8B KV cache bytes per token"), 131_072, got)


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
            fail(_("{what} in nats", what=what), expected, got, _("the loss of a uniform prediction over V classes"))


def test_ignore_index(learner):
    import torch
    import torch.nn.functional as F

    got = as_int(learner.ignore_index(), "ignore_index()")
    default = inspect.signature(F.cross_entropy).parameters["ignore_index"].default
    if got != default:
        fail(_("ignore_index(): the label value the loss leaves out"), default, got)
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
        fail(
            _("F.cross_entropy with labels set to {got} must run", got=got),
            _("a loss over the other labels"),
            repr(exc),
        )
    expected = F.cross_entropy(logits[keep], labels[keep])
    if not torch.allclose(loss, expected, rtol=0, atol=1e-12):
        fail(_("labels equal to {got} must be left out of the loss", got=got), expected.item(), loss.item())


# ---------------------------------------------------------------- einsum


def _shape_and_values(got, expected) -> str:
    return f"shape {got.shape}" + (", other values" if got.shape == expected.shape else "")


def _einsum(spec, a, b, what):
    spec = as_str(spec, what)
    try:
        return np.einsum(spec, a, b)
    except Exception as exc:  # noqa: BLE001  a malformed or mismatched spec is the learner's error
        fail(
            _(
                "np.einsum({spec}, ...) with shapes {shape}, {shape2} failed",
                spec=repr(spec),
                shape=a.shape,
                shape2=b.shape,
            ),
            _("a result"),
            repr(exc),
        )


_dims = st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))


# which: (the operands' shapes from (T, S, d), the product the spec must equal, its names, the hint)
_EINSUM = {
    "qk": (
        lambda t, s, d: ((t, d), (s, d)),
        lambda q, k: q @ k.swapaxes(-1, -2),
        ("Q", "K", "Q @ K^T"),
        _("contract the feature axis d; the output is (..., T, S): queries then keys"),
    ),
    "pv": (
        lambda t, s, d: ((t, s), (s, d)),
        lambda p, v: p @ v,
        ("P", "V", "P @ V"),
        _("contract the key axis S; the output is (..., T, d)"),
    ),
}


def _expect_einsum(learner, which, dims, seed):
    shapes, product, (a_name, b_name, rule), hint = _EINSUM[which]
    rng = np.random.default_rng(seed)
    for b, h, t, s, d in [(2, 3, 4, 5, 6), dims]:  # all sizes distinct first: a swapped axis can't hide
        for with_heads in (False, True):
            lead = (b, h) if with_heads else (b,)
            a_shape, b_shape = shapes(t, s, d)
            x, y = rng.standard_normal(lead + a_shape), rng.standard_normal(lead + b_shape)
            what = f"einsum_{which}(with_heads={with_heads})"
            spec = getattr(learner, f"einsum_{which}")(with_heads)
            got = _einsum(spec, x, y, what)
            expected = product(x, y)
            if got.shape != expected.shape or not np.allclose(got, expected, rtol=0, atol=1e-12):
                fail(
                    _(
                        "np.einsum({spec}, {a_name}, {b_name}) with {a_name} {shape}, {b_name} "
                        "{shape2} must equal {rule}",
                        spec=repr(spec),
                        a_name=a_name,
                        b_name=b_name,
                        shape=x.shape,
                        shape2=y.shape,
                        rule=rule,
                    ),
                    _("shape {shape}", shape=tuple(expected.shape)),
                    _shape_and_values(got, expected),
                    hint,
                )


@given(dims=_dims, seed=strategies.seeds)
def test_einsum_qk(learner, dims, seed):
    _expect_einsum(learner, "qk", dims, seed)  # scores (..., T, S)


@given(dims=_dims, seed=strategies.seeds)
def test_einsum_pv(learner, dims, seed):
    _expect_einsum(learner, "pv", dims, seed)  # output (..., T, d)


# ---------------------------------------------------------------- statistics


@given(p=st.floats(0.0, 1.0), n=st.integers(1, 1_000_000))
def test_ci95(learner, p, n):
    for pp, nn in [(0.5, 80), (p, n)]:
        got, what = _number(learner, "ci95_half_width", pp, nn)
        expected = ci95_half_width(pp, nn)  # with the exact quantile z_0.975 = 1.95996...
        if not close(got, expected):  # 1.96 vs 1.95996 is fine
            fail(
                _("{what} as a fraction", what=what),
                expected,
                got,
                _("z_0.975 x sqrt(p(1-p)/n), with z_0.975 = 1.96 (a two-sided 95% interval)"),
            )


@given(n_threads=st.integers(2, 64), n_cores=st.integers(1, 128))
def test_thread_speedup(learner, n_threads, n_cores):
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    if not gil:  # pragma: no cover - a free-threaded interpreter runs the grader
        pytest.skip(_("the grader runs on a free-threaded Python: the GIL answer does not apply here"))
    for args in [(8, 8), (n_threads, n_cores)]:
        got, what = _number(learner, "thread_speedup", *args)
        # Under the GIL one thread runs bytecode at a time: threads give ~1x whatever the cores.
        low, high = THREAD_SPEEDUP_BAND
        if not low <= got <= high:
            fail(
                what,
                f"~1.0 ({low} .. {high})",
                got,
                _(
                    "the GIL lets one thread execute Python bytecode at a time; processes, "
                    "not threads, speed up CPU-bound Python (course: 8 threads 0.46 s = "
                    "serial 0.46 s)"
                ),
            )


# ---------------------------------------------------------------- the map of the course
# The course's table of parts and topics: grader/checks/truth/recall.py (the quiz asks it too).


@settings(max_examples=5)
@given(order=st.permutations(topic.TOPICS))
def test_part_topics(learner, order):
    if sorted(PART_OF) != sorted(topic.TOPICS):  # a topic without a part, or one the stub does not list
        raise RuntimeError(f"R check: COURSE_MAP and recall_topics.TOPICS differ: {set(PART_OF) ^ set(topic.TOPICS)}")
    wrong, first_wrong_call = {}, None
    for t in order:
        # each topic asked in both spellings (the stub: its English string and TOPICS_ZH's Chinese); a
        # spelling the learner's function does not know raises KeyError or returns None
        answers, calls = [], []
        for spelling in (t, topic.TOPICS_ZH[t]):
            try:
                got = learner.part_of_topic(spelling)
            except LearnerRaised as exc:
                if exc.type_name != "KeyError":
                    raise
                continue
            if got is not None:
                answers.append(as_int(got, f"part_of_topic({spelling!r})"))
                calls.append(getattr(learner, "last_call", None))
        bad = [call for got, call in zip(answers, calls, strict=True) if got not in PARTS_OF[t]]
        if not answers or bad:
            shown = show(either(en=t, zh=topic.TOPICS_ZH[t]))  # the topic in the reader's language
            wrong[shown] = (
                answers[0] if len(set(answers)) == 1 else (answers or None),
                PART_OF[t] if len(PARTS_OF[t]) == 1 else sorted(PARTS_OF[t]),
            )
            first_wrong_call = first_wrong_call or (bad[0] if bad else getattr(learner, "last_call", None))
    if wrong:
        blame(learner, first_wrong_call)
        fail(
            _("{wrong} of {PART_OF} topics are in another part", wrong=len(wrong), PART_OF=len(PART_OF)),
            {t: e for t, (g, e) in wrong.items()},
            {t: g for t, (g, e) in wrong.items()},
            ", ".join(f"{n} {_(title)}" for n, title in PART_TITLES.items() if n in COURSE_MAP),
        )


# ---------------------------------------------------------------- the run record


def test_run_record_items(learner):
    got = learner.run_record_items()
    if type(got) not in (list, tuple):
        fail(_("run_record_items() must return a list of names"), "list[str]", type(got).__name__)
    seen: dict[str, str] = {}
    for name in got:
        name = as_str(name, _("a run-record item"))
        item = record_item(name)
        if item is None:
            fail(
                _("{name} is not one of the run record's items", name=repr(name)), course_names(SEVEN_ITEMS), list(got)
            )
        if item in seen:
            fail(
                _("{seen} and {name} are the same item", seen=repr(seen[item]), name=repr(name)),
                course_names(SEVEN_ITEMS),
                list(got),
            )
        seen[item] = name
    missing = ", ".join(course_names(i for i in SEVEN_ITEMS if i not in seen))
    if missing:
        fail(
            _("the run record lacks some items"),
            course_names(SEVEN_ITEMS),
            list(got),
            _("missing: {missing}; seven items, or the result is only 'it seemed so at the time'", missing=missing),
        )
