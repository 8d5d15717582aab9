"""Answers with a tensor on the meta device (``torch.empty(shape, device="meta").nbytes`` and its
``[index].shape``): exact, and what the stub forbids ("by arithmetic: do not create tensors or
arrays here (no torch, no numpy)").

The meta device is the usual way to get sizes without allocating (meta-pytorch/torchrec PR #1740:
"This allows calculating FLOPs for models locally without allocating memory"); the exercise asks
for the rule itself. Reached through importlib so that only the watch in the learner's process
sees it (tests/test_feedback.py covers the source scan).
"""

import importlib

KILLED_BY = (
    "nbytes_matches_meta_tensor",
    "half_precision_nbytes",
    "integer_index_shape",
    "slice_shape",
    "full_index_expressions",
)


def _torch():
    return importlib.import_module("tor" + "ch")


def nbytes(shape, dtype):
    t = _torch()
    return int(t.empty(shape, dtype=getattr(t, dtype), device="meta").nbytes)


def index_shape(shape, index):
    return tuple(_torch().empty(shape, device="meta")[index].shape)
