"""Shared by the index mutants (not a mutant: the leading underscore keeps it out of the harness).

``index_shape`` with each rule replaceable, so a mutant changes exactly one rule.
"""


def slice_len(s, n):
    return len(range(*s.indices(n)))


def index_shape(
    shape,
    index,
    *,
    int_rule=lambda n: (),
    slice_rule=lambda s, n: (slice_len(s, n),),
    none_rule=lambda: (1,),
    ellipsis_rule=None,
):
    if not isinstance(index, tuple):
        index = (index,)
    consumed = sum(1 for item in index if item is not None and item is not Ellipsis)
    out, dim = [], 0
    for item in index:
        if item is None:
            out.extend(none_rule())
        elif item is Ellipsis:
            n = len(shape) - consumed if ellipsis_rule is None else ellipsis_rule(len(shape), consumed)
            out.extend(shape[dim : dim + n])
            dim += n
        elif isinstance(item, slice):
            out.extend(slice_rule(item, shape[dim]))
            dim += 1
        else:
            out.extend(int_rule(shape[dim]))
            dim += 1
    return tuple(out) + tuple(shape[dim:])
