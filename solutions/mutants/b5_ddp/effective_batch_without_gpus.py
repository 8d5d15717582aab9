"""Leaves the GPU count out of the effective batch (per-GPU batch x accumulation steps): with 8 GPUs
every optimizer step actually averages 8 times more examples.

The miscount of locuslab/open-unlearning issue #164 (a README's "8 per device, 4 grad accum steps,
2 GPUs ... batch size 32" where it is 8 x 2 x 4 = 64) and karpathy/nanoGPT issue #543 ("I didn't
notice the ddp_world_size").
"""

from solutions.b5_ddp import *  # noqa: F401,F403

KILLED_BY = ("effective_batch",)
MISCONCEPTION = "leave the GPU count out of the effective batch: every GPU adds its own per-GPU batch"


def effective_batch(per_gpu_batch, n_gpus, accumulation_steps):
    return per_gpu_batch * accumulation_steps
