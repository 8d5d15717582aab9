"""P2's mutant `clips_scaled_gradients` as the C5 answer: a GradScaler on the bf16 path and
``clip_grad_norm_`` before ``scaler.unscale_`` (milesial/Pytorch-UNet issue #468, "Gradients are
clipped before the unscaling"): the clip acts on gradients 65536x too large."""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.clips_scaled_gradients import *  # noqa: F403

KILLED_BY = ("step_gradient",)
MISCONCEPTION = (
    "clip the loss-scaled gradients (GradScaler) before unscale_: the clip acts on gradients 65536x too large"
)
