"""Launches with ``--nnodes=<GPUs> --nproc_per_node=1``: on one 8-GPU machine torchrun then waits for
7 more nodes (or runs one process), instead of starting one process per GPU.

The confusion karpathy/nanoGPT PR #387 corrects ("--nproc_per_node should be set to the number of
gpus on a single node, not the world rank") and meta-pytorch/torchtune PR #382 ran into ("It took
me sometime to figure out the right args for nnodes, nproc_per_node").
"""

from solutions.b5_ddp import *  # noqa: F401,F403

KILLED_BY = ("launch_command",)
MISCONCEPTION = "pass the GPU count as --nnodes: one machine's GPUs need --nproc_per_node=<GPUs>"


def launch_command(n_gpus, script):
    return f"torchrun --nnodes={n_gpus} --nproc_per_node=1 {script}"
