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
import torch.nn.functional as F

from solutions.x3_autocast_dtypes import *  # noqa: F403

KILLED_BY = ("logits_dtype",)
MISCONCEPTION = ("open autocast for \"cuda\" around CPU tensors: autocast only touches ops on its own device type; "
                 "use torch.autocast(\"cpu\", dtype=torch.bfloat16)")


def autocast_experiment(x, weight, bias, targets):
    linear = torch.nn.Linear(weight.shape[1], weight.shape[0])
    with torch.no_grad():
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ctx = torch.autocast("cuda", dtype=torch.bfloat16)
    with ctx:
        logits = linear(x)
        loss = F.cross_entropy(logits, targets)
    return {"weight_after": linear.weight.detach(), "logits": logits.detach(), "loss": loss.detach()}
