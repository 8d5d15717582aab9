"""The quiz's input validation: what it accepts, what it refuses, which slips it names (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, strategies as st

from grader.quiz import units
from grader.quiz.answers import (
    BroadcastShape,
    Choice,
    Einsum,
    Invalid,
    MultiSelect,
    Number,
    Option,
    Ordering,
    Shape,
    Tolerance,
    YesNo,
)

BYTE_UNITS = {
    "B": 1,
    "KB": 1e3,
    "MB": 1e6,
    "GB": 1e9,
    "TB": 1e12,
    "KiB": 2**10,
    "MiB": 2**20,
    "GiB": 2**30,
    "TiB": 2**40,
    "bytes": 1,
    "字节": 1,
    "Gb": 1e9 / 8,
    "Mbit": 1e6 / 8,
    "bits": 1 / 8,
}
TIME_UNITS = {"s": 1, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9, "毫秒": 1e-3, "秒": 1, "min": 60}
COUNT_SUFFIX = {"": 1, "K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9, "billion": 1e9, "万": 1e4, "亿": 1e8}
numbers = st.floats(1e-3, 1e9, allow_nan=False).map(lambda x: float(f"{x:.6g}"))


def spellings(x: float) -> list[str]:
    out = [f"{x:g}", f"{x:.6e}", repr(x)]
    if x >= 1000 and float(x).is_integer():
        out.append(f"{int(x):,}")
    return out


@given(numbers, st.sampled_from(sorted(BYTE_UNITS)), st.sampled_from(["", " "]))
def test_bytes_accepted(x, unit, space):
    for text in spellings(x):
        q = units.parse(f"{text}{space}{unit}", "bytes", units.unit("GB"))
        assert math.isclose(q.value, x * BYTE_UNITS[unit], rel_tol=1e-9), (text, unit)


@given(numbers, st.sampled_from(sorted(TIME_UNITS)))
def test_times_accepted(x, unit):
    q = units.parse(f"{x:g} {unit}", "time", units.unit("ms"))
    assert math.isclose(q.value, x * TIME_UNITS[unit], rel_tol=1e-9)


@given(numbers, st.sampled_from(sorted(COUNT_SUFFIX)), st.sampled_from(["", " params", " 个"]))
def test_counts_accepted(x, suffix, noun):
    assume(suffix or not noun.strip() or True)
    q = units.parse(f"{x:g}{suffix}{noun}", "count")
    assert math.isclose(q.value, x * COUNT_SUFFIX[suffix], rel_tol=1e-9)


@pytest.mark.parametrize(
    "text,dim,value",
    [
        ("48 GB", "bytes", 48e9),
        ("4.8ms", "time", 4.8e-3),
        ("1.3e9", "count", 1.3e9),
        ("16 MiB", "bytes", 2**24),
        ("1.3×10^9", "count", 1.3e9),
        ("2^30 B", "bytes", 2**30),
        ("131,072 bytes", "bytes", 131072),
        ("８.８０M", "count", 8.8e6),
        ("1760万", "count", 1.76e7),
        ("70%", "fraction", 0.7),
        ("0.7", "fraction", 0.7),
        ("295 FLOP/byte", "flop_per_byte", 295),
        ("26.7K tokens/s", "tokens_per_s", 26700),
        ("1.0x", "speedup", 1),
        ("1×", "speedup", 1),
        ("3 倍", "speedup", 3),
        ("−100", "number", -100),
        ("4.8 毫秒", "time", 4.8e-3),
        ("14 GPUs", "count", 14),
        ("14 张卡", "count", 14),
        ("11.9 nats", "nats", 11.9),
        ("0.3 s", "time", 0.3),
    ],
)
def test_course_spellings(text, dim, value):
    assert math.isclose(units.parse(text, dim, units.PLAIN.get(dim)).value, value, rel_tol=1e-12)


@given(st.text(alphabet="abcdefghij xyz!?", min_size=0, max_size=12))
def test_no_number_is_refused(text):
    with pytest.raises(Invalid):
        units.parse(text, "bytes", units.unit("GB"))


@pytest.mark.parametrize(
    "text,dim",
    [
        ("4.8 ms", "bytes"),
        ("48 GB", "time"),
        ("3 parsecs", "bytes"),
        ("70 % GB", "fraction"),
        ("5 ms", "count"),
        ("12 GB", "speedup"),
    ],
)
def test_wrong_dimension_or_unknown_unit_is_refused(text, dim):
    with pytest.raises(Invalid) as err:
        units.parse(text, dim, units.PLAIN.get(dim))
    assert err.value.en and err.value.zh


@given(st.floats(1.01, 1000).map(lambda x: round(x, 2)))
def test_a_percentage_typed_for_a_fraction_is_named(x):
    with pytest.raises(Invalid) as err:
        Number("fraction", "", Tolerance(abs=0.01)).parse(f"{x:g}")
    assert "%" in err.value.en


# ------------------------------------------------------------------ slips: named before assessment
@given(st.floats(1, 900).map(lambda x: round(x, 2)), st.sampled_from(["MB", "GB", "TB"]))
def test_gb_vs_gib_is_named(x, unit):
    ans = Number("bytes", unit, Tolerance(rel=0.03))
    truth = x * units.unit(unit).factor
    binary = unit[0] + "iB"
    assert ans.assess(ans.parse(f"{x} {unit}"), truth)
    typed = ans.parse(f"{x} {binary}")
    assert not ans.assess(typed, truth)
    slip = ans.slip(typed, truth)
    assert slip is not None and binary in slip.en and "1024" in slip.en and "1024" in slip.zh
    # the right size in the other unit is simply right
    assert ans.assess(ans.parse(f"{truth / units.unit(binary).factor:.6g} {binary}"), truth)


@given(st.floats(1, 900).map(lambda x: round(x, 2)))
def test_bits_for_bytes_is_named(x):
    ans = Number("bytes", "GB", Tolerance(rel=0.03))
    truth = x * 1e9
    slip = ans.slip(ans.parse(f"{x} Gb"), truth)
    assert slip is not None and "bit" in slip.en
    slip = ans.slip(ans.parse(f"{x * 8} GB"), truth)  # counted bits, wrote bytes
    assert slip is not None and "bit" in slip.en


@given(st.floats(0.01, 900).map(lambda x: round(x, 3)))
def test_ms_vs_s_is_named(x):
    ans = Number("time", "ms", Tolerance(rel=0.03))
    truth = x * 1e-3
    assert ans.assess(ans.parse(f"{x}ms"), truth) and ans.assess(ans.parse(f"{x / 1e3!r} s"), truth)
    slip = ans.slip(ans.parse(f"{x} s"), truth)
    assert slip is not None and "ms" in slip.en


@given(st.floats(0.01, 0.99).map(lambda x: round(x, 3)))
def test_percent_vs_fraction_is_named(x):
    ans = Number("fraction", "", Tolerance(abs=0.005))
    assert ans.assess(ans.parse(f"{x}"), x) and ans.assess(ans.parse(f"{x * 100:.4g}%"), x)
    slip = ans.slip(ans.parse(f"{x}%"), x)
    assert slip is not None and "%" in slip.en


@given(st.floats(1, 1e6).map(lambda x: round(x, 1)), st.sampled_from([1e3, 1e6, 1e-3]))
def test_a_factor_of_1000_is_named(x, factor):
    ans = Number("count", "", Tolerance(rel=0.02))
    assert ans.slip(ans.parse(f"{x * factor:.8g}"), x) is not None


@given(st.floats(1, 900).map(lambda x: round(x, 2)), st.floats(1.2, 2.5))
def test_a_wrong_value_is_not_a_slip(x, off):
    ans = Number("bytes", "GB", Tolerance(rel=0.03))
    assert ans.slip(ans.parse(f"{x * off:.4g} GB"), x * 1e9) is None


# ------------------------------------------------------------------ the other answer types
OPTS = [Option(k, k.upper(), k) for k in ("w", "x", "y", "z")]


def test_yes_no():
    yn = YesNo()
    for t in ("y", "Yes", "是", "能", "够", "对"):
        assert yn.parse(t) is True
    for t in ("n", "NO", "否", "不能", "不够", "装不下"):
        assert yn.parse(t) is False
    for t in ("maybe", "", "48 GB"):
        with pytest.raises(Invalid):
            yn.parse(t)


@given(st.permutations(range(4)))
def test_choice_multiselect_ordering(perm):
    letters = "abcd"
    c = Choice(OPTS)
    assert c.parse(letters[perm[0]].upper()) == OPTS[perm[0]].key
    with pytest.raises(Invalid):
        c.parse("a b")
    with pytest.raises(Invalid):
        c.parse("e")
    m = MultiSelect(OPTS)
    assert m.parse(", ".join(letters[i] for i in perm[:2])) == {OPTS[i].key for i in perm[:2]}
    with pytest.raises(Invalid):
        m.parse("a a")
    o = Ordering(OPTS)
    assert o.parse("".join(letters[i] for i in perm)) == tuple(OPTS[i].key for i in perm)
    assert o.assess(o.parse(" ".join(letters[i] for i in perm)), [OPTS[i].key for i in perm])
    with pytest.raises(Invalid):
        o.parse("a b c")


def test_a_word_spelled_with_option_letters_is_the_word():
    """A run of option letters that is a word the question asks for is that word, not the letters:
    "cfg" (a config's name, matched by meaning) among seven items a-g, "cafe", "bad", "deed"; a run
    that is no such word, or only part of one ("ad" in "gradient"), stays letters; an ordering asks
    for letters only."""
    from grader.quiz.bank.r import RECORD_OPTIONS

    items = MultiSelect(RECORD_OPTIONS)
    assert items.parse("cfg") == {"config"} == items.parse("CFG") and Choice(RECORD_OPTIONS).parse("cfg") == "config"
    assert items.parse("c f g") == {"config", "environment", "metrics"} and items.parse("cfg, seed") == {
        "config",
        "seed",
    }
    words = [
        Option("cafe", "cafe", "咖啡馆"),
        Option("bad", "a bad batch", "坏批次"),
        Option("deed", "deed", "契约"),
        Option("grad", "gradient", "梯度"),
        Option("e", "e", "e"),
    ]
    for answer in (MultiSelect(words), Choice(words)):
        for word in ("cafe", "bad", "deed"):
            got = answer.parse(word)
            assert got == ({word} if isinstance(answer, MultiSelect) else word), (word, got)
    assert MultiSelect(words).parse("ad") == {"cafe", "grad"} and MultiSelect(words).parse("abc") == {
        "cafe",
        "bad",
        "deed",
    }
    assert Ordering(words).parse("bacde") == ("bad", "cafe", "deed", "grad", "e")


@given(st.lists(st.integers(0, 5000), min_size=0, max_size=5))
def test_shapes(shape):
    s = Shape()
    texts = [str(tuple(shape)), str(list(shape)), f"torch.Size({list(shape)})"]
    if shape:  # a bare list of numbers; an empty line is no answer (a scalar's shape is typed ())
        texts += [", ".join(map(str, shape)), " x ".join(map(str, shape))]
    for text in texts:
        assert s.parse(text) == tuple(shape), text
    for bad in ("(2.5, 3)", "", "   "):
        with pytest.raises(Invalid):
            s.parse(bad)
    assert BroadcastShape().parse("error") is None


def test_einsum_is_assessed_by_what_it_computes():
    e = Einsum("qk", with_heads=False)
    assert e.assess(e.parse("btd,bsd->bts"), None) and e.assess(e.parse("'xyz,xwz->xyw'"), None)
    assert not e.assess(e.parse("btd,bsd->bst"), None)  # transposed scores
    with pytest.raises(Invalid):
        e.parse("Q @ K.T")


# ------------------------------------------------------------------ every answer form the course uses (issue 26)
@pytest.mark.parametrize(
    "text,dim,value",
    [
        ("1/8", "fraction", 0.125),
        ("1/2", "fraction", 0.5),
        ("3/4", "fraction", 0.75),
        ("1 / 4", "fraction", 0.25),
        ("1/8", "speedup", 0.125),
        ("3/2 GB", "bytes", 1.5e9),
    ],
)
def test_fractions_as_the_course_writes_them(text, dim, value):
    assert math.isclose(units.parse(text, dim, units.PLAIN.get(dim)).value, value, rel_tol=1e-12)


@pytest.mark.parametrize(
    "text,dim",
    [
        ("1/0", "fraction"),
        ("1e300 GB", "bytes"),
        ("1e300 TB", "bytes"),
        ("1e308 亿", "count"),
        ("inf", "number"),
        ("nan GB", "bytes"),
    ],
)
def test_non_finite_values_are_refused(text, dim):
    with pytest.raises(Invalid):
        units.parse(text, dim, units.PLAIN.get(dim))


@pytest.mark.parametrize(
    "answer,text",
    [
        (Number("bytes", "GB"), "-3 GB"),
        (Number("time", "ms"), "-2 ms"),
        (Number("count"), "-14"),
        (Number("fraction", "%"), "-5%"),
        (Number("nats"), "-1.2"),
        (Number("speedup"), "-2x"),
        (Number("bytes", "GB"), ""),
        (Shape(), ""),
        (YesNo(), ""),
        (Choice([Option("a", "A", "甲"), Option("b", "B", "乙")]), ""),
    ],
)
def test_impossible_and_empty_answers_are_refused(answer, text):
    with pytest.raises(Invalid):
        answer.parse(text)


def test_a_signed_number_may_be_negative():
    assert Number("number").parse("-60").value == -60 and Number("count", signed=True).parse("-3").value == -3


@pytest.mark.parametrize(
    "text,value",
    [
        ("是", True),
        ("否", False),
        ("对", True),
        ("错", False),
        ("能", True),
        ("不能", False),
        ("不对", False),
        ("y", True),
        ("N", False),
    ],
)
def test_chinese_yes_no(text, value):
    assert YesNo().parse(text) is value


@pytest.mark.parametrize(
    "question,text,value",
    [
        ("追问：这条 grad_norm 曲线平稳", None, None),
        ("追问：这条 grad_norm 曲线健康吗？", "不健康", False),
        ("追问：这条 grad_norm 曲线健康吗？", "健康", True),
        ("两条 mean ± std 带重叠吗？", "不重叠", False),
        ("两条 mean ± std 带重叠吗？", "重叠", True),
        ("两条 mean ± std 带重叠吗？", "没重叠", False),
        ("它分辨得出 5 个点的差吗？", "健康", None),
    ],
)
def test_chinese_echo_answers(question, text, value):
    y = YesNo().echoing(question)
    if text is None:
        assert y.echo == ""  # no 吗 question: no echo form
        return
    if value is None:
        with pytest.raises(Invalid):
            y.parse(text)
    else:
        assert y.parse(text) is value


def test_an_option_typed_by_its_name():
    c = Choice([Option("DDP", "DDP", "DDP"), Option("FSDP", "FSDP", "FSDP")])
    assert c.parse("FSDP") == "FSDP" and c.parse("fsdp") == "FSDP" and c.parse("ddp") == "DDP"
    assert c.parse("b") == "FSDP"  # a letter still works
    bound = Choice(
        [
            Option("memory", "memory bandwidth (memory-bound)", "带宽（memory-bound）"),
            Option("compute", "compute (compute-bound)", "算力（compute-bound）"),
        ]
    )
    assert bound.parse("带宽") == "memory" and bound.parse("compute") == "compute"
    assert bound.parse("Memory bandwidth (memory-bound)") == "memory"
    with pytest.raises(Invalid):
        bound.parse("bandwidth-ish")


def test_stated_tolerance_names_both_bounds():
    t = Tolerance(rel=1e-4, abs=1e-6)
    text = t.describe("en", units.PLAIN["number"])
    assert "0.01%" in text and "1e-06" in text and "larger" in text
    assert t.ok(616.05, 616.0) and not t.ok(616.1, 616.0)


def test_the_right_value_is_shown_at_the_precision_that_decides():
    n = Number("nats", tol=Tolerance(abs=0.01))
    shown = n.show(11.855, "en")
    assert shown.startswith("11.86") or shown.startswith("11.85"), shown  # not "11.9": 11.87 would look right
    assert n.assess(n.parse(shown.split(" (")[0]), 11.855)


def test_a_spread_of_a_percentage_is_read_as_the_course_writes_it():
    """The course writes a ci95 half-width in points ("±5.8", "±10.9"): where the question states its
    accuracy in %, ±2.7 and 2.7 are 2.7 points; where it states it as a fraction (0.63), 0.027 is
    the fraction, as it was."""
    from grader.quiz import bank

    seen = set()
    for q in bank.questions():
        v = q.variant(3)
        for part in v.parts():
            answer, zh = v.answer(part), v.prompt(part, "zh")
            if not (isinstance(answer, Number) and answer.dim == "fraction" and "半宽" in zh):
                continue
            t = float(v.truth(part))
            stated_in_percent = "%" in (v.text("zh") + zh).split("半宽")[0].replace("95%", "")
            seen.add(stated_in_percent)
            typed = [f"±{t * 100:.2f}", f"{t * 100:.2f}"] if stated_in_percent else [f"{t:.4f}"]
            for text in typed + [f"{t * 100:.2f}%"]:
                assert answer.assess(answer.parse(text), t), (q.id, part.id, text)
    assert seen == {True, False}
