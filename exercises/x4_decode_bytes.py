"""X4 — decode time is bytes / bandwidth, not FLOPs / compute (part 7, §五.D counter-intuitive
conclusions; part 6).

Misconception (part 7 §四): "decode is slow because the GPU cannot compute fast enough". At
batch 1 the intensity is ~1 FLOP/byte, far below the ridge (~295 on an H100): the time is spent
moving the weights. Units: bytes, bytes/s, FLOP/s, milliseconds.
"""


def decode_floor_ms(weight_bytes: float, bandwidth: float) -> float:
    """The lower bound of one decode step in milliseconds: every weight byte is read once.

    weight_bytes / bandwidth (bytes/s), in ms. Llama-3-8B bf16 (16.06e9 bytes) at 3.35e12 B/s
    -> ~4.8 ms; Qwen2.5-0.5B merged (0.99 GB) -> ~0.3 ms. Source: part 6, must-remember.
    """
    raise NotImplementedError("X4: decode_floor_ms")


def decode_step_ms(n_params: int, bytes_per_param: float, batch: int, peak_flops: float, bandwidth: float) -> float:
    """One decode step of ``batch`` sequences by the roofline, in milliseconds:
    max(2 x n_params x batch / peak_flops, n_params x bytes_per_param / bandwidth) x 1000.

    Below the ridge, a larger batch costs (almost) no extra time. Source: part 6; part 7 §四.
    """
    raise NotImplementedError("X4: decode_step_ms")
