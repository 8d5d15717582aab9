"""Bytes, shapes and parameter counts read off the meta device: torch's own answer, no memory
allocated (A2's nbytes and index shapes, B4's base model, the quiz's)."""

from __future__ import annotations

import torch

from grader.given.tiny_models import build_llama


def nbytes(shape, dtype_name: str) -> int:
    """``.nbytes`` of a tensor of ``shape`` and dtype ``torch.<dtype_name>``."""
    return torch.empty(shape, dtype=getattr(torch, dtype_name), device="meta").nbytes


def index_shape(shape, index) -> tuple:
    """The shape torch gives ``x[index]`` for a tensor ``x`` of ``shape``."""
    return tuple(torch.empty(shape, device="meta")[index].shape)


def model_params(config: dict) -> int:
    """Parameters of the Llama that ``config`` builds (grader.given.tiny_models)."""
    return sum(p.numel() for p in build_llama(config, device="meta").parameters())
