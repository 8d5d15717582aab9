"""What a learner types for a number: a value, an optional multiplier, an optional unit.

``parse("48 GB", "bytes")`` -> ``Quantity(value=48e9, unit=GB)``: the value in the dimension's base
unit (bytes, seconds, 1). Accepted: ``48 GB``, ``4.8ms``, ``1.3e9``, ``1.3×10^9``, ``2^30 B``,
``16 MiB``, ``131,072 bytes``, ``8.80M``, ``17.6M params``, ``1760万``, ``70%``, ``0.7``,
``295 FLOP/byte``, ``209 tokens/s``, ``1.0x``, ``4.8 毫秒``, full-width digits and signs.

Bytes: ``KB``/``MB``/``GB``/``TB`` are powers of 1000 (as the course writes them: 131 KB = 131,072 B),
``KiB``/``MiB``/``GiB``/``TiB`` powers of 1024; a lone ``K``/``M``/``G``/``T`` and all-lower-case
``kb``/``mb``/``gb`` are read as bytes too. Bits only when written so: ``bit(s)``, ``Gbit``, or an
upper-case prefix with a lower-case ``b`` (``Gb``, ``Mb``, ``Kb``, ``Tb``).

A bare number takes the question's unit (stated in the question). Nothing here knows the right
answer: :func:`alternatives` lists what the same keystrokes would mean under a slip (GB vs GiB, ms vs
s, bits vs bytes, a percentage for a fraction, a factor of 1000), and the answer types
(``grader.quiz.answers``) name the slip only if one of those readings is right.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from grader.i18n import N_
from grader.quiz.words import Msg


class Invalid(ValueError):
    """The input is not an answer of this kind; nothing is assessed, the learner types again. The
    message is an English id (marked with ``N_``) said in the sitting's language by :meth:`text`."""

    def __init__(self, msgid: str, **fields: object):
        self.msg = Msg(msgid, fields)
        super().__init__(self.msg.en)

    def text(self, lang: str) -> str:
        return self.msg.text(lang)

    @property
    def en(self) -> str:
        return self.msg.en

    @property
    def zh(self) -> str:
        return self.msg.zh


@dataclass(frozen=True)
class Unit:
    symbol: str  # how it is shown
    dim: str
    factor: float  # base units in one of this unit
    family: str = ""  # bytes: "si" / "iec" / "bit" / "ibit"; time: "time"
    power: int = 0  # bytes: the prefix's power (K 1, M 2, G 3, ...)


# ------------------------------------------------------------------ unit tables
DIM_NAMES = {  # what a dimension's answer is, as a refusal names it
    "bytes": Msg(N_("a size in bytes")),
    "time": Msg(N_("a time")),
    "count": Msg(N_("a count")),
    "fraction": Msg(N_("a fraction (0-1) or a percentage")),
    "speedup": Msg(N_("a factor (x)")),
    "flop_per_byte": Msg(N_("an intensity in FLOP/byte")),
    "tokens_per_s": Msg(N_("a throughput in tokens/s")),
    "nats": Msg(N_("a loss in nats")),
    "number": Msg(N_("a plain number")),
}

_BYTES: dict[str, Unit] = {}
for alias in ("B", "byte", "bytes", "Byte", "Bytes", "字节", "个字节"):
    _BYTES[alias] = Unit("B", "bytes", 1.0, "si")
for alias in ("bit", "bits", "比特"):
    _BYTES[alias] = Unit("bit", "bytes", 1 / 8, "bit")
for _p, (_si, _iec) in enumerate([("K", "Ki"), ("M", "Mi"), ("G", "Gi"), ("T", "Ti"), ("P", "Pi")], start=1):
    _s, _i = Unit(f"{_si}B", "bytes", 1000.0**_p, "si", _p), Unit(f"{_iec}B", "bytes", 1024.0**_p, "iec", _p)
    for alias in (f"{_si}B", f"{_si.lower()}B", f"{_si.lower()}b", _si, f"{_si}Byte", f"{_si}Bytes", f"{_si}字节"):
        _BYTES[alias] = _s
    for alias in (f"{_iec}B", f"{_iec.lower()}B", _iec, f"{_iec}字节"):
        _BYTES[alias] = _i
    for alias in (f"{_si}b", f"{_si}bit", f"{_si}bits", f"{_si.lower()}bit", f"{_si.lower()}bits"):
        _BYTES[alias] = Unit(f"{_si}bit", "bytes", 1000.0**_p / 8, "bit", _p)
    for alias in (f"{_iec}b", f"{_iec}bit", f"{_iec}bits"):
        _BYTES[alias] = Unit(f"{_iec}bit", "bytes", 1024.0**_p / 8, "ibit", _p)
