"""Divides everything, state and activations, by the GPU count: DDP taken for a model split over the
GPUs, against part 7's answer to §五.B question 5 ("DDP 每卡一份完整模型与状态，16.7 GB + 激活")."""
from solutions.b5_ddp import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "B5", ("per_gpu_memory",), "divides the state and the activations together"


def ddp_per_gpu_bytes(replica_state_bytes, activation_bytes, n_gpus):
    return (replica_state_bytes + activation_bytes) // n_gpus
