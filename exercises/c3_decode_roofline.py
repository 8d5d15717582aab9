"""C3 — why LLM inference is fast only at large batch; why quantization helps inference, not
training (part 7, §五.C question 3; part 6, the roofline).

A GPU has two ceilings: peak compute (FLOP/s) and memory bandwidth (bytes/s). A step that does
F FLOPs and moves M bytes takes at least max(F / peak, M / bandwidth) seconds; its arithmetic
intensity F / M says which ceiling binds. Units: FLOPs, bytes, seconds, tokens per second.
"""


def ridge_point(peak_flops: float, bandwidth: float) -> float:
    """The intensity (FLOP/byte) at which compute and memory take equally long: peak / bandwidth.

    H100: 989e12 FLOP/s and 3.35e12 B/s -> ~295 FLOP/byte. Source: part 6, must-remember "ridge".
    """
    raise NotImplementedError("C3: ridge_point")


def decode_cost(n_params: int, batch: int, bytes_per_param: float) -> tuple[float, float]:
    """(FLOPs, bytes) of one decode step: ``batch`` sequences each produce one token.

    Every weight is read once per step (shared by the batch) and used in one multiply-add
    (2 FLOPs) per token. KV cache and activations are left out. With bf16 (2 bytes) the
    intensity is ~ batch. Checked against torch's FlopCounterMode on a real model.
    Source: part 6; part 7 §五.C question 3, key points 2-3.
    """
    raise NotImplementedError("C3: decode_cost")


def roofline(flops: float, nbytes: float, peak_flops: float, bandwidth: float) -> dict:
    """The roofline verdict for a step.

    Returns ``{"intensity": flops / nbytes, "time_s": max(flops / peak_flops, nbytes / bandwidth),
    "bound": "memory" or "compute"}`` ("memory" when the intensity is below the ridge point,
    "compute" otherwise). Llama-3-8B decode at batch 1 on an H100: 16.06 GB / 3.35 TB/s ~ 4.8 ms.
    Source: part 6, must-remember "decode floor = bytes of weights / bandwidth".
    """
    raise NotImplementedError("C3: roofline")


def quantization_speedup(n_params: int, tokens_per_step: int, bytes_before: float, bytes_after: float,
                         peak_flops: float, bandwidth: float) -> float:
    """How many times faster a step of ``tokens_per_step`` tokens becomes when the weights go
    from ``bytes_before`` to ``bytes_after`` bytes per parameter (same FLOPs), by the roofline.

    Decode (1 token per sequence, small batch) is memory-bound: bf16 -> int4 (2 -> 0.5 bytes) is ~4x.
    Training / prefill (thousands of tokens per step) is compute-bound: ~1x.
    Source: part 7 §五.C question 3, key points 4-5.
    """
    raise NotImplementedError("C3: quantization_speedup")


def moe_decode_cost(total_params: int, active_params: int, batch: int, bytes_per_param: float) -> tuple[float, float]:
    """(FLOPs, bytes) of one decode step of a mixture-of-experts model at a batch large enough
    that its tokens together route to every expert.

    Each token computes with only ``active_params`` (2 FLOPs each), but every expert's weights
    (``total_params``) must be read. Source: part 7 §五.C question 3, follow-up "why is MoE
    inference particularly hard".
    """
    raise NotImplementedError("C3: moe_decode_cost")
