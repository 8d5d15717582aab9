"""B4 — decode floor after merge_and_unload. Ground truth computed here:

* decode_floor: bytes / bandwidth from the drawn inputs, and for the merged model the parameter
  count of a meta-device copy of the same base model (merging adds no parameters), i.e. the
  same floor as the base; the course's Qwen2.5-0.5B (bf16, 3.35 TB/s, ~0.29 ms) as a second check;
* merged_logits: the same tiny Llama + LoRA (r=16, alpha=32, all-linear, non-zero A
  and B) is built HERE from the drawn config and seed (``build_peft_model`` of the driver
  module, imported in this process) and its unmerged and base logits are computed here, never
  in the learner's process. The learner's merged model comes back as its state dict; a fresh
  base ``LlamaForCausalLM`` built here must load it with ``strict=True`` (exactly the base
  model's keys and shapes: no lora_A / lora_B, the base parameter count) and give, run here,
  the unmerged logits within 1e-5. The digest of the peft model taken in the learner's process
  before ``merge_lora``, the merged model's own logits, parameter count and LoRA parameter
  names (observed by the driver, forgeable) can only add reasons to fail.
"""

import math

import torch
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, as_number, as_tensor, expect_equal, fail
from grader.checks.truth import sft as truth
from grader.checks.truth.meta_tensors import model_params
from grader.given.tiny_models import QWEN2_5_0_5B, build_llama, state_digest
from grader.i18n import _

QWEN_PARAMS = 494_032_768  # Qwen2.5-0.5B incl. q/k/v biases (its config.json + safetensors)
MERGE_HINT = _(
    "W' = W + (alpha/r) B A: use peft's merge_and_unload(), not unload() "
    "(drops the adapters) and not W + B A (forgets the alpha/r scaling)"
)
NO_LORA_HINT = _("merge_and_unload() folds the adapters in and returns the base model")


@settings(max_examples=30)
@given(st.integers(10**6, 10**11), st.sampled_from([0.5, 1, 2, 4]), st.floats(0.1, 10), st.floats(8, 1000))
def test_decode_floor(learner, n_params, bytes_per_param, bandwidth_tb_s, ridge):
    # cards whose ridge (peak / bandwidth) is far above batch 1's intensity, as real ones are
    cases = [
        (QWEN_PARAMS, 2, 989, 3.35),
        (model_params(QWEN2_5_0_5B), 2, 989, 3.35),
        (n_params, bytes_per_param, bandwidth_tb_s * ridge, bandwidth_tb_s),
    ]
    for n, b, peak, bw in cases:
        want = n * b / (bw * 1e12) * 1e3
        got = as_number(learner.decode_floor_ms(n, b, peak, bw), f"decode_floor_ms({n}, {b}, {peak:g}, {bw})")
        if not math.isclose(got, want, rel_tol=1e-6):
            fail(
                f"decode_floor_ms({n}, {b}, {peak:g}, {bw})",
                f"{want:.6g} ms",
                got,
                _("bytes of weights / bandwidth: n_params x bytes / (TB/s x 1e12) seconds, x 1e3 for ms"),
            )
    course = as_number(
        learner.decode_floor_ms(QWEN_PARAMS, 2, 989, 3.35), _("decode_floor_ms(Qwen2.5-0.5B, bf16, H100)")
    )
    if not 0.27 <= course <= 0.31:
        fail(
            _("decode_floor_ms for the course's Qwen2.5-0.5B, merged, bf16, on an H100"),
            "~0.29 ms",
            course,
            _("the course: 0.99 GB / 3.35 TB/s"),
        )


def reference(config: dict, seed: int, batch: int, seq_len: int) -> dict:
    """Built and run in this process: the peft model's digest, its unmerged and base logits."""
    from grader.drivers.b4_merged_decode import build_peft_model, input_ids

    peft_model = build_peft_model(config, seed, truth.lora_settings(init_lora_weights=False))
    ids = input_ids(config, seed, batch, seq_len)
    digest = state_digest(peft_model)
    with torch.no_grad():
        unmerged = peft_model(input_ids=ids).logits
        with peft_model.disable_adapter():
            base = peft_model(input_ids=ids).logits
    return {"ids": ids, "digest": digest, "unmerged": unmerged, "base": base}


