"""X3 — autocast does not make the parameters bf16 (part 7, §五.D counter-intuitive conclusions;
part 3 and part 4, mixed precision).

Misconception (part 7 §四): "autocast turns the parameters into bf16 and halves the memory". Run
the experiment: a Linear layer with fp32 parameters, a forward and a loss under
``torch.autocast("cpu", dtype=torch.bfloat16)``, and report what dtypes come out.
"""

import torch


def autocast_experiment(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, targets: torch.Tensor) -> dict:
    """Build ``torch.nn.Linear(d_in, d_out)`` holding ``weight`` and ``bias``, then inside
    ``torch.autocast("cpu", dtype=torch.bfloat16)`` compute ``logits = linear(x)`` and
    ``loss = F.cross_entropy(logits, targets)``.

    Args:
        x: float32 [B, d_in]; weight: float32 [d_out, d_in]; bias: float32 [d_out];
        targets: int64 [B] class indices in [0, d_out).

    Returns:
        ``{"weight_after": the layer's weight tensor after the forward (as stored in the module,
        detached), "logits": the linear output as autocast produced it (detached),
        "loss": the scalar loss as autocast produced it (detached)}``; do not convert dtypes.
        The check re-runs the experiment and compares dtypes and values.

    Source: part 4, "autocast runs matmuls in bf16, keeps reductions like the loss in fp32 and
    does not change how parameters are stored: the fp32 master weights stay fp32".
    """
    raise NotImplementedError("X3: autocast_experiment")
