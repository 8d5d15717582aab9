"""A6 — full vs LoRA training-state memory. Ground truth: the bytes of real tensors. A small random
Llama-style model is set up in the bf16 mixed-precision convention for real (a bf16 model, an fp32
master copy of the trainable parameters, AdamW after one step on it), fully trainable and with
peft LoRA adapters of drawn r; the check sums numel x element_size of the bf16 weights, their
.grad, the fp32 masters and AdamW's exp_avg / exp_avg_sq (part 4, 16 bytes = 2 + 2 + 4 + 4 + 4;
part 7 §五.A question 6). AdamW's per-tensor ``step`` scalars are left out, as the stub says."""

import torch
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, expect_equal, fail
from grader.checks.support.strategies import llama_configs
from grader.checks.truth.meaning import by_meaning, grouped, in_their_names, state_part
from grader.checks.truth.training_state import PARTS, real_state
from grader.i18n import _

BF16, FP32 = torch.bfloat16.itemsize, torch.float32.itemsize
PER_TRAINABLE = BF16 + BF16 + FP32 + FP32 + FP32  # weight, grad, master, m, v: 16
PER_FROZEN = BF16
COURSE_3B_FULL = 48 * 10**9  # part 7 §五.A q6: 3 x 16 = 48 GB
COURSE_3B_LORA = 6.5e9  # 6 GB frozen + 0.48 GB adapters ~ 6.5 GB
CARD_24GB = 24 * 10**9

param_counts = st.integers(0, 10**12)  # up to a trillion parameters: ints, not floats


def _breakdown(learner, n_frozen: int, n_trainable: int) -> tuple[dict, dict, str]:
    what = f"state_breakdown({n_frozen}, {n_trainable})"
    got, names = by_meaning(learner.state_breakdown(n_frozen, n_trainable), state_part, PARTS, what)
    return {k: as_int(v, f"{what}[{names[k]!r}]") for k, v in got.items()}, names, what


@given(param_counts)
def test_full_finetune_bytes(learner, n):
    for n_params in (3 * 10**9, n):  # the course's question first
        got = as_int(learner.full_finetune_bytes(n_params), f"full_finetune_bytes({n_params})")
        expect_equal(
            got,
            PER_TRAINABLE * n_params,
            _("full_finetune_bytes({n_params}) in bytes", n_params=n_params),
            hint=_("bf16 weight 2 + bf16 grad 2 + fp32 master 4 + AdamW m 4 + v 4 = 16 bytes per parameter"),
        )
    got3b = learner.full_finetune_bytes(3 * 10**9)
    if got3b != COURSE_3B_FULL or got3b <= CARD_24GB:
        fail(
            _("full_finetune_bytes(3 * 10**9): the course's 3B model, and whether it fits a 24 GB card"),
            COURSE_3B_FULL,
            got3b,
            _("3 x 16 = 48 GB: more than a 24 GB card"),
        )


@given(param_counts, param_counts)
def test_lora_bytes(learner, n_base, n_trainable):
    for nb, nt in ((3 * 10**9, 3 * 10**7), (n_base, n_trainable)):  # 3B with 1% adapters first
        got = as_int(learner.lora_bytes(nb, nt), f"lora_bytes({nb}, {nt})")
        expect_equal(
            got,
            PER_FROZEN * nb + PER_TRAINABLE * nt,
            _("lora_bytes({nb}, {nt}) in bytes", nb=nb, nt=nt),
            hint=_(
                "the frozen base keeps only its bf16 weights (2 bytes/param, no grad, no "
                "optimizer state); each adapter parameter costs the full 16 bytes"
            ),
        )
    got3b = learner.lora_bytes(3 * 10**9, 3 * 10**7)
    if not abs(got3b - COURSE_3B_LORA) <= 0.05e9 or got3b >= CARD_24GB:
        fail(
            _(
                "lora_bytes(3 * 10**9, 3 * 10**7): the course's 3B model with 1% "
                "adapters, and whether it fits a 24 GB card"
            ),
            _("about 6.5e9 bytes"),
            got3b,
            _("6 GB frozen + 0.48 GB adapters ~ 6.5 GB: it fits a 24 GB card"),
        )


