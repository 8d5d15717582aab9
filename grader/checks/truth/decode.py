"""One real decode step of a bf16 Llama, counted: its linear weights and the matmul FLOPs that
FlopCounterMode sees (C3's decode cost, the quiz's decode intensity)."""

from __future__ import annotations

import torch
from torch.utils.flop_counter import FlopCounterMode

from grader.given.tiny_models import build_llama


def real_decode_step(config: dict, batch: int) -> tuple[int, int, int]:
    """(weight parameters of the linear layers, their bf16 bytes, matmul FLOPs of one decode step)."""
    model = build_llama(config, dtype=torch.bfloat16).eval()
    linears = [m.weight for m in model.modules() if isinstance(m, torch.nn.Linear)]
    ids = torch.randint(0, config["vocab_size"], (batch, 1))
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model(input_ids=ids, use_cache=False)
    mm = counter.get_flop_counts()["Global"][torch.ops.aten.mm]
    return sum(w.numel() for w in linears), sum(w.nbytes for w in linears), mm
