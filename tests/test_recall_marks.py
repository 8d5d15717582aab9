"""Every ``recall`` mark in the catalog, reviewed by id (docs/learning.md: a key point is recall when its expected
value *is* the fact asked for: R's facts, the run record's items, the label ignore index, a course
number, threshold or formula, or the course's own question with its own numbers; one whose expected
value is computed or measured on drawn inputs shows everything at the first failure). A mark added
or removed must be reviewed here."""

from grader.course import catalog

COURSE_FACT = "the expected value is a course fact (a number, formula or rule the course states)"
COURSE_QUESTION = "the course's own question, with its own numbers, comes first"
RECORD = "the items of a run record / the label ignore index"
REVIEWED = {
    **{
        ("R", k): "R: must-remember facts"
        for k in (
            "bytes_per_param",
            "ridge_point",
            "decode_floor",
            "kv_cache_per_token",
            "first_step_loss",
            "ignore_index",
            "einsum_qk",
            "einsum_pv",
            "ci95",
            "thread_speedup",
            "part_topics",
            "run_record_items",
        )
    },
    ("A1", "fits_in_memory"): "the course's 5.3x list-vs-file ratio decides the verdict",
    ("A5", "expected_first_loss"): COURSE_FACT + ": ln V",
    ("A5", "flags_suspicious_loss"): COURSE_FACT + ": ln V as the line",
    ("A5", "init_first_loss"): COURSE_FACT + ": the loss a right init gives is ln V",
    ("A6", "full_finetune_bytes"): COURSE_QUESTION + " (3B, 48 GB)",
    ("A6", "lora_bytes"): COURSE_QUESTION + " (3B with 1% adapters)",
    ("A7", "checkpointed_bytes"): COURSE_QUESTION + " (16.5 -> 1 GiB)",
    ("A8", "qwen_0_5b"): COURSE_QUESTION + " (8.80M)",
    ("A8", "change_with_r"): COURSE_FACT + ": linear in r",
    ("A9", "llama3_8b_per_token"): COURSE_QUESTION + " (131 KB)",
    ("A9", "fits_decision"): COURSE_QUESTION + " (68.7 + 16 GB)",
    ("A10", "idle_fraction"): COURSE_QUESTION,
    ("B1", "overflowing_block"): COURSE_QUESTION,
    ("B1", "activations_at_new_shape"): COURSE_QUESTION + " (the course's 8B)",
    ("B1", "activations_after_fix"): COURSE_QUESTION + " (8B at B=4, T=8192)",
    ("B2", "record_diff"): RECORD,
    ("B3", "padded_batch_labels"): RECORD,
    ("B4", "decode_floor"): COURSE_FACT + ": bytes / bandwidth",
    ("B5", "effective_batch"): COURSE_FACT + ": the effective batch's formula",
    ("C1", "bytes_per_param_parts"): COURSE_FACT + ": 2 + 2 + 4 + 4 + 4",
    ("C1", "full_finetune_total"): COURSE_QUESTION + " (70B)",
    ("C1", "lora_total"): COURSE_QUESTION + " (70B at 1.3%)",
    ("C1", "ddp_vs_fsdp"): COURSE_FACT + ": the course's rule for the choice",
    ("C1", "qlora_state"): COURSE_QUESTION + " (70B)",
    ("C1", "inference_bytes"): COURSE_FACT + ": 2 bytes per parameter",
    ("C2", "first_loss_verdict"): COURSE_FACT + ": ln V as the line",
    ("C3", "ridge"): COURSE_FACT + ": the ridge point",
    ("C3", "quantization_speedup"): COURSE_FACT + ": the course's conclusion on decode vs prefill",
    ("C4", "oom_attribution"): COURSE_FACT + ": the course's table of when each block overflows",
    ("C4", "remedy_per_block"): COURSE_FACT + ": each block's remedies",
    ("C4", "activation_estimate"): COURSE_QUESTION + " (its 8B)",
    ("C5", "step_gradient"): COURSE_FACT + ": clipping at 1.0",
    ("C6", "ci95"): COURSE_QUESTION + " (80 questions)",
    ("C6", "run_record"): RECORD,
    ("C6", "changed_data"): RECORD,
    ("C7", "why_not_linear"): COURSE_FACT + ": start-up and pickling",
    ("P2", "step_gradient"): COURSE_FACT + ": clipping at 1.0",
    ("P3", "course_llama3_8b"): COURSE_QUESTION + " (128.5 / 16.7 / 5.1 GB)",
    ("P4", "data_path_labels"): RECORD,
    ("P4", "trainable_params_match_peft"): COURSE_QUESTION + " (r=16, all-linear)",
    ("P5", "run_record"): RECORD,
    ("X4", "decode_floor"): COURSE_QUESTION + " (the course's 8B)",
    ("X4", "step_time_vs_batch"): COURSE_QUESTION + " (the course's 8B)",
}
# Computed or measured on drawn inputs: everything shows at the first failure (learners' finding).
MEASURED = {
    ("A6", "matches_real_tensors"),
    ("B2", "score_verdict"),
    ("B5", "per_gpu_memory"),
    ("C3", "decode_step_cost"),
    ("C4", "memory_blocks"),
    ("C4", "kv_cache_gqa"),
}


def test_every_recall_mark_is_reviewed():
    marked = {(ex.id, kp.id) for ex in catalog.CATALOG for kp in ex.key_points if kp.recall}
    assert marked == set(REVIEWED), {
        "marked, not reviewed": sorted(marked - set(REVIEWED)),
        "reviewed, not marked": sorted(set(REVIEWED) - marked),
    }
    assert not marked & MEASURED, sorted(marked & MEASURED)
