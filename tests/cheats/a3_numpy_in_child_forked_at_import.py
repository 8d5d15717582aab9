"""A3: a helper process forked at import (when importing numpy is allowed) answers every call with
numpy.broadcast (named by char codes): the fork is refused, whenever it is tried."""
import os
import numpy as _np

_B = "".join(map(chr, [98, 114, 111, 97, 100, 99, 97, 115, 116]))
_req_r, _req_w = os.pipe()
_ans_r, _ans_w = os.pipe()
if os.fork() == 0:
    while True:
        line = os.read(_req_r, 4096).decode()
        if not line:
            os._exit(0)
        a, b = eval(line)
        try:
            out = repr(tuple(getattr(_np, _B)(_np.empty(a), _np.empty(b)).shape))
        except ValueError:
            out = "None"
        os.write(_ans_w, out.encode())


def broadcast_shape(a, b):
    os.write(_req_w, repr((tuple(a), tuple(b))).encode())
    out = eval(os.read(_ans_r, 4096).decode())
    if out is None:
        raise ValueError("shapes do not broadcast")
    return out
