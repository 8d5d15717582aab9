"""A2 — nbytes and the shape after indexing. Ground truth: a real tensor on the meta device
(shape and dtype, no memory) built here: ``torch.empty(shape, dtype=..., device="meta")``, its
``.nbytes`` and ``[index].shape``. The course's (16, 512, 1024) bf16 example is a second check.
"""

import torch
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, as_shape, expect_equal, fail
from grader.checks.truth import meta_tensors
from grader.i18n import _

COURSE_SHAPE = (16, 512, 1024)  # x = torch.zeros(16, 512, 1024, dtype=torch.bfloat16)
ALL = slice(None)


def _show(index) -> str:
    """x[...] as Python source: (slice(None), -1) -> 'x[:, -1]'."""

    def one(item):
        if item is Ellipsis:
            return "..."
        if isinstance(item, slice):
            text = ":".join("" if v is None else str(v) for v in (item.start, item.stop))
            return text + (f":{item.step}" if item.step is not None else "")
        return str(item)

    return f"x[{', '.join(one(i) for i in index)}]" if index else "x[()]"


def _check_nbytes(learner, shape, dtype, hint=""):
    want = meta_tensors.nbytes(shape, dtype)
    got = as_int(learner.nbytes(shape, dtype), f"nbytes({shape}, {dtype!r})")
    if got != want:
        numel = want // torch.empty((), dtype=getattr(torch, dtype)).element_size()
        per = _("; that is {value:g} bytes per element", value=got / numel) if numel else ""
        fail(
            f"nbytes({shape}, {dtype!r})",
            want,
            f"{got}{per}",
            hint
            or _(
                "bytes = number of elements x bytes per element ({dtype}: {element_size})",
                dtype=dtype,
                element_size=torch.empty((), dtype=getattr(torch, dtype)).element_size(),
            ),
        )


def _check_index(learner, shape, index, hint=""):
    want = meta_tensors.index_shape(shape, index)
    what = f"index_shape({shape}, {index!r}), i.e. {_show(index)}"
    got = as_shape(learner.index_shape(shape, index), what)
    expect_equal(got, want, _("shape of {_show} for x of shape {shape}", _show=_show(index), shape=shape), hint=hint)


@settings(max_examples=15)
@given(strategies.nbytes_shapes)
def test_nbytes_matches_meta_tensor(learner, shape):
    for dtype in strategies.DTYPE_NAMES:  # every dtype on every drawn shape
        _check_nbytes(learner, shape, dtype)


@given(strategies.nbytes_shapes, st.sampled_from(["bfloat16", "float16"]))
def test_half_precision_nbytes(learner, shape, dtype):
    hint = _("bfloat16 and float16 are 2 bytes per element: (16, 512, 1024) bf16 is 16 MiB")
    _check_nbytes(learner, COURSE_SHAPE, "bfloat16", hint)  # the course's example: 16 MiB
    _check_nbytes(learner, shape, dtype, hint)


@given(hnp.array_shapes(min_dims=1, max_dims=5, min_side=1, max_side=9), st.data())
def test_integer_index_shape(learner, shape, data):
    hint = _(
        "an integer index removes its dimension, and only that one (':' keeps "
        "its dimension): x[:, -1] of (16, 512, 1024) is (16, 1024)"
    )
    _check_index(learner, COURSE_SHAPE, (ALL, -1), hint)  # the course's example
    i = data.draw(st.integers(0, len(shape) - 1), label="dimension")
    j = data.draw(st.integers(-shape[i], shape[i] - 1), label="integer index")
    _check_index(learner, shape, (ALL,) * i + (j,), hint)


@given(hnp.array_shapes(min_dims=1, max_dims=5, min_side=1, max_side=9), st.data())
def test_slice_shape(learner, shape, data):
    _check_index(
        learner,
        COURSE_SHAPE,
        (ALL, slice(-1, None)),
        _("a slice keeps its dimension, even of length 1: x[:, -1:] of (16, 512, 1024) is (16, 1, 1024)"),
    )
    i = data.draw(st.integers(0, len(shape) - 1), label="dimension")
    s = data.draw(strategies.single_element_slices(shape[i]) | strategies.slices(shape[i]), label="slice")
    index = (ALL,) * i + (s,)
    want = meta_tensors.index_shape(shape, index)
    got = as_shape(learner.index_shape(shape, index), f"index_shape({shape}, {index!r})")
    if got != want:
        if len(got) == len(want) - 1:
            hint = _("a slice never removes its dimension, even when it selects one element or none")
        else:
            hint = _(
                "a slice's length is len(range(*s.indices(n))): mind the step and clamping; here {want}", want=want[i]
            )
        fail(_("shape of {_show} for x of shape {shape}", _show=_show(index), shape=shape), want, got, hint)


@given(
    hnp.array_shapes(min_dims=0, max_dims=5, min_side=0, max_side=8).flatmap(
        lambda shape: st.tuples(st.just(shape), strategies.index_expressions(shape))
    )
)
def test_full_index_expressions(learner, case):
    hint = _(
        "ints drop a dim, slices keep it (length len(range(*s.indices(n)))), "
        "None inserts a 1, ... stands for the dims the other items don't address"
    )
    # Fixed cases first, whatever the draw: ... spanning two dims, a step, None, a negative int,
    # bounds past either end (clamped), a one-element slice, ... beside None (None addresses no dim).
    for fixed_shape, fixed_index in [
        ((2, 3, 4, 5), (Ellipsis, 0)),
        ((8, 3), (slice(None, None, 3), None, -1)),
        ((4, 6, 5), (slice(-10, None), slice(2, 100), slice(-1, None))),
        ((2, 3, 5), (None, Ellipsis, None)),
    ]:
        _check_index(learner, fixed_shape, fixed_index, hint)
    shape, index = case
    _check_index(learner, shape, index, hint)


