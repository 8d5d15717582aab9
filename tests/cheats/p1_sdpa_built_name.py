"""Red team (issue 17, item 2): P1 with the fused kernel's name built at run time, no thread (source scan: the folded string; run time: the wrapper, the modes, the profiler)."""
import torch.nn.functional as F
_NAME = "scaled_dot_" + "product_attention"
def causal_attention(q, k, v):
    return getattr(F, _NAME)(q, k, v, is_causal=True)
