"""Red team: P1's forbidden function in a fresh thread (torch's function and dispatch modes are thread-local) by a name built at run time."""
import threading
import torch.nn.functional as F
_NAME = "scaled_dot_" + "product_attention"
def causal_attention(q, k, v):
    out = {}
    def run():
        out["v"] = getattr(F, _NAME)(q, k, v, is_causal=True)
    t = threading.Thread(target=run); t.start(); t.join()
    return out["v"]