@settings(max_examples=4, deadline=None)
@given(llama_configs(max_layers=2), st.integers(1, 16), strategies.lora_targets, st.integers(0, 3))
def test_matches_real_tensors(learner, config, r, targets, seed):
    items = tuple(sorted(config.items()))
    targets = targets if isinstance(targets, str) else tuple(targets)
    full, lora = real_state(items, None, None, seed), real_state(items, r, targets, seed)
    n = full["n_trainable"]
    cases = [
        (_("full fine-tuning of a {n}-parameter model", n=n), full, "full_finetune_bytes", (n,)),
        (
            _(
                "LoRA r={r} on {targets}: {n_frozen} frozen + {n_trainable} adapter parameters",
                r=r,
                targets=repr(targets),
                n_frozen=lora["n_frozen"],
                n_trainable=lora["n_trainable"],
            ),
            lora,
            "lora_bytes",
            (lora["n_frozen"], lora["n_trainable"]),
        ),
    ]
    for label, real, fn, args in cases:
        total = sum(real["parts"].values())
        call = f"{fn}{args}"  # formatted apart: pybabel skips a call holding an f-string
        what = _("{call} for {label}", call=call, label=label)
        expect_equal(
            as_int(getattr(learner, fn)(*args), what),
            total,
            _("{what}: bytes of the real tensors of the training state after one step", what=what),
            hint=_("sum numel x element_size over the tensors; AdamW's step scalars are left out"),
        )
        parts, names, what = _breakdown(learner, real["n_frozen"], real["n_trainable"])
        truth = grouped(real["parts"], parts)  # "AdamW 两个矩" (part 4): the two moments together
        for k in parts:
            if parts[k] != truth[k]:
                fail(
                    _(
                        "{what}: the part {k} for {label}, against the real tensors",
                        what=what,
                        k=repr(names[k]),
                        label=label,
                    ),
                    in_their_names(truth, names),
                    in_their_names(parts, names),
                    hint=_("frozen: bf16 weight only; trainable: bf16 weight and grad, fp32 master, fp32 m and v"),
                )


# ------------------------------------------------------------------ mistakes named by what the answer does
from grader.checks.support.mistakes import mistake, ratio  # noqa: E402

_N = 70_000_000_003  # 70B + 3: no per-parameter factor confuses with another, GB and GiB survive rounding
for _per, _zh, _en in [
    (
        12,
        "少了 fp32 主权重（master copy）那 4 字节：混合精度训练仍要一份 fp32 主权重",
        "leaves out the fp32 master copy (4 bytes): mixed-precision training keeps one",
    ),
    (
        2,
        "只算了 bf16 权重（推理的一份），没有梯度、主权重和 AdamW 的两个矩",
        "counts only the bf16 weights (inference), without the grads, the master copy and AdamW's two moments",
    ),
    (
        8,
        "把 16 字节减半了：autocast 不会让训练状态减半，主权重与两个矩仍是 fp32",
        "halves the 16 bytes: autocast does not halve the training state, the master copy and both moments stay fp32",
    ),
    (
        18,
        "把梯度算成了 fp32（4 字节）；梯度与 bf16 权重同为 2 字节",
        "counts the gradients in fp32 (4 bytes); they are bf16 like the weights (2 bytes)",
    ),
    (20, "多算了一份 4 字节（例如 fp32 梯度再加一份）", "counts 4 bytes too many per parameter"),
]:
    mistake("full_finetune_bytes", function="full_finetune_bytes", probe=((_N,), {}), zh=_zh, en=_en)(
        lambda got, n, _per=_per: ratio(got, PER_TRAINABLE * n, _per / PER_TRAINABLE)
    )
for _factor, _zh, _en in [
    (1e-9, "返回的是 GB，题目要的是字节", "returns GB where bytes are asked"),
    (2**-30, "返回的是 GiB，题目要的是字节", "returns GiB where bytes are asked"),
]:
    mistake("full_finetune_bytes", function="full_finetune_bytes", probe=((_N,), {}), zh=_zh, en=_en)(
        lambda got, n, _f=_factor: ratio(got, PER_TRAINABLE * n, _f, rel=1e-2)
    )
    mistake("lora_bytes", function="lora_bytes", probe=((_N, 1_000_003), {}), zh=_zh, en=_en)(
        lambda got, nb, nt, _f=_factor: ratio(got, PER_FROZEN * nb + PER_TRAINABLE * nt, _f, rel=1e-2)
    )
for _fb, _tb, _zh, _en in [
    (
        16,
        16,
        "冻结的基座也按 16 字节算了：冻结参数没有梯度和优化器状态，只有 bf16 权重",
        "counts the frozen base at 16 bytes: frozen parameters have no grad and no optimizer state, only bf16 weights",
    ),
    (
        0,
        16,
        "漏掉了冻结基座的 bf16 权重（它们仍在显存里）",
        "leaves out the frozen base's bf16 weights (they are still in memory)",
    ),
    (
        4,
        16,
        "把冻结基座按 fp32 加载（4 字节）；题目的约定是 bf16（2 字节）",
        "counts the frozen base in fp32 (4 bytes); the convention is bf16 (2 bytes)",
    ),
    (2, 12, "适配器参数少了 fp32 主权重那 4 字节", "leaves out the adapters' fp32 master copy (4 bytes)"),
]:

    @mistake("lora_bytes", function="lora_bytes", probe=((_N, 1_000_003), {}), zh=_zh, en=_en)
    def _lora(got, nb, nt, _fb=_fb, _tb=_tb):
        return got == _fb * nb + _tb * nt != PER_FROZEN * nb + PER_TRAINABLE * nt