_BYTES["KB"] = _BYTES["K"] = _BYTES["k"] = _BYTES["kb"] = _BYTES["kB"]  # 131 KB = 131,072 B, as the course
# The Chinese names: 千/兆/吉/太字节 for K/M/G/T (SI, as the course's GB), 万/亿 counted before 字节
for _zh, _si in (("千", "KB"), ("兆", "MB"), ("吉", "GB"), ("太", "TB")):
    _BYTES[f"{_zh}字节"] = _BYTES[_si]
for _zh, _f in (("万", 1e4), ("亿", 1e8)):
    _BYTES[f"{_zh}字节"] = _BYTES[f"{_zh}个字节"] = Unit(f"{_zh}字节", "bytes", _f, "si")

_TIME: dict[str, Unit] = {}
for _syms, _sym, _f in [
    (("s", "sec", "secs", "second", "seconds", "秒", "秒钟"), "s", 1.0),
    (("ms", "msec", "msecs", "millisecond", "milliseconds", "毫秒"), "ms", 1e-3),
    (("us", "µs", "μs", "usec", "microsecond", "microseconds", "微秒"), "µs", 1e-6),
    (("ns", "nanosecond", "nanoseconds", "纳秒"), "ns", 1e-9),
    (("min", "mins", "minute", "minutes", "分钟", "分"), "min", 60.0),
    (("h", "hr", "hrs", "hour", "hours", "小时"), "h", 3600.0),
]:
    for alias in _syms:
        _TIME[alias] = Unit(_sym, "time", _f, "time")

_FRACTION = {
    "%": Unit("%", "fraction", 0.01),
    "percent": Unit("%", "fraction", 0.01),
    "pct": Unit("%", "fraction", 0.01),
    "个百分点": Unit("%", "fraction", 0.01),
}
_SPEEDUP = {a: Unit("x", "speedup", 1.0) for a in ("x", "X", "×", "times", "倍", "fold")}
_FLOP_PER_BYTE = {
    a: Unit("FLOP/byte", "flop_per_byte", 1.0)
    for a in (
        "FLOP/byte",
        "FLOP/B",
        "FLOPs/byte",
        "FLOPs/B",
        "FLOPS/byte",
        "flop/byte",
        "flops/byte",
        "FLOP/字节",
        "FLOPs/字节",
        "flop/字节",
        "FLOP per byte",
        "FLOPs per byte",
        "flop/b",
    )
}
_TOKENS_PER_S = {
    a: Unit("tokens/s", "tokens_per_s", 1.0)
    for a in (
        "token/s",
        "tokens/s",
        "tok/s",
        "t/s",
        "tokens/sec",
        "token/sec",
        "tokens per second",
        "token per second",
        "token/秒",
        "tokens/秒",
        "个token/s",
        "tps",
    )
}
_NATS = {a: Unit("nats", "nats", 1.0) for a in ("nat", "nats", "奈特")}
_COUNT_WORDS = (
    "params",
    "param",
    "parameters",
    "parameter",
    "参数",
    "个参数",
    "个",
    "张",
    "张卡",
    "卡",
    "块",
    "gpu",
    "gpus",
    "GPU",
    "GPUs",
    "card",
    "cards",
    "tokens",
    "token",
    "elements",
    "元素",
    "步",
    "steps",
    "questions",
    "题",
    "道题",
    "道",
    "requests",
    "个请求",
    "次",
    "台",
    "条",
    "样本",
    "个样本",
)
_AT_LEAST = re.compile(r"\s*(?:及以上|或以上|以上|起|\+)$")  # 16 卡以上, 两张卡起: "at least", read as the number
_MULTIPLIERS = {
    "": 1.0,
    "K": 1e3,
    "k": 1e3,
    "thousand": 1e3,
    "千": 1e3,
    "M": 1e6,
    "m": 1e6,
    "million": 1e6,
    "mn": 1e6,
    "百万": 1e6,
    "B": 1e9,
    "b": 1e9,
    "G": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "T": 1e12,
    "trillion": 1e12,
    "万": 1e4,
    "亿": 1e8,
}

