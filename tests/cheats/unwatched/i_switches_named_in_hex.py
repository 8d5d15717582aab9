"""(i) As (h), every name in hex (no scan folds it), switched back on before the report: the
switches themselves report a call from the learner's code (watch._guard_torch_switches)."""

import torch

_C = torch._C
_rf = getattr(_C._autograd, bytes.fromhex("5f656e61626c655f7265636f72645f66756e6374696f6e").decode())
_no_disp = getattr(_C, bytes.fromhex("5f44697361626c65546f7263684469737061746368").decode())
_no_func = getattr(_C, bytes.fromhex("44697361626c65546f72636846756e6374696f6e").decode())
_SDPA = bytes.fromhex("7363616c65645f646f745f70726f647563745f617474656e74696f6e").decode()


def causal_attention(q, k, v):
    op = getattr(torch.ops.aten, _SDPA).default._op
    _rf(False)
    try:
        with _no_disp(), _no_func():
            return op(q, k, v, is_causal=True)
    finally:
        _rf(True)
