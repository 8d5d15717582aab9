"""A8 — LoRA trainable parameters. Ground truth: peft's get_peft_model on a meta-device model
built from the same config (no memory, no download), counting the parameters that require grad
(grader/checks/truth/lora_params.py; part 5, LoRA; part 7 §五.A question 8)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, expect_equal, fail
from grader.checks.truth.lora_params import peft_trainable
from grader.given.tiny_models import QWEN2_5_0_5B

COURSE_QWEN_R16 = 8_798_208  # part 5: Qwen2.5-0.5B, r = 16, all-linear -> 8.80M trainable


def _ask(learner, config, r, target_modules="all-linear") -> tuple[int, str]:
    what = f"lora_trainable_params(config, r={r}, target_modules={target_modules!r})"
    return as_int(learner.lora_trainable_params(config, r, target_modules), what), what


@settings(max_examples=15)
@given(strategies.llama_config_variants(), st.integers(1, 64), strategies.lora_targets)
def test_matches_peft(learner, variants, r, target_modules):
    # The same config with head_dim given, absent, != hidden/heads and null; all-linear and the drawn targets.
    for config in variants:
        for tm in dict.fromkeys(["all-linear", target_modules if isinstance(target_modules, str)
                                 else tuple(target_modules)]):
            tm = tm if isinstance(tm, str) else list(tm)
            got, what = _ask(learner, config, r, tm)
            expect_equal(got, peft_trainable(config, r, tm), f"{what} for config {config}",
                         hint="each hooked linear adds r x (in + out); q/o have heads x head_dim and k/v "
                              "kv_heads x head_dim features (head_dim absent or null: hidden / heads); "
                              "all-linear leaves lm_head out")


def test_qwen_0_5b(learner):
    got, what = _ask(learner, QWEN2_5_0_5B, 16)
    expected = peft_trainable(QWEN2_5_0_5B, 16)
    if expected != COURSE_QWEN_R16:  # peft changed its meaning of all-linear: the check is stale
        raise RuntimeError(f"peft gives {expected} for Qwen2.5-0.5B r=16, the course {COURSE_QWEN_R16}")
    expect_equal(got, expected, f"{what} for Qwen2.5-0.5B",
                 hint="7 linears x 24 layers; q/o 896<->896, k/v 896->128 (2 kv heads x 64), "
                      "gate/up 896->4864, down 4864->896")


@settings(max_examples=20)
@given(strategies.varied_llama_configs, st.integers(1, 32), st.integers(2, 4), strategies.lora_targets)
def test_change_with_r(learner, config, r, k, target_modules):
    cases = [(QWEN2_5_0_5B, 16, 2, "all-linear"), (config, r, k, target_modules)]  # the course's question first
    for cfg, r1, factor, tm in cases:
        base, what1 = _ask(learner, cfg, r1, tm)
        scaled, what2 = _ask(learner, cfg, r1 * factor, tm)
        if base <= 0:
            fail(f"{what1} must be a positive count", "> 0", base)
        if scaled != factor * base:
            fail(f"{what2} against {what1}",
                 factor * base, scaled,
                 hint="part 7 §五.A q8: r 16 -> 32 doubles 8.80M to 17.6M; the frozen base adds nothing")
