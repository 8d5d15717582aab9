"""B4 — decode floor after ``merge_and_unload`` (part 7, §五.B question 4; parts 4, 5, 6).

The part-5 Qwen2.5-0.5B LoRA model is merged with ``merge_and_unload`` and served on an H100,
batch 1. What is the lower bound of one decode step, and does merging change it? Decode is
memory-bound (part 6): every step reads every weight once, so the floor is bytes of weights /
memory bandwidth. Merging folds the adapters into the weights, ``W' = W + (alpha/r) B A``: the
merged model has exactly the base model's parameters (zero inference overhead) and gives the
same outputs as the unmerged one; unmerged, each step also reads A and B (8.80M x 2 bytes for
Qwen2.5-0.5B r=16, negligible) and runs extra small kernels.
"""


def decode_floor_ms(n_params: int, bytes_per_param: float, bandwidth_tb_s: float) -> float:
    """The batch-1 decode lower bound per token, in milliseconds.

    Args:
        n_params: parameters read per step (an int, e.g. 494_032_768 for Qwen2.5-0.5B).
        bytes_per_param: 2 for bf16, 4 for fp32, 0.5 for 4-bit.
        bandwidth_tb_s: memory bandwidth in TB/s (decimal: 1 TB/s = 1e12 bytes/s; H100 SXM 3.35).

    Returns:
        A float, ms: ``n_params * bytes_per_param / (bandwidth_tb_s * 1e12) * 1e3``. Qwen2.5-0.5B
        in bf16 on an H100: 0.99 GB / 3.35 TB/s ~ 0.29 ms.

    Source: part 6, must-remember "decode floor = bytes of weights / bandwidth: 16.06 GB /
    3.35 TB/s ~ 4.8 ms"; part 7, §五.B question 4.
    """
    raise NotImplementedError("B4: decode_floor_ms")


def merge_lora(peft_model):
    """Fold a peft LoRA model's adapters into its base weights for serving.

    Args:
        peft_model: a ``peft.PeftModel`` (a tiny random Llama with LoRA on all linears in the
            check, with non-zero A and B, so a merge that drops or mis-scales them shows).

    Returns:
        The plain merged ``transformers`` model (no LoRA modules left, the base model's exact
        parameter count), whose logits equal the unmerged model's (float32, atol 1e-5). The
        check loads its ``state_dict()`` into a plain base model of its own (same keys and
        shapes required) and compares the logits there.

    Source: part 5, must-remember "LoRA adds (alpha/r) BAx"; part 7, §五.B question 4 ("merged,
    zero inference overhead").
    """
    raise NotImplementedError("B4: merge_lora")
