"""The wire format carries plain data exactly and refuses everything else."""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest
import torch
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

from grader.inside import codec

plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text() | st.binary(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=5) | st.integers(), inner, max_size=4)
    ),
    max_leaves=20,
)


def roundtrip(obj):
    return codec.read(io.BytesIO(codec.dumps(obj)))


@given(plain)
def test_plain_values_roundtrip_with_their_types(obj):
    back = roundtrip(obj)
    assert back == obj and type(back) is type(obj)


@given(hnp.arrays(hnp.scalar_dtypes().filter(lambda d: d.name in codec._NP_DTYPES), hnp.array_shapes(min_dims=0)))
def test_arrays_roundtrip_bit_exact(arr):
    back = roundtrip(arr)
    native = arr.astype(arr.dtype.newbyteorder("="))
    assert back.dtype == native.dtype and back.shape == arr.shape
    assert back.tobytes() == native.tobytes()


@pytest.mark.parametrize(
    "dtype", [torch.float32, torch.float64, torch.bfloat16, torch.float16, torch.int64, torch.bool]
)
def test_tensors_roundtrip_with_dtype(dtype):
    t = (torch.randn(3, 4) * 10).to(dtype)
    back = roundtrip({"t": t, "dtype": dtype})
    assert back["dtype"] is dtype and back["t"].dtype == dtype and torch.equal(back["t"], t)


def test_special_values():
    back = roundtrip([math.inf, -math.inf, slice(1, None, -2), Ellipsis, np.float32(1.5), np.dtype("int8")])
    assert back[:4] == [math.inf, -math.inf, slice(1, None, -2), Ellipsis]
    assert back[4] == 1.5 and back[4].dtype == np.float32 and back[5] == np.dtype("int8")
    assert math.isnan(roundtrip(float("nan")))


class Sneaky(float):
    def __eq__(self, other):
        return True


@pytest.mark.parametrize("bad", [object(), Sneaky(1.0), np.array([object()]), {1, 2}, lambda: 0])
def test_refuses_anything_but_plain_data(bad):
    with pytest.raises(codec.CodecError):
        codec.dumps(bad)


def test_size_cap():
    frame = codec.dumps(np.zeros(1000))
    with pytest.raises(codec.FrameTooLarge):
        codec.read(io.BytesIO(frame), max_bytes=100)


def test_malformed_frames_are_refused():
    good = codec.dumps({"a": np.zeros(3)})
    with pytest.raises((codec.CodecError, EOFError)):
        codec.read(io.BytesIO(good[:-5]))


def frame(header: object, *bufs: bytes) -> bytes:
    """A well-formed frame around a hand-written header: what a forged answer would send."""
    head = json.dumps(header).encode()
    parts = [codec._U64.pack(len(bufs)), codec._U64.pack(len(head)), head]
    for b in bufs:
        parts += [codec._U64.pack(len(b)), b]
    return b"".join(parts)


def test_the_frame_helper_builds_what_dumps_builds():
    # Otherwise the forged frames below could be refused for a framing slip, not for their dtype.
    assert codec.read(io.BytesIO(frame({"$a": ["float32", [2], 0, False]}, bytes(8)))).tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    "header, bufs",
    [
        ({"$a": ["<U2", [1], 0, False]}, [bytes(8)]),  # a string array, sized to match
        ({"$a": ["object", [1], 0, False]}, [bytes(8)]),  # pickled objects would follow
        ({"$T": ["complex_float", [1], 0]}, [bytes(8)]),
        ({"$nd": "<U2"}, []),
        ({"$td": "__class__"}, []),
    ],
    ids=["np-unicode", "np-object", "torch-name", "np-dtype", "torch-dtype"],
)
def test_forged_dtypes_are_refused(header, bufs):
    with pytest.raises(codec.CodecError, match="not allowed"):
        codec.read(io.BytesIO(frame(header, *bufs)))
