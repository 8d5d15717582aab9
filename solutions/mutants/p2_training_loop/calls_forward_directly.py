"""Calls ``model.forward(x)`` instead of ``model(x)``: the same logits here, but hooks (the
profiler's, a checkpointing wrapper's, a LoRA adapter's) are skipped, which the stub forbids.

allenai/allennlp issue #456 ("Use model(**inputs) rather than model.forward(**inputs) ... __call__
also includes some handling of hooks") and MPoL-dev/MPoL issue #151 ("Direct .forward() calls not
recommended"). Through ``getattr`` so that only the guard in the learner's process sees it.
"""

import torch

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("first_loss_ln_v", "uses_autocast", "clips_grad_norm")


def _forward_logits(model, x, amp_dtype=None):
    with torch.autocast(device_type=x.device.type, dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        return getattr(model, "for" + "ward")(x)


reference.forward_logits = _forward_logits
