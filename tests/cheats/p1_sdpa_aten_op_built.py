"""Red team (issue 27 S3): the aten operator through torch.ops, its name built from halves at run time."""
import torch

_OP = "_".join(["scaled", "dot", "product", "attention"])


def causal_attention(q, k, v):
    return getattr(torch.ops.aten, _OP)(q, k, v, is_causal=True)
