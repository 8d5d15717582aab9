"""Red team: A3 answered by adding meta tensors (no broadcast_* call at all)."""
import torch as _t
def broadcast_shape(a, b):
    try:
        return tuple((_t.empty(tuple(a), device="meta") + _t.empty(tuple(b), device="meta")).shape)
    except RuntimeError as e:
        raise ValueError(str(e)) from None