TABLES = {
    "bytes": _BYTES,
    "time": _TIME,
    "fraction": _FRACTION,
    "speedup": _SPEEDUP,
    "flop_per_byte": _FLOP_PER_BYTE,
    "tokens_per_s": _TOKENS_PER_S,
    "nats": _NATS,
}
MULTIPLIED = {"count", "tokens_per_s", "flop_per_byte"}  # a K/M/B multiplier may come before the unit


def unit(symbol: str) -> Unit:
    """The display unit of a question, by symbol: ``unit("GB")``, ``unit("ms")``, ``unit("M")``."""
    for table in TABLES.values():
        if symbol in table:
            return table[symbol]
    if symbol in _MULTIPLIERS:
        return Unit(symbol, "count", _MULTIPLIERS[symbol])
    raise KeyError(symbol)


COUNT = Unit("", "count", 1.0)
PLAIN = {
    "count": COUNT,
    "number": Unit("", "number", 1.0),
    "fraction": Unit("", "fraction", 1.0),
    "speedup": Unit("x", "speedup", 1.0),
    "flop_per_byte": Unit("FLOP/byte", "flop_per_byte", 1.0),
    "tokens_per_s": Unit("tokens/s", "tokens_per_s", 1.0),
    "nats": Unit("nats", "nats", 1.0),
}


@dataclass(frozen=True)
class Quantity:
    value: float  # in the dimension's base unit (bytes, s, 1)
    number: float  # the number as typed (after ×10^k)
    unit: Unit  # the unit as typed, or the question's unit for a bare number
    bare: bool  # no unit was typed
    multiplier: float = 1.0  # K/M/B/万 typed before a count's unit
    text: str = ""


_NUM = r"(?:\d{1,3}(?:[,_ ]\d{3})+(?![\d])|\d+)(?:\.\d*)?|\.\d+"
_NUMBER_RE = re.compile(
    r"^(?P<sign>[-+\u2212]?)\s*(?P<num>" + _NUM + r")(?P<exp>[eE][+-]?\d+)?"
    r"(?:\s*/\s*(?P<den>" + _NUM + r"))?"  # a fraction as the course writes it: 1/8
    r"(?:\s*(?:\^|\*\*)\s*(?P<pow>[+-]?\d+))?"
    r"(?:\s*[x×*·]\s*10\s*(?:\^|\*\*)\s*(?P<ten>[-+\u2212]?\d+))?"
    r"\s*(?P<rest>.*?)\s*$"
)


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2212", "-").replace("，", ",").replace("。", ".")
    text = re.sub(r"百分之\s*(\d+(?:\.\d+)?)", r"\1%", text)  # 百分之13.9 is 13.9%
    return text.strip().strip("'\"`").strip()


def _number(m) -> float:
    raw = m.group("num")
    digits = re.sub(r"[,_ ]", "", raw)
    value = float(digits)
    if m.group("exp"):
        value *= 10.0 ** int(m.group("exp")[1:])
    if m.group("pow"):
        value = value ** int(m.group("pow"))
    if m.group("ten"):
        value *= 10.0 ** int(m.group("ten").replace("−", "-"))
    if m.group("den"):
        den = float(re.sub(r"[,_ ]", "", m.group("den")))
        if den == 0:
            raise Invalid(N_("A fraction's denominator cannot be 0."))
        value /= den
    return -value if m.group("sign") in ("-", "−") else value


def _which_dim(rest: str) -> str | None:
    for dim, table in TABLES.items():
        if rest in table:
            return dim
    return None


def parse(text: str, dim: str, default: Unit | None = None) -> Quantity:
    """The quantity a learner typed, or :class:`Invalid` saying what is wrong with the input."""
    raw = text
    text = re.sub(r"^(?:±|约|大约|≈|~|about)\s*", "", normalize(text))  # ±10.9 (a half-width), 约 40 GB
    text = _summed(_chinese_count(text))
    if not text:
        raise Invalid(N_("Type a number (with its unit if it has one)."))
    m = _NUMBER_RE.match(text)
    if not m:
        raise Invalid(
            N_("No number at the start of {typed!r}: type e.g. 48 GB, 4.8 ms, 1.3e9, 70%."), typed=raw.strip()
        )
    try:
        number = _number(m)
    except Invalid:
        raise
    except (OverflowError, ValueError):
        raise Invalid(TOO_LARGE) from None
    if not math.isfinite(number):
        raise Invalid(TOO_LARGE)
    rest = m.group("rest").strip()
    q = _parse_rest(raw, text, number, rest, dim, default or PLAIN.get(dim) or Unit("", dim, 1.0))
    if not math.isfinite(q.value):
        raise Invalid(TOO_LARGE)
    return q


