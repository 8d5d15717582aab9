"""A3: a subclass of numpy's array type defined at import, used by a type call and an operator only."""
import numpy as np, operator
class _A(np.ndarray):
    pass
def broadcast_shape(a, b):
    return tuple(operator.and_(_A(tuple(a), bool, b"\0", 0, (0,) * len(a)), _A(tuple(b), bool, b"\0", 0, (0,) * len(b))).shape)
