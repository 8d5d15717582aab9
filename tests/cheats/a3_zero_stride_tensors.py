"""Red team: A3 answered by '&' on zero-stride torch tensors (no broadcast_* call at all)."""
import torch as _t
def broadcast_shape(a, b):
    x = _t.empty_strided(tuple(a), (0,) * len(a), dtype=_t.bool)
    y = _t.empty_strided(tuple(b), (0,) * len(b), dtype=_t.bool)
    try:
        return tuple((x & y).shape)
    except RuntimeError as e:
        raise ValueError(str(e)) from None
