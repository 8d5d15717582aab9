"""Red team: A2 (no torch, no numpy) with torch imported by a computed name and meta tensors built in a thread."""
import importlib, threading
_t = importlib.import_module("to" + "rch")
def _in_thread(fn):
    out = {}
    def run():
        try: out["v"] = fn()
        except BaseException as e: out["e"] = e
    th = threading.Thread(target=run); th.start(); th.join()
    if "e" in out: raise out["e"]
    return out["v"]
def nbytes(shape, dtype):
    return int(_in_thread(lambda: getattr(_t, "empty")(tuple(shape), dtype=getattr(_t, dtype), device="meta").nbytes))
def index_shape(shape, index):
    return tuple(int(d) for d in _in_thread(lambda: getattr(_t, "empty")(tuple(shape), device="meta")[tuple(index)].shape))
