"""'70B is big, use FSDP': chooses FSDP even when a replica fits one GPU."""

from solutions.c1_70b_plan import *  # noqa: F403

KILLED_BY = ("ddp_vs_fsdp",)


def choose_strategy(replica_bytes, gpu_bytes):
    return "FSDP"
