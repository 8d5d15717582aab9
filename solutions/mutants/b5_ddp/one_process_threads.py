"""One Python process driving all GPUs from threads (DataParallel-style): the GIL serialises them."""

from solutions.b5_ddp import *  # noqa: F403

KILLED_BY = ("launch_command",)


def launch_command(n_gpus, script):
    return f"python {script} --threads {n_gpus}"