TOO_LARGE = N_("That number is too large to read.")
_CN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _chinese_count(text: str) -> str:
    """A small count in Chinese numerals, as the course writes it: 两张卡 -> 2 张卡, 十六卡 -> 16 卡."""
    m = re.match(r"^([一二两三四五六七八九]?)(十?)([一二三四五六七八九]?)(?=[张卡台个道块条次倍]|$)", text)
    if not m or not m.group(0) or (not m.group(2) and m.group(3)):
        return text
    tens = (_CN_DIGITS.get(m.group(1), 1) if m.group(2) else 0) * 10
    ones = _CN_DIGITS.get(m.group(3) if m.group(2) else m.group(1), 0)
    return f"{tens + ones} {text[m.end() :]}".strip()


def _summed(text: str) -> str:
    """A sum typed for a number, as the course writes it: ``2 + 2 + 4 + 4 + 4`` -> ``16``."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?(?:\s*\+\s*\d+(?:\.\d+)?)+)\s*(.*)", text)
    if not m:
        return text
    total = sum(float(x) for x in m.group(1).split("+"))
    return f"{total:.12g} {m.group(2)}".strip()


def _parse_rest(raw: str, text: str, number: float, rest: str, dim: str, default: Unit) -> Quantity:
    if dim == "count":
        rest = _AT_LEAST.sub("", rest)
    if dim == "bytes":  # 131 KB/token: the question asks per token
        rest = re.sub(r"\s*(?:/\s*(?:token|tok)|每\s*token|每个\s*token)$", "", rest)
    if not rest:
        return Quantity(number * default.factor, number, default, True, text=raw)
    table = TABLES.get(dim, {})
    if rest in table:
        u = table[rest]
        return Quantity(number * u.factor, number, u, False, text=raw)
    if dim in MULTIPLIED:
        # "17.6M", "17.6 M params", "26.7K tokens/s", "1760万", "1.3 billion"
        for mult in sorted(_MULTIPLIERS, key=len, reverse=True):
            if not rest.startswith(mult):
                continue
            noun = rest[len(mult) :].strip()
            factor = _MULTIPLIERS[mult]
            if dim == "count" and (noun == "" or noun in _COUNT_WORDS or noun.lower() in _COUNT_WORDS):
                return Quantity(number * factor, number, default, mult == "", factor, text=raw)
            if dim != "count" and noun in table:
                u = table[noun]
                return Quantity(number * factor * u.factor, number, u, False, factor, text=raw)
            if dim != "count" and noun == "" and mult:
                return Quantity(number * factor, number, default, True, factor, text=raw)
    lower = {k.lower(): v for k, v in table.items() if v.family != "bit" and v.family != "iec"}
    if rest.lower() in lower and dim not in ("bytes",):
        u = lower[rest.lower()]
        return Quantity(number * u.factor, number, u, False, text=raw)
    other = _which_dim(rest)
    want = DIM_NAMES.get(dim, dim)
    if other and other != dim:
        raise Invalid(
            N_("{unit!r} is {got}; this question asks for {want}."), unit=rest, got=DIM_NAMES[other], want=want
        )
    raise Invalid(
        N_("Unknown unit {unit!r} for {want}: use {units}."), unit=rest, want=want, units=UNIT_EXAMPLES.get(dim, "")
    )


UNIT_EXAMPLES = {  # the units a refusal suggests, per dimension
    "bytes": "B, KB, MB, GB, GiB, MiB, bytes",
    "time": "s, ms, µs",
    "fraction": Msg(N_("% (or a bare fraction)")),
    "speedup": "x",
    "flop_per_byte": "FLOP/byte",
    "tokens_per_s": "tokens/s",
    "nats": "nats",
    "count": Msg(N_("K, M, B (billion), 万, 亿")),
    "number": Msg(N_("no unit")),
}


# ------------------------------------------------------------------ slips: other readings of the same keys
@dataclass(frozen=True)
class Reading:
    value: float  # what the number would be worth under this reading (base unit)
    msg: Msg  # the slip named, said in the sitting's language


def alternatives(q: Quantity, dim: str, default: Unit | None) -> list[Reading]:
    """What the typed keys would mean under a common slip. The answer type keeps the readings that
    are right and names the first one; it never says the right value."""
    out: list[Reading] = []
    n = q.number
    u = q.unit

    def reading(worth: float, msgid: str, /, **fields: object) -> None:
        out.append(Reading(worth, Msg(msgid, fields)))

    if dim == "bytes" and not q.bare:
        si, iec = 1000.0**u.power, 1024.0**u.power
        gap = f"{iec / si - 1:.1%}"
        if u.family in ("iec", "ibit") and u.power:
            reading(
                q.value * si / iec,
                N_(
                    "you typed {unit} (powers of 1024), not {other} (powers of 1000): they differ by {gap}. "
                    "Which one is your number in?"
                ),
                unit=u.symbol,
                other=u.symbol.replace("i", ""),
                gap=gap,
            )
        elif u.family in ("si", "bit") and u.power:
            reading(
                q.value * iec / si,
                N_(
                    "you typed {unit} (powers of 1000), not {other} (powers of 1024): they differ by {gap}. "
                    "Which one is your number in?"
                ),
                unit=u.symbol,
                other=u.symbol[0] + "i" + u.symbol[1:],
                gap=gap,
            )
        if u.family in ("bit", "ibit"):
            reading(
                q.value * 8,
                N_("you typed bits ({unit}); the question asks for bytes (8 bits each). Is your number in bytes?"),
                unit=u.symbol,
            )
        else:
            reading(q.value / 8, N_("your number would fit if it counted bits, not bytes: did you count bits?"))
    if dim == "time" and not q.bare:
        for factor, sym in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
            if sym != u.symbol and abs(math.log10(u.factor / factor)) <= 3.01:
                reading(
                    n * factor,
                    N_("you typed {unit}; check the unit: is your number in {other}?"),
                    unit=u.symbol,
                    other=sym,
                )
    if dim == "fraction":
        if u.symbol == "%":
            reading(
                n,
                N_("{n:g}% is {value:g} as a fraction: did you mean {n:g} as a fraction (= {pct:g}%)?"),
                n=n,
                value=q.value,
                pct=n * 100,
            )
        elif q.bare:
            reading(n / 100, N_("{n:g} is read as a fraction (0-1): for a percentage type {n:g}%."), n=n)
    if q.bare and default is not None and dim in TABLES:
        for alias, other in TABLES[dim].items():
            if other.symbol != default.symbol and alias == other.symbol and other.family != "bit":
                reading(
                    n * other.factor,
                    N_("a bare number is read as {unit}; type the unit you mean (e.g. {n:g} {other})."),
                    unit=default.symbol,
                    n=n,
                    other=other.symbol,
                )
    for k in (3, 6, 9, -3, -6, -9):
        reading(
            q.value * 10.0**k,
            N_("your number is off by a factor of 10^{k}: check the prefix (K, M, G) or the unit"),
            k=abs(k),
        )
    return out


# ------------------------------------------------------------------ display
def fmt_number(x: float, sig: int = 3) -> str:
    if x == 0:
        return "0"
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    mag = math.floor(math.log10(abs(x)))
    if -3 <= mag < 7:
        decimals = max(0, sig - 1 - mag)
        return f"{x:,.{decimals}f}"
    return f"{x:.{sig - 1}e}"


def resolution(x: float, sig: int = 3) -> float:
    """The step of the last digit :func:`fmt_number` shows for ``x`` (0: shown exactly)."""
    if x == 0 or float(x).is_integer() and abs(x) < 1e15:
        return 0.0
    mag = math.floor(math.log10(abs(x)))
    if -3 <= mag < 7:
        return 10.0 ** -max(0, sig - 1 - mag)
    return 10.0 ** (mag - sig + 1)


def show(value: float, u: Unit, sig: int = 3) -> str:
    """``show(48e9, GB)`` -> ``"48 GB"``."""
    number = value / u.factor
    text = fmt_number(round(number, 12) if abs(number) >= 1 else number, sig)
    if u.dim == "fraction" and u.symbol == "%":
        return f"{text}%"
    if (u.dim == "count" and u.factor != 1.0) or u.symbol == "x":
        return f"{text}{u.symbol}"
    return f"{text} {u.symbol}".strip()
