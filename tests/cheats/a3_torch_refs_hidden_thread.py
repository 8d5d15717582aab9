"""A3: torch._refs by a computed import and a char-code name, called in a thread."""
import importlib, threading
_R = importlib.import_module("torch." + "_refs")
_N = "".join(map(chr, [95, 98, 114, 111, 97, 100, 99, 97, 115, 116, 95, 115, 104, 97, 112, 101, 115]))
def broadcast_shape(a, b):
    out = {}
    def run():
        try:
            out["v"] = tuple(int(d) for d in getattr(_R, _N)(tuple(a), tuple(b)))
        except RuntimeError as e:
            out["e"] = e
    t = threading.Thread(target=run); t.start(); t.join()
    if "e" in out:
        raise ValueError(str(out["e"]))
    return out["v"]
