"""A3: numpy.broadcast named by char codes, numpy imported by a computed name inside a thread."""
import importlib, threading
_B = "".join(map(chr, [98, 114, 111, 97, 100, 99, 97, 115, 116]))
def broadcast_shape(a, b):
    out = {}
    def run():
        np = importlib.import_module("num" + "py")
        try:
            out["v"] = tuple(getattr(np, _B)(np.empty(a), np.empty(b)).shape)
        except ValueError as e:
            out["e"] = e
    t = threading.Thread(target=run); t.start(); t.join()
    if "e" in out:
        raise ValueError(str(out["e"]))
    return out["v"]
