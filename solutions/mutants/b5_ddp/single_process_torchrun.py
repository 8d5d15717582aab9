"""Starts torchrun with one process per node and leaves the GPUs to threads inside it."""

from solutions.b5_ddp import *  # noqa: F403

KILLED_BY = ("launch_command",)


def launch_command(n_gpus, script):
    return f"torchrun --nproc_per_node=1 {script}"
