"""The wire format between a check and the learner's process: plain data only.

Nothing that crosses can run code when decoded (no pickle): JSON for the structure and raw
bytes for arrays. Supported values: None, bool, int, float (nan/inf too), str, bytes, list,
tuple, dict, slice, Ellipsis, ``numpy.ndarray`` and NumPy scalars of numeric or bool dtype,
``torch.Tensor`` (any dtype NumPy lacks, such as bfloat16, travels as its raw bits),
``torch.dtype`` and ``numpy.dtype``. Anything else raises :class:`CodecError` with its type.

A frame is ``u64 header length | header JSON | (u64 length | bytes)*`` read from a stream.
"""

from __future__ import annotations

import json
import math
import struct
import sys
from typing import Any, BinaryIO

import numpy as np

# "output too large" beyond this. The largest legitimate frame of a whole grade of solutions/
# was 6.7 MB (measured by logging every frame read); 64 MiB leaves a ~10x margin.
MAX_FRAME_BYTES = 64 << 20
_MAX_DEPTH = 64
# What a frame may decode to, whatever its byte size: JSON of ``[[],[],...]`` costs ~100 bytes of
# Python objects per 3 bytes on the wire. Containers are counted before json.loads (brackets in
# the header, an upper bound), every decoded node while decoding.
MAX_HEADER_BYTES = 16 << 20
MAX_CONTAINERS = 1_000_000
MAX_NODES = 4_000_000
_U64 = struct.Struct("<Q")

# numpy dtypes allowed on the wire (no object/void/str dtypes: they can smuggle code or junk)
_NP_DTYPES = {
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
}
# torch dtype name -> (numpy dtype used for the raw bits, whether the bits need a view)
_TORCH_DTYPES = {
    "float32": ("float32", False),
    "float64": ("float64", False),
    "float16": ("float16", False),
    "bfloat16": ("int16", True),
    "int8": ("int8", False),
    "int16": ("int16", False),
    "int32": ("int32", False),
    "int64": ("int64", False),
    "uint8": ("uint8", False),
    "bool": ("bool", False),
    "complex64": ("complex64", False),
    "complex128": ("complex128", False),
}


class CodecError(TypeError):
    """A value that cannot cross between processes, or a malformed frame."""


class FrameTooLarge(CodecError):
    """The frame exceeds the size cap (a result far larger than any check needs)."""


def _torch():
    return sys.modules.get("torch")


def _encode(obj: Any, bufs: list[bytes], depth: int = 0) -> Any:
    if depth > _MAX_DEPTH:
        raise CodecError("value nested too deeply")
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if type(obj) is int:
        return obj
    if type(obj) is float:
        return obj if math.isfinite(obj) else {"$f": repr(obj)}
    if isinstance(obj, (list, tuple)) and type(obj) in (list, tuple):
        items = [_encode(x, bufs, depth + 1) for x in obj]
        return items if type(obj) is list else {"$t": items}
    if type(obj) is dict:
        return {"$d": [[_encode(k, bufs, depth + 1), _encode(v, bufs, depth + 1)] for k, v in obj.items()]}
    if type(obj) is bytes:
        bufs.append(obj)
        return {"$b": len(bufs) - 1}
    if type(obj) is slice:
        return {"$s": [_encode(x, bufs, depth + 1) for x in (obj.start, obj.stop, obj.step)]}
    if obj is Ellipsis:
        return {"$e": 1}
    if isinstance(obj, np.generic) and type(obj).__module__ == "numpy":
        return _encode_array(np.asarray(obj), bufs, scalar=True)
    if type(obj) is np.ndarray:
        return _encode_array(obj, bufs)
    if isinstance(obj, np.dtype) or (isinstance(obj, type) and issubclass(obj, np.generic)):
        return {"$nd": np.dtype(obj).name}
    torch = _torch()
    if torch is not None:
        if type(obj) is torch.dtype:
            return {"$td": str(obj).removeprefix("torch.")}
        if isinstance(obj, torch.Tensor):
            return _encode_tensor(obj, bufs)
    raise CodecError(
        f"cannot send a value of type {type(obj).__module__}.{type(obj).__qualname__}; "
        "return plain data (numbers, strings, lists, dicts, arrays or tensors)"
    )


def _encode_array(a: np.ndarray, bufs: list[bytes], scalar: bool = False) -> dict:
    if a.dtype.name not in _NP_DTYPES:
        raise CodecError(f"arrays of dtype {a.dtype} cannot be sent")
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    bufs.append(np.ascontiguousarray(a).tobytes())
    return {"$a": [a.dtype.name, list(a.shape), len(bufs) - 1, scalar]}


def _encode_tensor(t, bufs: list[bytes]) -> dict:
    torch = _torch()
    name = str(t.dtype).removeprefix("torch.")
    if name not in _TORCH_DTYPES:
        raise CodecError(f"tensors of dtype {t.dtype} cannot be sent")
    if t.device.type == "meta":
        raise CodecError("a meta tensor has no data to send")
    t = torch.Tensor.detach(t).to("cpu").contiguous()
    np_name, view = _TORCH_DTYPES[name]
    if view:
        t = t.view(getattr(torch, np_name))
    bufs.append(t.numpy().tobytes())
    return {"$T": [name, list(t.shape), len(bufs) - 1]}


