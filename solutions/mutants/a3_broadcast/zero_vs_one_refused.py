"""Takes each aligned dim's maximum as the result and refuses any size that is neither that
maximum nor 1: a 0 against a 1 (max 1) is refused, although (0, 5) + (1, 5) broadcasts to (0, 5).

The check tracel-ai/burn issue #5334 reports in burn's ``broadcast_shape`` ("For each dimension it
takes the maximum size across the operands and asserts that every operand is either that maximum
or 1. When one operand has size 0 and another has size 1, the maximum is 1 and the size-0 operand
is neither ... Under NumPy broadcasting a size-1 dimension broadcasts against a size-0 dimension
to give 0").
"""

KILLED_BY = ("matches_numpy",)
MISCONCEPTION = "take the larger size and require the other to be it or 1: 1 against 0 gives 0, not an error"


def broadcast_shape(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        m = max(x, y)
        if any(s not in (m, 1) for s in (x, y)):
            raise ValueError(f"shapes {a} and {b} do not broadcast: broadcast dims must be size 1")
        out.append(m)
    return tuple(out)
