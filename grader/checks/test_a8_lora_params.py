"""A8 — LoRA trainable parameters. Ground truth: peft's get_peft_model on a meta-device model
built from the same config (no memory, no download), counting the parameters that require grad
(grader/checks/truth/lora_params.py; part 5, LoRA; part 7 §五.A question 8)."""

from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, expect_equal, fail
from grader.checks.truth.lora_params import peft_trainable
from grader.given.tiny_models import QWEN2_5_0_5B
from grader.i18n import _

COURSE_QWEN_R16 = 8_798_208  # part 5: Qwen2.5-0.5B, r = 16, all-linear -> 8.80M trainable


def _ask(learner, config, r, target_modules="all-linear") -> tuple[int, str]:
    what = f"lora_trainable_params(config, r={r}, target_modules={target_modules!r})"
    return as_int(learner.lora_trainable_params(config, r, target_modules), what), what


@settings(max_examples=15)
@given(strategies.llama_config_variants(), st.integers(1, 64), strategies.lora_targets)
def test_matches_peft(learner, variants, r, target_modules):
    # The same config with head_dim given, absent, != hidden/heads and null; all-linear and the drawn targets.
    for config in variants:
        for tm in dict.fromkeys(
            ["all-linear", target_modules if isinstance(target_modules, str) else tuple(target_modules)]
        ):
            tm = tm if isinstance(tm, str) else list(tm)
            got, what = _ask(learner, config, r, tm)
            expect_equal(
                got,
                peft_trainable(config, r, tm),
                _("{what} for config {config}", what=what, config=config),
                hint=_(
                    "each hooked linear adds r x (in + out); q/o have heads x head_dim and "
                    "k/v kv_heads x head_dim features (head_dim absent or null: hidden / "
                    "heads); all-linear leaves lm_head out"
                ),
            )


def test_qwen_0_5b(learner):
    got, what = _ask(learner, QWEN2_5_0_5B, 16)
    expected = peft_trainable(QWEN2_5_0_5B, 16)
    if expected != COURSE_QWEN_R16:  # peft changed its meaning of all-linear: the check is stale
        raise RuntimeError(
            _(
                "peft gives {expected} for Qwen2.5-0.5B r=16, the course {COURSE_QWEN_R16}",
                expected=expected,
                COURSE_QWEN_R16=COURSE_QWEN_R16,
            )
        )
    expect_equal(
        got,
        expected,
        _("{what} for Qwen2.5-0.5B", what=what),
        hint=_(
            "7 linears x 24 layers; q/o 896<->896, k/v 896->128 (2 kv heads x 64), gate/up 896->4864, down 4864->896"
        ),
    )


@settings(max_examples=20)
@given(strategies.varied_llama_configs, st.integers(1, 32), st.integers(2, 4), strategies.lora_targets)
def test_change_with_r(learner, config, r, k, target_modules):
    cases = [(QWEN2_5_0_5B, 16, 2, "all-linear"), (config, r, k, target_modules)]  # the course's question first
    for cfg, r1, factor, tm in cases:
        base, what1 = _ask(learner, cfg, r1, tm)
        scaled, what2 = _ask(learner, cfg, r1 * factor, tm)
        if base <= 0:
            fail(_("{what1} must be a positive count", what1=what1), "> 0", base)
        if scaled != factor * base:
            fail(
                _("{what2} against {what1}", what2=what2, what1=what1),
                factor * base,
                scaled,
                hint=_("part 7 §五.A q8: r 16 -> 32 doubles 8.80M to 17.6M; the frozen base adds nothing"),
            )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support.mistakes import mistake, shows  # noqa: E402

shows("lora_trainable_params", "head_dim", "num_key_value_heads", "num_attention_heads", "hidden_size")
_ALL = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def _miscount(config, r, target_modules, *, kv_heads=None, head_dim=None, names=None, extra=0) -> int:
    """r x (in + out) per hooked linear, times the layers, with one slip: the mistakes' arithmetic
    (the truth is peft's own count)."""
    d, d_ff, h = config["hidden_size"], config["intermediate_size"], config["num_attention_heads"]
    hd = head_dim if head_dim is not None else (config.get("head_dim") or d // h)
    kv = (kv_heads or config["num_key_value_heads"]) * hd
    shapes = {
        "q_proj": (d, h * hd),
        "k_proj": (d, kv),
        "v_proj": (d, kv),
        "o_proj": (h * hd, d),
        "gate_proj": (d, d_ff),
        "up_proj": (d, d_ff),
        "down_proj": (d_ff, d),
    }
    hooked = names or (_ALL if target_modules == "all-linear" else tuple(target_modules))
    return sum(r * sum(shapes[n]) for n in hooked) * config["num_hidden_layers"] + extra


_PROBE = (
    (
        {
            "vocab_size": 64,
            "hidden_size": 48,
            "intermediate_size": 80,
            "num_hidden_layers": 3,
            "num_attention_heads": 6,
            "num_key_value_heads": 2,
            "head_dim": 12,
            "max_position_embeddings": 64,
        },
        4,
        "all-linear",
    ),
    {},
)  # GQA, head_dim != hidden / heads, 3 layers: every slip below differs here
for _slip, _zh, _en in [
    (
        lambda c, r, tm: _miscount(c, r, tm, kv_heads=c["num_attention_heads"]),
        "k_proj / v_proj 用了查询头数：GQA 下它们的输出是 num_key_value_heads × head_dim",
        "gives k_proj / v_proj the query heads: with GQA their output is num_key_value_heads x head_dim",
    ),
    (
        lambda c, r, tm: _miscount(c, r, tm, head_dim=c["hidden_size"] // c["num_attention_heads"]),
        "忽略了配置里的 head_dim，用 hidden_size / 头数 代替",
        "ignores the config's head_dim and uses hidden_size / heads",
    ),
    (
        lambda c, r, tm: (
            _miscount(c, r, tm, extra=r * (c["hidden_size"] + c["vocab_size"])) if tm == "all-linear" else None
        ),
        "把 lm_head 也算进了 all-linear：peft 的 all-linear 不挂输出层",
        "counts lm_head in all-linear: peft's all-linear leaves the output layer out",
    ),
    (
        lambda c, r, tm: _miscount(c, r, tm, names=("q_proj", "v_proj")) if tm == "all-linear" else None,
        "all-linear 只算了 q_proj 和 v_proj：all-linear 是每层的全部 7 个线性层",
        "counts only q_proj and v_proj for all-linear: all-linear is all 7 linear layers of each decoder layer",
    ),
]:
    mistake("matches_peft", "qwen_0_5b", function="lora_trainable_params", probe=_PROBE, zh=_zh, en=_en)(
        lambda got, c, r, tm="all-linear", _s=_slip: (
            _s(c, r, tm) is not None and got == _s(c, r, tm) != peft_trainable(c, r, tm)
        )
    )