class _Budget:
    """Nodes and bytes a frame may still decode to (a buffer referenced twice is copied twice)."""

    __slots__ = ("left", "bytes_left")

    def __init__(self, n: int, nbytes: int = 0):
        self.left = n
        self.bytes_left = nbytes or 2 * MAX_FRAME_BYTES

    def buf(self, bufs: list[bytes], i) -> bytes:
        b = bufs[int(i)]
        self.bytes_left -= len(b)
        if self.bytes_left < 0:
            raise FrameTooLarge("result decodes to more bytes than it carries")
        return b


def _decode(node: Any, bufs: list[bytes], depth: int = 0, budget: _Budget | None = None) -> Any:
    if depth > _MAX_DEPTH:
        raise CodecError("frame nested too deeply")
    if budget is None:
        budget = _Budget(MAX_NODES)
    budget.left -= 1
    if budget.left < 0:
        raise FrameTooLarge(f"result has more than {MAX_NODES} elements")
    if node is None or isinstance(node, (bool, int, float, str)):
        return node
    if isinstance(node, list):
        return [_decode(x, bufs, depth + 1, budget) for x in node]
    if not isinstance(node, dict) or len(node) != 1:
        raise CodecError("malformed frame")
    ((tag, val),) = node.items()
    if tag == "$f":
        if val not in ("nan", "inf", "-inf"):
            raise CodecError("malformed float")
        return float(val)
    if tag == "$t":
        return tuple(_decode(x, bufs, depth + 1, budget) for x in val)
    if tag == "$d":
        out = {}
        for k, v in val:
            k = _decode(k, bufs, depth + 1, budget)
            try:
                hash(k)
            except TypeError:
                raise CodecError("unhashable dict key") from None
            out[k] = _decode(v, bufs, depth + 1, budget)
        return out
    if tag == "$b":
        return bytes(budget.buf(bufs, val))
    if tag == "$s":
        return slice(*(_decode(x, bufs, depth + 1, budget) for x in val))
    if tag == "$e":
        return Ellipsis
    if tag == "$nd":
        if val not in _NP_DTYPES:
            raise CodecError(f"dtype {val!r} not allowed")
        return np.dtype(val)
    if tag == "$td":
        torch = _import_torch()
        if val not in _TORCH_DTYPES:
            raise CodecError(f"dtype {val!r} not allowed")
        return getattr(torch, val)
    if tag == "$a":
        dtype, shape, i, scalar = val
        if dtype not in _NP_DTYPES:
            raise CodecError(f"dtype {dtype!r} not allowed")
        arr = _array(budget.buf(bufs, i), dtype, shape)
        return arr[()] if scalar else arr
    if tag == "$T":
        name, shape, i = val
        if name not in _TORCH_DTYPES:
            raise CodecError(f"dtype {name!r} not allowed")
        torch = _import_torch()
        np_name, view = _TORCH_DTYPES[name]
        t = torch.from_numpy(_array(budget.buf(bufs, i), np_name, shape))
        return t.view(getattr(torch, name)) if view else t
    raise CodecError(f"unknown tag {tag!r}")


def _array(buf: bytes, dtype: str, shape: list) -> np.ndarray:
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise CodecError("negative dimension")
    dt = np.dtype(dtype)
    if math.prod(shape) * dt.itemsize != len(buf):
        raise CodecError("array bytes do not match its shape")
    return np.frombuffer(buf, dtype=dt).reshape(shape).copy()


def _import_torch():
    import torch  # only when a tensor actually arrives

    return torch


def dumps(obj: Any) -> bytes:
    """Encode ``obj`` to one frame (bytes). Raises CodecError for unsupported values."""
    bufs: list[bytes] = []
    header = json.dumps(_encode(obj, bufs), allow_nan=False).encode()
    parts = [_U64.pack(len(header)), header]
    for b in bufs:
        parts += [_U64.pack(len(b)), b]
    parts.insert(0, _U64.pack(len(bufs)))
    return b"".join(parts)


def write(stream: BinaryIO, obj: Any) -> None:
    stream.write(dumps(obj))
    stream.flush()


def _read_exact(stream: BinaryIO, n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError("stream closed mid-frame")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read(stream: BinaryIO, max_bytes: int = MAX_FRAME_BYTES) -> Any:
    """Read and decode one frame. EOFError at end of stream; FrameTooLarge past ``max_bytes``."""
    head = stream.read(_U64.size)
    if not head:
        raise EOFError("stream closed")
    if len(head) < _U64.size:
        head += _read_exact(stream, _U64.size - len(head))
    (nbufs,) = _U64.unpack(head)
    total = 0

    def sized() -> bytes:
        nonlocal total
        (n,) = _U64.unpack(_read_exact(stream, _U64.size))
        total += n
        if total > max_bytes:
            raise FrameTooLarge(f"result larger than {max_bytes / 2**20:.0f} MiB")
        return _read_exact(stream, n)

    if nbufs > 1_000_000:
        raise CodecError("malformed frame")
    header = sized()
    if len(header) > MAX_HEADER_BYTES:
        raise FrameTooLarge(f"result structure larger than {MAX_HEADER_BYTES / 2**20:.0f} MiB")
    bufs = [sized() for _ in range(nbufs)]
    if header.count(b"[") + header.count(b"{") > MAX_CONTAINERS:  # before json.loads builds them
        raise FrameTooLarge(f"result has more than {MAX_CONTAINERS} lists and dicts")
    try:
        tree = json.loads(header)
        return _decode(tree, bufs)
    except (ValueError, RecursionError, TypeError, KeyError, IndexError) as e:
        if isinstance(e, CodecError):
            raise
        raise CodecError(f"malformed frame: {type(e).__name__}") from None
