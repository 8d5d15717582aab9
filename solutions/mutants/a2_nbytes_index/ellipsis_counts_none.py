"""Counts the ``None`` items among the dims an index addresses, so ``...`` expands to too few dims:
for x of shape (2, 3, 5), ``x[..., None]`` comes out (2, 3, 1, 5) instead of (2, 3, 5, 1).

The bug dask/dask issue #1730 reports ("da.core.asarray(np.empty((2,3,5)))[..., None].shape ->
(2, 3, 1, 5)"; fixed by dask/dask PR #1734, "Correct shape when indexing with Ellipsis and None"),
and the reading numpy/numpy PR #12534 corrected in NumPy's own indexing docs: ``...`` makes the
index as long as ``x.ndim`` *not counting* the newaxis objects.
"""

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.mutants.a2_nbytes_index import _shape_rules

KILLED_BY = ("full_index_expressions",)
MISCONCEPTION = "count None as an addressed dim when expanding ...: None adds a dim, it addresses none"


def index_shape(shape, index):
    items = index if isinstance(index, tuple) else (index,)
    n_none = sum(1 for item in items if item is None)
    return _shape_rules.index_shape(shape, index, ellipsis_rule=lambda ndim, consumed: max(0, ndim - consumed - n_none))
