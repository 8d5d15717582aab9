"""The exercise catalog: the single source of truth for ids, sets, course parts and key points.

Every exercise of the course (README: "For maintainers") is registered here, built or not. An exercise is
*available* when its three files exist, all named by its module name::

    exercises/<module>.py              the stub the learner fills in
    solutions/<module>.py              the reference answer
    grader/checks/test_<module>.py     the hidden checks, one test function per key point

A key point's id is the name of its test function without ``test_``. Mutants of the solution
live in ``solutions/mutants/<module>/<name>.py`` (see ``tests/test_check_validity.py``).

Course parts: 1 Python, 2 NumPy/Pandas/Matplotlib, 3 training loop, 4 memory, 5 Hugging Face,
6 GPU & experiment management, 7 the review with the self-test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKS_DIR = ROOT / "grader" / "checks"

SETS = ("R", "A", "B", "C", "P", "X")
SET_TITLES = {
    "R": "Recall (read level)",
    "A": "Judgement and calculation",
    "B": "Cross-part synthesis",
    "C": "Interview questions",
    "P": "Five things to do",
    "X": "Counter-intuitive conclusions",
}
PART_TITLES = {
    1: "Python",
    2: "NumPy / Pandas / Matplotlib",
    3: "PyTorch training loop",
    4: "Memory arithmetic",
    5: "Hugging Face",
    6: "GPU & experiment management",
    7: "Review & self-test",
}


@dataclass(frozen=True)
class KeyPoint:
    """One sub-check. ``reread`` names the part of the course and its must-remember line."""

    id: str
    claim: str
    reread: str
    followup: bool = False  # a C "follow-up direction": counts for can-teach only
    needs_gpu: bool = False  # reported "not verifiable here" on a machine without CUDA


@dataclass(frozen=True)
class Exercise:
    id: str  # "A3"
    module: str  # "a3_broadcast": the file name in exercises/, solutions/, grader/checks/
    set: str  # one of SETS
    part: int  # the course part it mainly draws on
    title: str
    key_points: tuple[KeyPoint, ...]
    timeout_s: float = 120.0  # wall clock for the whole exercise (checks + learner code)
    call_timeout_s: float = 20.0  # one call into the learner's code
    import_timeout_s: float = 30.0  # starting the learner's process and importing the module
    memory_gib: float = 4.0  # address-space cap of the learner's process
    needs_gpu: bool = False
    uses_cuda: bool = field(default=False, repr=False)

    @property
    def check_file(self) -> Path:
        return CHECKS_DIR / f"test_{self.module}.py"

    @property
    def available(self) -> bool:
        return (
            self.check_file.exists()
            and (ROOT / "exercises" / f"{self.module}.py").exists()
            and (ROOT / "solutions" / f"{self.module}.py").exists()
        )

    def key_point(self, kp_id: str) -> KeyPoint:
        for kp in self.key_points:
            if kp.id == kp_id:
                return kp
        raise KeyError(f"{self.id} has no key point {kp_id!r}")


def kp(id: str, claim: str, reread: str, **kw) -> KeyPoint:
    return KeyPoint(id, claim, reread, **kw)


def _ex(id, module, set_, part, title, *kps, **kw) -> Exercise:
    return Exercise(id, module, set_, part, title, tuple(kps), **kw)


# Must-remember lines of the course, quoted by the feedback (part 7, section 二).
P1_GIL = "part 1, must-remember: CPU-bound work: serial / 8 threads / 8 processes = 0.46 / 0.46 / 0.15 s (GIL)"
P1_STREAM = "part 1, must-remember: 19.4 MB JSONL -> list peaks at 102.9 MB (5.3x); a generator at 11.5 MB, independent of file size"
P2_BROADCAST = "part 2, must-remember: broadcasting aligns shapes from the right; each dim equal or one of them 1; the 1 is stretched"
P2_INDEX = "part 2, §ndarray: nbytes = elements x bytes per element; an integer index drops a dim, a slice keeps it"
P2_EINSUM = "part 2, must-remember: QK^T is 'btd,bsd->bts', PV is 'bts,bsd->btd'"
P2_TOL = "part 2, must-remember: match a reference to float precision: float32 ~1e-6, float64 ~1e-12"
P2_CI = "part 2, must-remember: ci95 = 1.96*sqrt(p(1-p)/n)"
P3_LNV = "part 3, must-remember: the first-step loss should be ln V (5.07 ~ ln 128 = 4.85)"
P3_LOOP = "part 3, must-remember: autocast, .float() + ignore_index=-100, clip_grad_norm_(1.0), warmup + cosine"
P3_ACCUM = "part 3, §Autograd: backward() accumulates into .grad, so zero_grad each step; accumulation needs no extra code"
P4_16 = "part 4, must-remember: 16 bytes per trainable parameter = 2 + 2 + 4 + 4 + 4"
P4_ACT = "part 4, must-remember: activations scale with B x T x layers x d, not with parameters; checkpointing keeps layer inputs only"
P4_OOM = "part 4, must-remember: attribute an OOM by when it happens (load: weights; first backward: grads+state; longer seq: activations)"
P5_LORA = "part 5, must-remember: LoRA adds (alpha/r) BAx; all-linear hooks 7 linears; Qwen2.5-0.5B r=16 -> 8.80M trainable"
P5_EOS = "part 5, must-remember: 85% of tokens are -100; the EOS token must be in the loss, and often enough"
P6_RIDGE = "part 6, must-remember: ridge = 989e12 / 3.35e12 ~ 295 FLOP/byte; decode intensity ~ batch size"
P6_DECODE = "part 6, must-remember: decode floor = bytes of weights / bandwidth: 16.06 GB / 3.35 TB/s ~ 4.8 ms"
P6_KV = "part 6, must-remember: KV cache per token = 2 x n_kv_heads x d_head x layers x bytes: Llama-3-8B 131,072 B"
P6_PROF = "part 6, must-remember: GEMM + attention should dominate; backward ~ 2x forward; GPU time << wall time means idle"
P6_RECORD = "part 6, must-remember: a run record has seven items: run id, commit, config, data version, seed, environment, metrics"

CATALOG: tuple[Exercise, ...] = (
    # ---------------------------------------------------------------- R
    _ex("R", "r_recall", "R", 7, "Must-remember facts of the six parts",
        kp("bytes_per_param", "16 bytes per trainable parameter under bf16 mixed precision + AdamW, and its five parts", P4_16),
        kp("ridge_point", "ridge point = peak FLOP/s / bandwidth (H100: ~295 FLOP/byte)", P6_RIDGE),
        kp("decode_floor", "decode floor = weight bytes / bandwidth (8.03B bf16 at 3.35 TB/s: ~4.8 ms/token)", P6_DECODE),
        kp("kv_cache_per_token", "KV-cache bytes per token (Llama-3-8B: 131,072)", P6_KV),
        kp("first_step_loss", "expected first-step loss for vocabulary V is ln V", P3_LNV),
        kp("ignore_index", "the label ignore index is -100", P3_LOOP),
        kp("einsum_qk", "einsum for QK^T", P2_EINSUM),
        kp("einsum_pv", "einsum for PV", P2_EINSUM),
        kp("ci95", "ci95 half-width of an accuracy", P2_CI),
        kp("thread_speedup", "thread speed-up of CPU-bound Python is ~1x", P1_GIL),
        kp("part_topics", "which part covers which topic", "part 7, §一: the table of the six parts"),
        kp("run_record_items", "the seven items of a run record", P6_RECORD),
    ),
    # ---------------------------------------------------------------- A
    _ex("A1", "a1_streaming", "A", 1, "Streaming JSONL: generator pipeline and fits_in_memory",
        kp("pipeline_counts", "read -> filter -> exact dedupe -> count gives the right counts on generated files", P1_STREAM),
        kp("peak_independent_of_size", "the pipeline's peak memory, read from outside its process (VmHWM, VmPeak), "
           "does not grow with file size", P1_STREAM),
        kp("streams_under_rlimit", "the pipeline finishes under an address-space limit (set before the learner's "
           "code runs) of an idle process + 1/8 of the list approach's need", P1_STREAM),
        kp("fits_in_memory", "fits_in_memory uses the measured list peak factor (~5x)", P1_STREAM),
        timeout_s=240),
    _ex("A2", "a2_nbytes_index", "A", 2, "nbytes of a tensor and the shape after indexing",
        kp("nbytes_matches_meta_tensor", "nbytes(shape, dtype) equals a meta-device tensor's nbytes", P2_INDEX),
        kp("bf16_is_two_bytes", "bfloat16 / float16 take 2 bytes per element", P2_INDEX),
        kp("integer_index_drops_dim", "an integer index removes that dimension", P2_INDEX),
        kp("slice_keeps_dim", "a slice keeps the dimension, even when it selects one element", P2_INDEX),
        kp("full_index_expressions", "shapes after mixed index expressions (ellipsis, None, negative) match torch", P2_INDEX)),
    _ex("A3", "a3_broadcast", "A", 2, "Broadcast two shapes",
        kp("matches_numpy", "broadcast_shape equals np.broadcast_shapes on broadcastable shapes", P2_BROADCAST),
        kp("aligns_from_the_right", "shapes align from the right; a missing leading dim acts as 1 ((8,1,64)+(16,64) -> (8,16,64))", P2_BROADCAST),
        kp("raises_on_incompatible", "incompatible shapes raise ValueError, as numpy does", P2_BROADCAST)),
    _ex("A4", "a4_grad_accum", "A", 3, "Gradient accumulation",
        kp("backward_accumulates", "k backward calls without zero_grad give k times the single gradient", P3_ACCUM),
        kp("matches_full_batch", "accumulating k micro-batches (one forward each, token mean over the full batch "
           "with -100 labels) equals the full-batch gradient within 1e-6", P3_ACCUM)),
    _ex("A5", "a5_first_loss", "A", 3, "First-step loss",
        kp("expected_first_loss", "the expected first loss is ln V", P3_LNV),
        kp("flags_suspicious_loss", "a first loss more than 1 nat above ln V is flagged (15.0 for V = 151936)", P3_LNV),
        kp("init_gives_ln_v", "the learner's output-layer init makes a real tiny GPT's first loss ln V +- 0.4", P3_LNV)),
    _ex("A6", "a6_training_state", "A", 4, "Full vs LoRA training-state memory",
        kp("full_finetune_bytes", "full fine-tuning state = 16 bytes x parameters (3B -> 48 GB)", P4_16),
        kp("lora_bytes", "LoRA = frozen bf16 base (2 bytes/param) + 16 bytes x trainable (3B, 1% -> ~6.5 GB: fits 24 GB)", P4_16),
        kp("matches_real_tensors", "total and 5+1-part breakdown match the bytes of real bf16 params/grads, fp32 masters and AdamW m, v after one step (full and peft LoRA)", P4_16)),
    _ex("A7", "a7_activations", "A", 4, "Activation memory vs B, T and checkpointing",
        kp("scales_with_batch_and_seq", "activations are proportional to B x T (as measured), not to the parameter count", P4_ACT),
        kp("checkpointing_keeps_inputs", "checkpointing keeps per-layer inputs only: equals the measured bytes (Llama-3-8B, B=1, T=4096: 1.0 GiB)", P4_ACT),
        kp("tracks_measurement", "within 0.5x-1.25x of the saved-for-backward bytes measured with saved_tensors_hooks on real Llama models", P4_ACT)),
    _ex("A8", "a8_lora_params", "A", 5, "LoRA trainable parameters from a config",
        kp("matches_peft", "equals peft on a meta-device model for drawn configs (GQA, tied embeddings, any head_dim; all-linear or a list)", P5_LORA),
        kp("qwen_0_5b", "Qwen2.5-0.5B r=16 all-linear = 8,798,208", P5_LORA),
        kp("linear_in_r", "the count is proportional to r (r 16 -> 32 doubles 8.80M to 17.6M)", P5_LORA)),
    _ex("A9", "a9_kv_cache", "A", 6, "KV-cache bytes",
        kp("matches_dynamic_cache", "equals a real DynamicCache after a forward of a tiny GQA model", P6_KV),
        kp("llama3_8b_per_token", "Llama-3-8B: 131,072 bytes per token; real configs match a meta-device DynamicCache for drawn B x T", P6_KV),
        kp("fits_decision", "fits iff weights + KV cache <= GPU bytes: 128 requests x 4K context plus 16 GB weights do not fit 80 GB", P6_KV)),
    _ex("A10", "a10_profile_idle", "A", 6, "Where did the step's time go",
        kp("idle_fraction", "idle fraction = 1 - device time / wall time (300 ms wall, 90 ms device -> 0.7)", P6_PROF),
        kp("device_time_from_ops", "device time = sum of the ops' self times (not inclusive totals) of a real profile", P6_PROF),
        kp("classifies_real_profiles", "classifies real torch.profiler runs: data-loading stall, GEMM/attention step, copy-heavy step", P6_PROF),
        timeout_s=240),
    # ---------------------------------------------------------------- B
    _ex("B1", "b1_lora_oom", "B", 4, "LoRA OOM at max_length 8192 x batch 4",
        kp("names_activation_block", "the activation block overflows, not the parameters and state (16.7 GB fits 80 GB)", P4_ACT),
        kp("activations_scale_with_bt", "activations scale with B x T as measured in real models (16.5 GiB -> ~132 GiB at B=4, T=8192)", P4_ACT),
        kp("checkpointing_fix", "checkpointing keeps layer inputs only, as measured (8 GiB at B=4, T=8192: fits)", P4_ACT),
        kp("accumulation_or_shorter", "smaller micro-batch + accumulation keeps the effective batch; the longest sequence that fits", P3_ACCUM)),
    _ex("B2", "b2_is_it_real", "B", 6, "Is a 0.5-point difference real",
        kp("record_diff", "diffs the seven-item records first: which of commit, config, data version, seed, environment differ", P6_RECORD),
        kp("multi_seed_stats", "real only with >= 2 seeds, non-overlapping mean +- std bands and a difference beyond ci95", P2_CI)),
    _ex("B3", "b3_never_stops", "B", 5, "The model answers but never stops",
        kp("eos_kept_in_labels", "collator labels mask prompt and padding by position and keep EOS, also when pad = EOS", P5_EOS),
        kp("finds_masked_eos", "finds the real EOS tokens a buggy collator masked to -100 (not padding)", P5_EOS)),
    _ex("B4", "b4_merged_decode", "B", 6, "Decode floor after merge_and_unload",
        kp("decode_floor", "decode floor = weight bytes / bandwidth, in ms (merged Qwen2.5-0.5B bf16 on H100: ~0.29 ms)", P6_DECODE),
        kp("merged_equals_unmerged", "merge_and_unload: same logits as the unmerged LoRA model, no adapters left, the base parameter count", P5_LORA)),
    _ex("B5", "b5_ddp", "B", 4, "DDP on 8 GPUs",
        kp("per_gpu_memory", "per-GPU memory under DDP = a full replica's state (real LoRA tensors) + its own activations", P4_16),
        kp("effective_batch", "effective batch = per-GPU batch x GPUs x accumulation; all-reduce mean = the full-batch gradient", P4_16),
        kp("processes_not_threads", "one process per GPU (GIL): torchrun --nproc_per_node=N, as torch's parser reads it", P1_GIL)),
    # ---------------------------------------------------------------- C
    _ex("C1", "c1_70b_plan", "C", 4, "70B fine-tuning plan",
        kp("sixteen_byte_breakdown", "16 bytes per trainable parameter = 2 + 2 + 4 + 4 + 4, as the real tensors of a small model after one AdamW step hold", P4_16),
        kp("full_1120_gb", "full fine-tuning = 16 x parameters (70B -> 1120 GB: 14 GPUs of 80 GB, one 8-GPU node is not enough)", P4_16),
        kp("lora_155_gb", "LoRA = frozen bf16 base + 16 x adapters (70B, 1.3% -> ~155 GB: two 80 GB GPUs), as real peft tensors hold", P4_16),
        kp("activations_outside", "activations are outside the account: each GPU's own activations come on top of its share of the state", P4_ACT),
        kp("ddp_vs_fsdp", "DDP only if a replica fits one GPU, else FSDP (state / GPUs per GPU)", P4_16),
        kp("qlora_half_byte", "follow-up: QLoRA stores the base at ~0.5 bytes/param (70B QLoRA fits one 80 GB GPU)", P4_16, followup=True),
        kp("inference_one_eighth", "follow-up: inference needs only the bf16 weights, 1/8 of the 16 bytes", P4_16, followup=True)),
    _ex("C2", "c2_loss_triage", "C", 3, "Loss not decreasing: triage order",
        kp("ln_v_first", "first: the first loss against ln V (real char GPT: normal init ok, scaled output layer too high)", P3_LNV),
        kp("shapes_second", "then shapes: labels must be the logits' shape without V (torch runs transposed labels silently)", P2_BROADCAST),
        kp("missing_addition", "then which line is missing (scheduler.step, clip_grad_norm_, zero_grad), read from real runs' traces", P3_LOOP),
        kp("grad_norm_shape", "follow-up: a healthy grad-norm curve (large first step, then small; no later spike or NaN)", P3_LOOP, followup=True)),
    _ex("C3", "c3_decode_roofline", "C", 6, "Decode roofline",
        kp("intensity_equals_batch", "a decode step reads every weight once for 2 FLOPs per token: intensity = batch (real FlopCounterMode FLOPs and weight bytes)", P6_RIDGE),
        kp("ridge", "ridge = peak / bandwidth (~295); time = max(FLOPs / peak, bytes / bandwidth): 8B decode at batch 1 ~ 4.8 ms", P6_RIDGE),
        kp("quantization_helps_decode", "quantization speeds memory-bound decode by the bytes ratio (4x), compute-bound prefill/training ~1x", P6_DECODE),
        kp("moe_decode_hard", "follow-up: MoE decode computes with the active experts but reads every expert's weights", P6_DECODE, followup=True)),
    _ex("C4", "c4_oom_attribution", "C", 4, "OOM attribution",
        kp("four_blocks", "four blocks: bf16 weights, grads + state (14 bytes per trainable parameter), activations, KV cache; as real LoRA tensors hold", P4_OOM),
        kp("by_when", "attributes an OOM by when it happens (load, first backward, longer sequence, generation; LoRA and still OOM: activations)", P4_OOM),
        kp("remedy_per_block", "a remedy per block, and the numbers that say whether a smaller batch is enough", P4_OOM),
        kp("kv_formula_gqa", "follow-up: the KV-cache formula with GQA matches a real DynamicCache", P6_KV, followup=True),
        kp("activation_estimate", "follow-up: activations ~ B x T x layers x (6 d + 3 d_ff) x bytes (Llama-3-8B, 4K: 16.5 GiB)", P4_ACT, followup=True)),
    _ex("C5", "c5_four_additions", "C", 3, "The four additions of the training loop",
        kp("autocast", "autocast(bfloat16) is detected: loss and gradient are those of a bf16 autocast forward, parameters fp32 (P2's measurement)", P3_LOOP),
        kp("float_ignore_index", ".float() + ignore_index=-100 is detected: the loss equals the fp32 masked cross-entropy of the logits", P3_LOOP),
        kp("clip_grad_norm", "clip_grad_norm_(1.0) is detected: the step moves the weights by the gradient clipped to norm 1", P3_LOOP),
        kp("warmup_cosine", "warmup + cosine is detected: lr_at and the lr at each optimizer.step()", P3_LOOP),
        kp("grad_accumulation", "follow-up: accumulation over k micro-batches steps once with the full-batch gradient", P3_ACCUM, followup=True),
        timeout_s=240),
    _ex("C6", "c6_trustworthy", "C", 6, "Trustworthy conclusions",
        kp("seeds", "several seeds: mean and sample std; overlapping mean +- std bands show no difference", P2_CI),
        kp("ci95", "the eval table with ci95 = 1.96 sqrt(p(1-p)/n): 80 questions -> +-10.9 points", P2_CI),
        kp("per_question_diff", "merge the two eval tables and list improved and degraded questions (as pandas merge + query)", P2_CI),
        kp("seven_items", "a run record with the seven items: unique run id, commit, config, data version, seed, real environment, metrics", P6_RECORD),
        kp("same_seed_identical", "the same seed gives the identical number, another seed another one", P6_RECORD),
        kp("data_version", "follow-up: the data version is the file's hash (SHA-256) and changes with the data", P6_RECORD, followup=True)),
    _ex("C7", "c7_jsonl_plan", "C", 1, "10 GB JSONL clean/dedupe/tokenize",
        kp("streaming", "a generator pipeline: peak resident memory (VmHWM, read from outside) does not grow when the file is 8x larger", P1_STREAM),
        kp("process_pool", "tokenizing in a multiprocessing.Pool of n_workers with the chunksize (not threads): the workers' CPU time shows it; same result as serial", P1_GIL),
        kp("exact_dedupe", "exact dedupe of the cleaned texts by content hash, first occurrences in order", P1_STREAM),
        kp("why_not_8x", "follow-up: processes do not reach 8x: Amdahl's serial fraction and the real cores", P1_GIL, followup=True)),
    # ---------------------------------------------------------------- P
    _ex("P1", "p1_causal_attention", "P", 2, "Causal attention in einsum",
        kp("float32_matches_sdpa", "float32 output within 1e-6 of F.scaled_dot_product_attention(is_causal=True) (inputs in [-1, 1], T, d <= 64)", P2_TOL),
        kp("float64_matches_sdpa", "float64 output within 1e-12 of SDPA", P2_TOL),
        kp("no_future_leak", "changing later queries/keys/values never changes an earlier output (causal mask)", P2_EINSUM),
        kp("scaled_softmax_over_keys", "attention weights are softmax over keys of QK^T / sqrt(d)", P2_EINSUM),
        kp("numerically_stable", "large logits (up to 300 in float32, 3000 in float64) give no NaN/inf and still match SDPA", P2_TOL)),
    _ex("P2", "p2_training_loop", "P", 3, "The twenty-line training loop",
        kp("first_loss_ln_v", "train_step returns this step's mean loss; the 840,448-parameter model starts at ~ln 128", P3_LNV),
        kp("ppl_falls", "train(config): validation PPL on unseen text falls from ~128 below 12 in 80 steps (batch 8 x 64)", P3_LOOP),
        kp("schedule_values", "lr_at is linear warmup + cosine; the lr at each optimizer.step() follows it", P3_LOOP),
        kp("uses_autocast", "under amp_dtype=bf16 the loss and the gradient are those of an autocast(bf16) forward; parameters stay fp32", P3_LOOP),
        kp("float_logits_ignore_index", "the loss is F.cross_entropy(logits.float(), ignore_index=-100) of the model's bf16 logits", P3_LOOP),
        kp("clips_grad_norm", "optimizer.step() gets the gradient clipped to norm 1.0; the pre-clip norm is reported", P3_LOOP),
        kp("zero_grad_set_to_none", "each step uses its own gradient only (cleared after the step, not before it); every .grad is None after train_step", P3_ACCUM),
        timeout_s=300),
    _ex("P3", "p3_memory_estimate", "P", 4, "A memory estimate within 30%",
        kp("state_blocks_within_30pct", "parameter, gradient and AdamW-state bytes within 30% of real tensors after a step", P4_16),
        kp("activations_within_30pct", "activation bytes within 30% of the saved-for-backward tensors of a real step", P4_ACT),
        kp("peak_within_30pct", "peak within 30% of MemTracker's peak of a steady-state step on CPU", P4_ACT),
        kp("cuda_max_allocated", "peak within 30% of torch.cuda.max_memory_allocated()", P4_ACT, needs_gpu=True),
        kp("course_llama3_8b", "full / LoRA r=16 / QLoRA GB from a config (Llama-3-8B: 128.5 / 16.7 / ~5.1)", P4_16),
        timeout_s=300),
    _ex("P4", "p4_lora_sft", "P", 5, "A LoRA SFT that learns to stop",
        kp("labels_mask_prompt_and_padding", "tokens are prompt + ' answer' + EOS; labels are -100 on the prompt and on padding, the token id on the answer", P5_EOS),
        kp("masked_fraction", "the masked fraction is the count of -100 over all B x T label positions", P5_EOS),
        kp("eos_label_kept", "the label at the EOS position is EOS", P5_EOS),
        kp("eos_kept_when_pad_is_eos", "the EOS label is kept even when the pad token is the EOS token", P5_EOS),
        kp("trainable_params_match_peft", "LoRA r=16, alpha=32, all-linear: trainable parameters and scaling match peft's", P5_LORA),
        kp("answers_and_stops", "after 12 LoRA steps on a real model, held-out prompts are answered correctly and end with EOS", P5_EOS),
        timeout_s=600, call_timeout_s=60),
    _ex("P5", "p5_profile_record", "P", 6, "Profile and record",
        kp("reads_profiler_table", "top aten ops by self time and the backward/forward ratio of a real profiler table", P6_PROF),
        kp("seven_item_record", "a saved run record with the seven items: real commit, data sha256, environment", P6_RECORD),
        kp("seed_reproducible", "2-worker DataLoader: same seed -> identical metric, other seed -> different, workers not duplicated", P6_RECORD),
        timeout_s=300),
    # ---------------------------------------------------------------- X
    _ex("X1", "x1_gil", "X", 1, "Threads do not speed up CPU-bound Python",
        kp("threads_no_speedup", "threads run the work in this process but use ~1 core at once (CPU / wall <= 1.3): the GIL", P1_GIL),
        kp("processes_speed_up", "worker processes run the work and use >= 1.3x the cores the threads used, in the same run", P1_GIL),
        timeout_s=180),
    _ex("X2", "x2_silent_broadcast", "X", 2, "A wrong shape broadcasts silently",
        kp("silent_broadcast", "(3,) - (3, 1) runs and gives (3, 3): the naive loss returns torch's broadcast shape and wrong number", P2_BROADCAST),
        kp("shape_safe_loss", "a shape-safe loss raises on any shape mismatch (also equal element counts) and equals F.mse_loss otherwise", P2_BROADCAST)),
    _ex("X3", "x3_autocast_dtypes", "X", 4, "autocast leaves parameters in fp32",
        kp("params_stay_fp32", "parameters stay fp32 (bit-identical) after a forward under CPU autocast(bfloat16)", P4_16),
        kp("matmul_outputs_bf16", "a Linear's output under autocast is bf16, as the check's own autocast run gives", P4_16),
        kp("loss_fp32", "the loss (a reduction) under autocast stays fp32", P4_16)),
    _ex("X4", "x4_decode_bytes", "X", 6, "Decode time is bytes / bandwidth",
        kp("bytes_over_bandwidth", "decode floor = real bf16 weight bytes / bandwidth (Llama-3-8B: 4.8 ms)", P6_DECODE),
        kp("not_flops_over_compute", "a decode step takes max(FLOPs / peak, bytes / bandwidth): below the ridge a larger batch costs no time", P6_RIDGE)),
    _ex("X5", "x5_loss_falls_never_stops", "X", 5, "Loss falls while the model never stops",
        kp("loss_falls", "with EOS masked to -100 the SFT loss still falls (mean of the last 3 < half the first), re-measured on SmolLM2", P5_EOS),
        kp("never_stops", "with EOS masked the model answers held-out capitals but does not emit EOS after them", P5_EOS),
        timeout_s=600, call_timeout_s=60),
)

BY_ID: dict[str, Exercise] = {ex.id: ex for ex in CATALOG}
BY_MODULE: dict[str, Exercise] = {ex.module: ex for ex in CATALOG}


def get(exercise_id: str) -> Exercise:
    """The exercise with this id (case-insensitive); KeyError with the known ids otherwise."""
    key = exercise_id.strip().upper()
    if key not in BY_ID:
        raise KeyError(f"unknown exercise {exercise_id!r}; known: {', '.join(BY_ID)}")
    return BY_ID[key]


def available() -> list[Exercise]:
    return [ex for ex in CATALOG if ex.available]
