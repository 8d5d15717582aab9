"""Casts the layer and the input to bf16 ("mixed precision means bf16 weights") and then runs the
forward under autocast anyway: the loss is still fp32 (autocast's reduction), but the stored
weight is now bf16 — the fp32 master weights are gone.

hp-l33/AiM issue #10 (``model = model.to(dtype=torch.bfloat16); x = x.to(dtype=dtype)`` when
bf16=True: "the loss decreases much more slowly"; the maintainer: the optimizer keeps fp32);
tianweiy/CausVid issue #19 (the parameters printed fp32 under mixed_precision=True, so the model
was cast to bf16 by hand, and training "is unable to converge").
"""

from solutions.x3_autocast_dtypes import *  # noqa: F403
from solutions.mutants.x3_autocast_dtypes import _experiment

KILLED_BY = ("weight_dtype",)
MISCONCEPTION = (
    "cast the layer to bf16 for mixed precision: autocast casts copies for the matmul; the stored parameters stay fp32"
)


def autocast_experiment(x, weight, bias, targets):
    return _experiment.autocast_experiment(x, weight, bias, targets, prepare=_experiment.cast_to_bf16)
