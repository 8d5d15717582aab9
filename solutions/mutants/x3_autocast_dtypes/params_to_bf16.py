"""'autocast makes the parameters bf16': casts the layer to bf16 instead of using autocast."""

import contextlib

from solutions.x3_autocast_dtypes import *  # noqa: F403
from solutions.mutants.x3_autocast_dtypes import _experiment

KILLED_BY = ("weight_dtype", "loss_dtype")


def autocast_experiment(x, weight, bias, targets):
    return _experiment.autocast_experiment(
        x, weight, bias, targets, prepare=_experiment.cast_to_bf16, context=contextlib.nullcontext
    )
