"""Shared by the broadcast mutants (not a mutant: the leading underscore keeps it out of the harness).

``broadcast_shape`` with each rule replaceable (how the shapes are aligned, which pairs of dims
agree, which dim the result takes), so a mutant changes exactly one rule. left_align and
max_of_dims stay self-contained: tests hand them in as a learner's file.
"""


def right_aligned(a, b):
    n = max(len(a), len(b))
    return (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b


def broadcast_shape(
    a, b, *, align=right_aligned, agree=lambda x, y: x == y or 1 in (x, y), take=lambda x, y: y if x == 1 else x
):
    a, b = align(tuple(a), tuple(b))
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if not agree(x, y):
            raise ValueError(f"shapes {a} and {b} do not broadcast: dim {i} is {x} vs {y}")
        out.append(take(x, y))
    return tuple(out)