def served_logits(config: dict, state, ids, what: str):
    """A fresh base model built here, loaded (strict) with the learner's merged state dict, run here."""
    if type(state) is not dict or not all(type(k) is str for k in state):
        fail(_("{what}: its state dict", what=what), _("a dict of parameter name -> tensor"), type(state).__name__)
    lora = sorted(k for k in state if "lora_" in k)
    if lora:
        fail(
            _("{what}: parameters of the merged model", what=what), _("no lora_A / lora_B left"), lora[:5], NO_LORA_HINT
        )
    model = build_llama(config).eval()
    want = model.state_dict()
    if set(state) != set(want):
        fail(
            _("{what}: state dict of the merged model", what=what),
            _(
                "exactly the base LlamaForCausalLM's {want} entries (its parameter count, nothing added)",
                want=len(want),
            ),
            {"missing": sorted(set(want) - set(state))[:5], "unexpected": sorted(set(state) - set(want))[:5]},
            NO_LORA_HINT,
        )
    for name, ref in want.items():
        as_tensor(state[name], f"{what}: {name}", shape=tuple(ref.shape), dtype=ref.dtype)
    model.load_state_dict(state, strict=True)
    with torch.no_grad():
        return model(input_ids=ids).logits


@settings(max_examples=6)
@given(strategies.tiny_llama_configs(), st.integers(0, 2**16), st.integers(1, 2), st.integers(1, 12))
def test_merged_logits(learner, config, seed, batch, seq_len):
    ref = reference(config, seed, batch, seq_len)
    if (ref["unmerged"] - ref["base"]).abs().max() < 1e-4:  # the adapters must matter, or this proves nothing
        fail(_("check set-up: LoRA adapters change the logits"), _("a difference"), _("none (report this)"))
    what = _(
        "merge_lora(peft_model) on a tiny Llama ({num_hidden_layers} layers, LoRA r=16 all-linear)",
        num_hidden_layers=config["num_hidden_layers"],
    )
    out = learner.drive(
        "grader.drivers.b4_merged_decode:run",
        config=config,
        seed=seed,
        lora=truth.lora_settings(init_lora_weights=False),
        batch=batch,
        seq_len=seq_len,
    )
    if type(out) is not dict:
        fail(what, _("the merged transformers model"), type(out).__name__)
    if "error" in out:
        fail(what, _("the merged transformers model"), out["error"])
    if out.get("digest_before") != ref["digest"]:  # the model handed to merge_lora is not the one built here
        fail(
            _("{what}: the peft model given to merge_lora (SHA-256 of its state dict, in your process)", what=what),
            ref["digest"],
            out.get("digest_before"),
            _("your module must not change torch, transformers, peft or the grader at import time"),
        )
    if out.get("lora_names"):
        fail(
            _("{what}: parameters of the merged model", what=what),
            _("no lora_A / lora_B left"),
            out["lora_names"],
            NO_LORA_HINT,
        )
    served = served_logits(config, out.get("state"), ref["ids"], what)
    diff = float((served - ref["unmerged"]).abs().max())
    if diff > 1e-5:
        fail(
            _(
                "{what}: max |merged - unmerged| logits (your merged weights, run in the check's own base model)",
                what=what,
            ),
            "<= 1e-5",
            diff,
            MERGE_HINT,
        )
    expect_equal(
        as_int(out.get("n_params"), _("parameters of the merged model")),
        model_params(config),
        _("parameters of the merged model"),
        hint=_("the base model's: zero inference overhead"),
    )
    merged = as_tensor(out.get("merged"), _("merged logits"), shape=tuple(ref["unmerged"].shape))
    diff = float((merged - ref["unmerged"]).abs().max())
    if diff > 1e-5:
        fail(
            _("{what}: max |merged - unmerged| logits (your merged model's own forward)", what=what),
            "<= 1e-5",
            diff,
            MERGE_HINT,
        )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support import decode_mistakes  # noqa: E402
from grader.checks.support.mistakes import mistake  # noqa: E402,F401 - the naming test finds declaring checks by it

# ridge 200 (400 TFLOPS over 2 TB/s): the compute time is far from the bytes' time
decode_mistakes.declare(
    __name__,
    "decode_floor",
    ((3 * 10**9 + 7, 2, 400.0, 2.0), {}),
    lambda n, bpp, peak_tflops, bw_tb_s: (n, bpp, peak_tflops * 1e12, bw_tb_s * 1e12),
)
