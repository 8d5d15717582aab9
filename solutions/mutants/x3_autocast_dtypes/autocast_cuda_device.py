"""Opens the autocast context for the wrong device: ``torch.autocast("cuda", dtype=torch.bfloat16)``
around CPU tensors. CUDA autocast only changes CUDA ops (and is disabled without a GPU, with a
warning), so the CPU matmul runs in fp32 and the logits come back fp32.

huggingface/accelerate PR #906 ("amp bf16 does not work for cpu in env with cuda": the autocast
device type was CUDA's; the fix passes ``self.device.type``); ai-forever/Real-ESRGAN issue #12
(``@torch.cuda.amp.autocast()`` on a CPU run: "User provided device_type of 'cuda', but CUDA is not
available. Disabling").
"""

import warnings

import torch

from solutions.x3_autocast_dtypes import *  # noqa: F403
from solutions.mutants.x3_autocast_dtypes import _experiment

KILLED_BY = ("logits_dtype",)
MISCONCEPTION = (
    'open autocast for "cuda" around CPU tensors: autocast only touches ops on its own device type; '
    'use torch.autocast("cpu", dtype=torch.bfloat16)'
)


def _cuda_autocast():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.autocast("cuda", dtype=torch.bfloat16)


def autocast_experiment(x, weight, bias, targets):
    return _experiment.autocast_experiment(x, weight, bias, targets, context=_cuda_autocast)
