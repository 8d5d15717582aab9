"""The forbidden function once per input, then the remembered answer: Hypothesis's replay of the
failing input passes, so the verdict is "flaky" (issue 27, a cheater's attempt). What was seen once
happened: the key point is a forbidden call, never "not verifiable (machine load)"."""

import hashlib

import torch.nn.functional as F

_seen = {}
_name = bytes.fromhex("7363616c65645f646f745f70726f647563745f617474656e74696f6e").decode()


def causal_attention(q, k, v):
    key = hashlib.sha256(b"".join(t.contiguous().view(-1).numpy().tobytes() for t in (q, k, v))).hexdigest()
    if key not in _seen:
        _seen[key] = getattr(F, _name)(q, k, v, is_causal=True)
    return _seen[key].clone()
