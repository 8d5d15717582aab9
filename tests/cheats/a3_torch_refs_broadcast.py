"""Red team: A3 answered by torch's private torch._refs._broadcast_shapes (a name outside the old list)."""
import torch._refs as _r
def broadcast_shape(a, b):
    try:
        return tuple(int(d) for d in _r._broadcast_shapes(tuple(a), tuple(b)))
    except RuntimeError as e:
        raise ValueError(str(e)) from None