# ------------------------------------------------------------------ mistakes named by what the answer does
import math  # noqa: E402

from grader.checks.support.mistakes import close, gives, mistake  # noqa: E402

_NB = ("nbytes_matches_meta_tensor", "half_precision_nbytes")


def _bytes_as(per_element):
    """The predicate "nbytes gave numel x per_element(dtype, element size)", where that is wrong."""

    def holds(got, shape, dtype):
        size = torch.empty((), dtype=getattr(torch, dtype)).element_size()
        bad = per_element(dtype, size)
        return bad is not None and bad != size and math.prod(shape) > 0 and got == math.prod(shape) * bad

    return holds


mistake(
    *_NB,
    function="nbytes",
    probe=(((3, 5), "bfloat16"), {}),
    zh="把 bfloat16 / float16 算成了 4 字节；它们是 2 字节",
    en="counts bfloat16 / float16 as 4 bytes; they are 2 bytes per element",
)(_bytes_as(lambda dt, size: 4 if dt in ("bfloat16", "float16") else None))
mistake(
    *_NB,
    function="nbytes",
    probe=(((4, 6), "bool"), {}),
    zh="把 bool 算成了 1 bit；PyTorch 的 bool 每个元素占 1 字节",
    en="counts a bool as 1 bit; a torch bool takes 1 byte per element",
)(_bytes_as(lambda dt, size: 1 / 8 if dt == "bool" else None))
mistake(
    *_NB,
    function="nbytes",
    probe=(((3, 5), "complex64"), {}),
    zh="复数只算了一部分（实部或虚部）；complex64 是两个 float32，8 字节",
    en="counts one part of a complex number; complex64 is two float32s, 8 bytes",
)(_bytes_as(lambda dt, size: size / 2 if dt.startswith("complex") else None))
mistake(
    *_NB,
    function="nbytes",
    probe=(((3, 5), "float32"), {}),
    zh="算的是 bit 数，不是字节数",
    en="counts bits, not bytes",
)(_bytes_as(lambda dt, size: size * 8))
mistake(
    *_NB,
    function="nbytes",
    probe=(((3, 5), "float32"), {}),
    zh="算的是元素个数，没有乘每个元素的字节数",
    en="counts elements, without the bytes per element",
)(_bytes_as(lambda dt, size: 1))


def _items(index):
    return index if isinstance(index, tuple) else (index,)


def _shape_or_raised(shape, index):
    from grader.checks.support.mistakes import Raised

    try:
        return meta_tensors.index_shape(shape, index)
    except (IndexError, TypeError, ValueError) as exc:
        return Raised(type(exc).__name__)


def _int_kept(shape, index):
    return _shape_or_raised(
        shape, tuple(slice(i, i + 1 if i != -1 else None) if type(i) is int else i for i in _items(index))
    )


def _one_element_slice_dropped(shape, index):
    truth = meta_tensors.index_shape(shape, index)
    if not isinstance(index, tuple) or Ellipsis in index or None in index:
        return None  # only plain int/slice indexes: which output dim a slice gives is then plain
    out, dim = [], 0
    for item in index:
        if isinstance(item, slice):
            n = len(range(*item.indices(shape[dim])))
            if n != 1:
                out.append(n)
        dim += 1
    return tuple(out) + tuple(shape[dim:]) if tuple(truth) != tuple(out) + tuple(shape[dim:]) else None


_IX = ("integer_index_shape", "slice_shape", "full_index_expressions")
mistake(
    *_IX,
    function="index_shape",
    probe=(((16, 512, 1024), (ALL, -1)), {}),
    zh="整数索引保留了它那一维；整数索引会消掉那一维，x[:, -1] 得 (16, 1024)",
    en="keeps an integer index's dimension; an integer removes it: x[:, -1] of (16, 512, 1024) is (16, 1024)",
)(gives(_int_kept, _shape_or_raised))
mistake(
    *_IX,
    function="index_shape",
    probe=(((16, 512, 1024), (ALL, slice(-1, None))), {}),
    zh="只取一个元素的切片消掉了那一维；切片总保留维度，x[:, -1:] 得 (16, 1, 1024)",
    en="drops the dimension of a one-element slice; a slice keeps it: x[:, -1:] of (16, 512, 1024) is (16, 1, 1024)",
)(lambda got, shape, index: (bad := _one_element_slice_dropped(shape, index)) is not None and close(got, bad))
mistake(
    *_IX,
    function="index_shape",
    probe=(((8, 3), (slice(None, None, 3), ALL)), {}),
    zh="忽略了切片的步长：长度是 len(range(*s.indices(n)))",
    en="ignores the slice's step: its length is len(range(*s.indices(n)))",
)(
    gives(
        lambda shape, index: _shape_or_raised(
            shape, tuple(slice(i.start, i.stop) if isinstance(i, slice) else i for i in _items(index))
        ),
        _shape_or_raised,
    )
)
mistake(
    *_IX,
    function="index_shape",
    probe=(((2, 3, 5), (None, Ellipsis, None)), {}),
    zh="忽略了 None：None 会插入一个长度为 1 的维",
    en="ignores None: None inserts a dimension of length 1",
)(
    gives(
        lambda shape, index: _shape_or_raised(shape, tuple(i for i in _items(index) if i is not None)), _shape_or_raised
    )
)
