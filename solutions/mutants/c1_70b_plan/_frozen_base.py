"""Shared by the mutants that count one method's frozen base wrong (not a mutant: the leading
underscore keeps it out of the harness).

``state_bytes`` with the frozen base of ``wrong_for`` counted at ``base_bytes_per_param``: the
adapters keep the reference's bytes per trainable parameter, every other method is the reference's.
"""

import solutions.c1_70b_plan as reference

_right = reference.state_bytes


def state_bytes(n_base, n_adapter, method, *, wrong_for, base_bytes_per_param):
    if method == wrong_for:
        return base_bytes_per_param * n_base + sum(reference.PARTS.values()) * n_adapter
    return _right(n_base, n_adapter, method)
