"""B4 — decode floor after merge_and_unload. Ground truth computed here:

* decode_floor: bytes / bandwidth from the drawn inputs, and for the merged model the parameter
  count of a meta-device copy of the same base model (merging adds no parameters), i.e. the
  same floor as the base; the course's Qwen2.5-0.5B (bf16, 3.35 TB/s, ~0.29 ms) as a second check;
* merged_equals_unmerged: the unmerged peft model's logits (computed in the driver by peft, with
  non-zero adapters, and different from the base model's) against the learner's merged model's,
  plus the merged model's parameter count against the base model built here on the meta device.
"""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from grader import strategies
from grader.checking import as_int, as_number, as_tensor, expect_equal, fail
from grader.tiny_models import QWEN2_5_0_5B, build_llama

QWEN_PARAMS = 494_032_768  # Qwen2.5-0.5B incl. q/k/v biases (its config.json + safetensors)


def base_params(config: dict) -> int:
    return sum(p.numel() for p in build_llama(config, device="meta").parameters())


@settings(max_examples=30)
@given(st.integers(10**6, 10**11), st.sampled_from([0.5, 1, 2, 4]), st.floats(0.1, 10))
def test_decode_floor(learner, n_params, bytes_per_param, bandwidth_tb_s):
    cases = [(QWEN_PARAMS, 2, 3.35), (base_params(QWEN2_5_0_5B), 2, 3.35), (n_params, bytes_per_param, bandwidth_tb_s)]
    for n, b, bw in cases:
        want = n * b / (bw * 1e12) * 1e3
        got = as_number(learner.decode_floor_ms(n, b, bw), f"decode_floor_ms({n}, {b}, {bw})")
        if not math.isclose(got, want, rel_tol=1e-6):
            fail(f"decode_floor_ms({n}, {b}, {bw})", f"{want:.6g} ms", got,
                 "bytes of weights / bandwidth: n_params x bytes / (TB/s x 1e12) seconds, x 1e3 for ms")
    course = as_number(learner.decode_floor_ms(QWEN_PARAMS, 2, 3.35), "decode_floor_ms(Qwen2.5-0.5B, bf16, H100)")
    if not 0.27 <= course <= 0.31:
        fail("Qwen2.5-0.5B merged, bf16, 3.35 TB/s (the course: 0.99 GB / 3.35 TB/s)", "~0.29 ms", course)


@settings(max_examples=6)
@given(strategies.tiny_llama_configs(), st.integers(0, 2**16), st.integers(1, 2), st.integers(1, 12))
def test_merged_equals_unmerged(learner, config, seed, batch, seq_len):
    out = learner.drive("grader.drivers.b4_merged_decode:run", config=config, seed=seed, batch=batch, seq_len=seq_len)
    if "error" in out:
        fail("merge_lora(peft_model)", "the merged transformers model", out["error"])
    unmerged = as_tensor(out["unmerged"], "unmerged logits")
    base = as_tensor(out["base"], "base logits")
    if (unmerged - base).abs().max() < 1e-4:  # the adapters must matter, or this proves nothing
        fail("check set-up: LoRA adapters change the logits", "a difference", "none (report this)")
    if out["lora_names"]:
        fail("parameters of the merged model", "no lora_A / lora_B left", out["lora_names"],
             "merge_and_unload() folds the adapters in and returns the base model")
    expect_equal(as_int(out["n_params"], "parameters of the merged model"), base_params(config),
                 "parameters of the merged model (= the base model's: zero inference overhead)")
    merged = as_tensor(out["merged"], "merged logits", shape=tuple(unmerged.shape))
    diff = float((merged - unmerged).abs().max())
    if diff > 1e-5:
        fail(f"max |merged - unmerged| logits (tiny Llama, {config['num_hidden_layers']} layers)", "<= 1e-5", diff,
             "W' = W + (alpha/r) B A: use peft's merge_and_unload(), not unload() (drops the adapters) "
             "and not W + B A (forgets the alpha/r scaling)")
