"""Answer types. Each one keeps *validation* (is this an answer of the right form? is it a unit or
magnitude slip?) apart from *assessment* (is it right?), as STACK does:

* :meth:`Answer.parse` turns the keystrokes into a value or raises :class:`Invalid` (unparseable,
  wrong dimension, a percentage typed for a fraction): the learner types again, nothing recorded.
* :meth:`Answer.slip` (numbers only) runs after parsing when the value is wrong as typed: if the
  same keystrokes are right under a common slip (GB vs GiB, ms vs s, bits vs bytes, % vs fraction,
  a factor of 1000), it names the slip and the learner re-enters, without losing the attempt.
* :meth:`Answer.assess` decides right or wrong against the variant's ground truth.
"""

from __future__ import annotations

import math
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from grader.course import same_words
from grader.i18n import N_
from grader.quiz import units
from grader.quiz.units import Invalid, Quantity
from grader.quiz.words import Msg, say


@dataclass(frozen=True)
class Tolerance:
    """How close counts as right: relative (``rel=0.03``), absolute (``abs=0.05``, base units) or a
    ratio band around the truth (``low=0.5, high=1.25``, as A7's check accepts an estimate)."""

    rel: float | None = None
    abs: float | None = None
    low: float | None = None
    high: float | None = None

    def ok(self, got: float, want: float) -> bool:
        if not math.isfinite(got):
            return False
        if self.low is not None:
            return want != 0 and self.low <= got / want <= self.high
        slack = 0.0
        if self.rel is not None:
            slack = max(slack, self.rel * abs(want))
        if self.abs is not None:
            slack = max(slack, self.abs)
        return abs(got - want) <= slack + 1e-12 * max(1.0, abs(want))

    def slack(self, want: float) -> float:
        """How far from ``want`` an answer may be (base units; the band's narrower side)."""
        if self.low is not None:
            return abs(want) * min(1 - self.low, self.high - 1)
        return max(self.rel * abs(want) if self.rel is not None else 0.0, self.abs or 0.0)

    @property
    def exact(self) -> bool:
        return self.low is None and not self.abs and self.rel is None

    def describe(self, lang: str, u: units.Unit) -> str:
        """The tolerance :meth:`ok` applies, as the learner reads it (both bounds when both are set;
        for a percentage, points apart from a relative tolerance)."""
        if self.low is not None:
            return say(lang, N_("{low:g}x-{high:g}x of the measured value"), low=self.low, high=self.high)
        if self.exact:
            return say(lang, N_("exact"))
        pct = u.dim == "fraction" and u.symbol == "%"
        relative = None
        if self.rel is not None:
            relative = say(lang, N_("±{pct:g}% of the value"), pct=self.rel * 100) if pct else f"±{self.rel * 100:g}%"
        if not self.abs:
            return relative
        if pct:
            absolute = say(lang, N_("±{points:g} percentage points"), points=self.abs * 100)
        elif u.symbol in ("", "x"):
            absolute = f"±{self.abs / u.factor:g}"
        else:
            absolute = f"±{self.abs / u.factor:g}{'' if u.dim == 'count' else ' '}{u.symbol}"
        if relative is None:
            return absolute
        return say(lang, N_("{relative} or {absolute}, whichever is larger"), relative=relative, absolute=absolute)


EXACT = Tolerance(abs=0)
NEGATIVE = {  # the refusal of a negative value, per dimension
    "bytes": N_("A size cannot be negative."),
    "time": N_("A time cannot be negative."),
    "count": N_("A count cannot be negative."),
    "fraction": N_("A fraction cannot be negative."),
    "speedup": N_("A factor cannot be negative."),
    "flop_per_byte": N_("An intensity cannot be negative."),
    "tokens_per_s": N_("A throughput cannot be negative."),
    "nats": N_("A cross-entropy loss cannot be negative."),
    "number": N_("A number cannot be negative."),
}


FORMS = {  # what a number's answer looks like, per dimension (the answer hint)
    "bytes": Msg(N_("a size with its unit, e.g. 12 GB, 3.5 GiB, 640 MiB, 2e9 B")),
    "time": Msg(N_("a time with its unit, e.g. 2.5 ms, 0.3 s")),
    "count": Msg(N_("a count, e.g. 14, 17.6M, 1.3e9, 1760万")),
    "fraction": Msg(N_("a fraction 0-1 or a percentage, e.g. 0.35 or 35%")),
    "speedup": Msg(N_("a factor, e.g. 2.5x")),
    "flop_per_byte": Msg(N_("FLOP per byte, e.g. 150")),
    "tokens_per_s": Msg(N_("tokens per second, e.g. 1200 tokens/s")),
    "nats": Msg(N_("a loss in nats, e.g. 6.2")),
    "number": Msg(N_("a number, e.g. 42")),
}
POINTS = Msg(N_("percentage points, e.g. ±2.7 or 2.7 (= 2.7%)"))


class Answer:
    kind = "answer"

    def hint(self, lang: str) -> str:
        raise NotImplementedError

    def parse(self, text: str) -> Any:
        raise NotImplementedError

    def slip(self, value: Any, truth: Any) -> Invalid | None:
        return None

    def assess(self, value: Any, truth: Any) -> bool:
        raise NotImplementedError

    def show(self, truth: Any, lang: str) -> str:
        raise NotImplementedError

    def options_text(self, lang: str) -> list[str]:
        return []

    def encode(self, value: Any) -> Any:
        return value


# ------------------------------------------------------------------ numbers with units
@dataclass
class Number(Answer):
    """A quantity in ``dim`` (see ``units.DIM_NAMES``), shown in ``unit``; a bare number is read in
    ``unit`` (counts: as the full count). ``also`` lists units shown beside the right value."""

    dim: str
    unit: str = ""
    tol: Tolerance = field(default_factory=lambda: Tolerance(rel=0.03))
    also: tuple[str, ...] = ()
    sig: int = 3
    signed: bool = False  # a negative value can be right (else it is refused as impossible)
    # a spread of a percentage (a ci95 half-width): a bare number is percentage points, as the course
    # writes it ("±5.8", "±10.9"), not a fraction (0-1)
    points: bool = False
    kind = "number"

    @property
    def u(self) -> units.Unit:
        if self.dim == "count":
            return units.Unit(self.unit, "count", units._MULTIPLIERS.get(self.unit, 1.0)) if self.unit else units.COUNT
        if not self.unit:
            return units.PLAIN.get(self.dim, units.Unit("", self.dim, 1.0))
        return units.unit(self.unit)

    def _default(self) -> units.Unit:
        """A bare number's unit: the question's (bytes, time), but the full count for counts and a
        fraction (0-1) for fractions: a percentage needs its % sign."""
        if self.dim in ("count", "fraction") and not self.points:
            return units.PLAIN[self.dim]
        return self.u

    def hint(self, lang: str) -> str:
        bare = ""
        if self.dim in ("bytes", "time") and self.unit:
            bare = say(lang, N_("; a bare number is read as {unit}"), unit=self.unit)
        form = POINTS if self.points else FORMS[self.dim]
        if self.tol.exact:  # no tolerance to state: "tolerance exact" is no sentence
            return say(lang, N_("{form}{bare}; the exact value"), form=form, bare=bare)
        return say(lang, N_("{form}{bare}; tolerance {tol}"), form=form, bare=bare, tol=self.tol.describe(lang, self.u))

    def parse(self, text: str) -> Quantity:
        q = units.parse(text, self.dim, self._default())
        if q.value < 0 and not (self.signed or self.dim == "number"):
            raise Invalid(NEGATIVE[self.dim])
        if self.dim == "fraction" and q.bare and not 0 <= q.value <= 1:
            raise Invalid(N_("{n:g} is not a fraction (0-1): for a percentage type {n:g}%."), n=q.number)
        return q

    def assess(self, value: Quantity, truth: float) -> bool:
        return self.tol.ok(value.value, float(truth))

    def slip(self, value: Quantity, truth: float) -> Invalid | None:
        """A slip is named only when another reading of the same keys is right, and close: within the
        tolerance and, for an absolute tolerance, within 5% (a small truth is not matched by any small number)."""
        if self.assess(value, truth):
            return None
        t = float(truth)
        for reading in units.alternatives(
            value, self.dim, self._default() if self.dim not in ("count", "fraction") else None
        ):
            close = self.tol.low is not None or self.tol.abs is None or abs(reading.value - t) <= 0.05 * abs(t)
            if self.tol.ok(reading.value, t) and close:
                return Invalid(reading.msg.msgid, **reading.msg.fields)
        return None

    def show_sig(self, truth: float) -> int:
        """Significant digits that decide: the last digit shown is no coarser than the tolerance, so
        a value that rounds to what is shown is right (11.87 is not marked wrong beside "11.9")."""
        t, sig = float(truth) / self.u.factor, self.sig
        slack = self.tol.slack(float(truth)) / self.u.factor
        while sig < 12 and units.resolution(t, sig) > slack:
            sig += 1
        return sig

    def show(self, truth: float, lang: str) -> str:
        main = units.show(float(truth), self.u, self.show_sig(truth))
        extra = [
            units.show(
                float(truth),
                units.unit(s) if self.dim != "count" else units.Unit(s, "count", units._MULTIPLIERS.get(s, 1.0)),
                self.sig,
            )
            for s in self.also
        ]
        if self.dim == "fraction" and self.u.symbol != "%":
            extra.append(f"{float(truth) * 100:.3g}%")
        if self.dim == "count" and self.u.factor == 1.0 and abs(truth) >= 1e5 and not self.also:
            extra.append(
                units.show(float(truth), units.Unit("M", "count", 1e6))
                if abs(truth) < 1e9
                else units.show(float(truth), units.Unit("B", "count", 1e9))
            )
        return main + (f" ({', '.join(extra)})" if extra else "")

    def encode(self, value: Quantity) -> Any:
        return value.value


# ------------------------------------------------------------------ yes / no
# The one vocabulary of yes and no, in both languages, for every yes/no question (the question's
# own verb phrase, said or denied, is read by YesNo._echo).
YES = {
    "y",
    "yes",
    "true",
    "t",
    "1",
    "是",
    "对",
    "能",
    "会",
    "可以",
    "够",
    "行",
    "可",
    "变",
    "是的",
    "对的",
    "是对的",
    "正确",
    "没错",
    "能装下",
    "放得下",
    "装得下",
    "yes.",
    "ja",
    "oui",
}
NO = {
    "n",
    "no",
    "false",
    "f",
    "0",
    "否",
    "不",
    "不是",
    "不对",
    "错",
    "错的",
    "是错的",
    "错误",
    "不正确",
    "不能",
    "不会",
    "不可以",
    "不够",
    "不行",
    "不变",
    "装不下",
    "放不下",
    "no.",
    "没有",
    "没",
}


_NEGATORS = ("没有", "不会", "不能", "不是", "不", "没")
_MODALS = ("能够", "可以", "能", "会", "是")
_A_NOT_A = re.compile(r"([\u4e00-\u9fff]|可以)(?:不|没)\1")  # 能不能, 会不会, 够不够, 有没有
_SYNONYMS = {"一致": "一样", "相同": "一样", "装得下": "放得下"}  # the course's words for the question's


def _core(t: str) -> tuple[str, bool]:
    """A Chinese verb phrase without its polarity: (core, negated). 分辨不出来 -> (分辨出, True),
    放得进 -> (放进, False), 不重叠 -> (重叠, True), 能放进 -> (放进, False)."""
    for a, b in _SYNONYMS.items():
        t = t.replace(a, b)
    t = re.sub(r"(?<=.)[来了的啊呀]$", "", t)
    neg = False
    for n in _NEGATORS:
        if t.startswith(n) and len(t) > len(n):
            t, neg = t[len(n) :], True
            break
    for m in _MODALS:
        if t.startswith(m) and len(t) > len(m):
            t = t[len(m) :]
            break
    if re.search(r"(?<=.)不(?=.)", t):  # a potential complement denied: 分辨不出, 放不进
        t, neg = re.sub(r"(?<=.)不(?=.)", "", t, count=1), not neg
    return re.sub(r"(?<=.)得(?=.)", "", t), neg


def echo_phrases(question_zh: str) -> list[tuple[str, bool]]:
    """The verb phrases a Chinese yes/no question asks about, as :func:`_core` reduces them: the words
    before 吗, a potential complement (分辨得出), what follows 能不能 / 会不会 (放进). An answer is one
    of them said (the phrase's end) or denied (不 / 没 / 不出 forms)."""
    q = _A_NOT_A.sub(lambda m: "\x00" + m.group(1), question_zh)
    runs = re.findall(r"[\u4e00-\u9fff\x00]+", q)
    out = []
    for run in runs:
        tail = run.split("\x00")[-1]
        after_a_not_a = "\x00" in run
        if after_a_not_a or re.search(r"(?<=.)[得不](?=.)", run) or run.endswith("吗"):
            core = _core(tail.removesuffix("吗"))[0]
            if len(core) >= 2:
                out.append((core, after_a_not_a))
    return out


@dataclass
class YesNo(Answer):
    echo: str = ""  # the Chinese question itself: its verb phrase said is yes, denied no (健康 / 不健康)
    kind = "yes/no"

    def echoing(self, question_zh: str) -> YesNo:
        sentences = [s for s in re.split(r"(?<=[？?。])", question_zh) if "？" in s or "?" in s]
        return YesNo(sentences[-1] if sentences else "")

    def hint(self, lang: str) -> str:
        a_not_a = _A_NOT_A.search(self.echo) if lang == "zh" else None
        if a_not_a:  # 变不变？ is no yes-or-no question: say which way y points (y = 变, n = 不变)
            yes = a_not_a.group(1)
            return say(lang, N_("y ({yes}) or n ({no})"), yes=yes, no=a_not_a.group(0)[len(yes) :])
        return say(lang, N_("y or n"))

    def _echo(self, t: str) -> bool | None:
        """The question's own verb phrase said or denied: 健康 / 不健康, 分辨得出 / 分辨不出来, 放得进."""
        if not self.echo or not re.search(r"[\u4e00-\u9fff]", t):
            return None
        core, neg = _core(t)
        if len(core) < 2:
            return None
        for phrase, leads in echo_phrases(self.echo):
            # the phrase's end (健康 for 曲线健康), or its start after 能不能 (放进 for 放进一张卡)
            if phrase.endswith(core) or leads and phrase.startswith(core):
                return not neg
        return None

    def parse(self, text: str) -> bool:
        t = units.normalize(text).lower().rstrip("!.。")
        if t in YES:
            return True
        if t in NO:
            return False
        echoed = self._echo(t)
        if echoed is not None:
            return echoed
        raise Invalid(N_("Answer y (yes) or n (no)."))

    def assess(self, value: bool, truth: bool) -> bool:
        return value == bool(truth)

    def show(self, truth: bool, lang: str) -> str:
        return say(lang, N_("yes") if truth else N_("no"))


# ------------------------------------------------------------------ choices
@dataclass(frozen=True)
class Option:
    """``also``: other names the course gives it ("几十 MB" for "does not depend on the file size");
    ``means``: for an item named by meaning (a run record's item, a part of the training state), the
    checks' own matcher (name -> key, or -> the keys of a group it names: "AdamW 两个矩" is both
    moments), so that the quiz and the grader accept the same names."""

    key: str
    en: str
    zh: str
    also: tuple[str, ...] = ()
    means: Callable[[str], str | tuple[str, ...] | None] | None = field(default=None, compare=False, repr=False)

    def text(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _not_an_option(typed: str, n: int) -> Invalid:
    return Invalid(
        N_("{typed!r} is not one of the letters a-{last} nor an option's name."), typed=typed, last=LETTERS[n - 1]
    )


def _letters(text: str, n: int, is_word: Callable[[str], bool] = lambda _t: False) -> list[str] | None:
    """The letters (or 1-based numbers) typed; None when the text is not made of letters, as a name
    ("几十 MB", "run id") is not, nor a run of option letters that ``is_word`` says is a word the
    question asks for ("cfg" for the config, "cafe"); an out-of-range letter is refused by itself ('e' of a-d)."""
    raw = re.sub(r"[\s,;、，/()\[\]>.-]+", " ", units.normalize(text)).strip()
    if not raw:
        return []
    t = raw.lower()
    glued = " " not in t and all(c in LETTERS[:n] for c in t) and not (len(t) > 1 and is_word(raw))
    tokens = t.split() if " " in t else list(t) if glued else [t]
    if not all(len(tok) == 1 and tok.isalpha() or tok.isdigit() and n < 10 for tok in tokens):
        return None
    out = []
    for tok in tokens:
        if tok in LETTERS[:n]:
            out.append(tok)
        elif tok.isdigit() and 1 <= int(tok) <= n:
            out.append(LETTERS[int(tok) - 1])
        else:
            raise _not_an_option(tok, n)
    return out


def _fold(text: str) -> str:
    text = same_words.fold(units.normalize(text).lower())  # 哈希 for the course's hash: both sides folded
    return re.sub(r"\s+", " ", text).strip(" .。")


def _key(text: str) -> str:
    return _fold(text).replace(" ", "")  # "几十MB" is "几十 MB"


def _names(o: Option) -> set[str]:
    out = {_fold(o.key)}
    for name in (o.en, o.zh, *o.also):
        out.add(_fold(name))
        out.add(_fold(re.split(r"\s*[(（:：]", name)[0]))
    out.discard("")
    return out


@dataclass
class Choice(Answer):
    """One option of several. Options are shown in a per-variant order (:meth:`shuffled`)."""

    options: Sequence[Option]
    kind = "choice"

    def shuffled(self, rng: random.Random) -> Choice:
        opts = list(self.options)
        rng.shuffle(opts)
        return type(self)(opts)

    def options_text(self, lang: str) -> list[str]:
        return [f"{LETTERS[i]}) {o.text(lang)}" for i, o in enumerate(self.options)]

    def hint(self, lang: str) -> str:
        return say(lang, N_("one letter, a-{last}"), last=LETTERS[len(self.options) - 1])

    def by_name(self, text: str) -> Option | None:
        """An option typed by its name (``FSDP``, ``logx``), in either language: the whole name, its
        key, or the name before its explanation (``memory bandwidth`` for "memory bandwidth (memory-bound)")."""
        t = _key(text)
        if len(t) < 2:
            return None
        hits = [o for o in self.options if t in {_key(n) for n in _names(o)}]
        return hits[0] if len(hits) == 1 else None

    def by_words(self, text: str) -> Option | None:
        """An option typed by the start of its name or by words of it (``只存每层的输入``, ``GPU 空转``,
        ``use_deterministic_algorithms``, ``文件 hash``): the one option whose name holds every word;
        an option named by meaning, by its matcher (``随机种子``, ``代码版本``)."""
        words = [w.replace("的", "") for w in re.split(r"[\s,;、，/()（）:：]+", _fold(text)) if w]
        few = not words or sum(map(len, words)) < 2 or any(len(w) < 2 and w.isascii() for w in words)
        hits = [
            o
            for o in self.options  # 的 aside: the course's 只存每层输入 is the option's 只存每层的输入
            if (
                self._meant(text, o)  # its matcher's words, "m" and "v" too
                if o.means
                else not few and any(all(w in n.replace("的", "") for w in words) for n in _names(o))
            )
        ]
        return hits[0] if len(hits) == 1 else None

    def _meant(self, text: str, o: Option) -> bool:
        """``o`` by its matcher, unless a word of the text is another option's name: "run id commit"
        is two items, not the run id."""
        return o.means(text) == o.key and all(self.by_name(w) in (None, o) for w in text.split())

    def option(self, text: str) -> Option | None:
        """The option a name means: its whole name first, then its words."""
        return self.by_name(text) or self.by_words(text)

    def asks_for(self, word: str) -> bool:
        """Whether ``word`` is a word this question asks for: an option's name, a whole word of one,
        or what an option named by meaning means ("cfg": the config). Not a part of a word: "ad"
        stays the letters a and d beside "gradient"."""
        w = _fold(word)
        return (
            self.by_name(word) is not None
            or any(o.means is not None and self._meant(word, o) for o in self.options)
            or any(w in re.split(r"[^\w]+", n) for o in self.options for n in _names(o))
        )

    def parse(self, text: str) -> str:
        named = self.by_name(text)
        if named is not None:
            return named.key
        got = _letters(text, len(self.options), self.asks_for)
        if got is None:
            named = self.by_words(text)
            if named is None:
                raise _not_an_option(units.normalize(text).strip(), len(self.options))
            return named.key
        if len(got) != 1:
            raise Invalid(N_("Type one letter."))
        return self.options[LETTERS.index(got[0])].key

    def assess(self, value: str, truth: str | tuple[str, ...]) -> bool:
        """``truth`` is the right option's key, or the keys of several that the course each states."""
        return value in truth if isinstance(truth, (tuple, list)) else value == truth

    def show(self, truth: str | tuple[str, ...], lang: str) -> str:
        if isinstance(truth, (tuple, list)):
            first, *rest = truth
            shown = self.show(first, lang)
            return say(lang, N_("{left} or {right}"), left=shown, right=self.show(tuple(rest), lang)) if rest else shown
        for i, o in enumerate(self.options):
            if o.key == truth:
                return f"{LETTERS[i]}) {o.text(lang)}"
        return str(truth)


def _joined(chunks: list[str], seps: list[str], i: int, j: int) -> str:
    """Chunks i..j-1 of a split text with the separators between them, as typed."""
    return "".join(c + (seps[k] if k < j - 1 else "") for k, c in enumerate(chunks[i:j], start=i))


@dataclass
class MultiSelect(Choice):
    """Every option that applies (at least one)."""

    kind = "multi-select"

    def hint(self, lang: str) -> str:
        return say(lang, N_("every letter that applies, e.g. a c d"))

    def parse(self, text: str) -> frozenset:
        n = len(self.options)
        try:
            got = _letters(text, n, self.asks_for)
            refused = None
        except Invalid as e:
            got, refused = None, e
        if got is None:
            try:
                keys = self.by_names(text)
            except Invalid:
                raise refused or sys.exc_info()[1] from None
            got = [LETTERS[[o.key for o in self.options].index(k)] for k in keys]
        if not got:
            raise Invalid(N_("Type at least one letter."))
        if len(set(got)) != len(got):
            raise Invalid(N_("Each letter once, please."))
        return frozenset(self.options[LETTERS.index(c)].key for c in got)

    def _split(self, part: str) -> list[Option] | None:
        """A part of several names with only spaces between ("run id commit seed"): the longest run of
        words that is an option's whole name, left to right; None unless that reads two or more."""
        words, i, out = part.split(), 0, []
        while i < len(words):
            j = next((j for j in range(len(words), i, -1) if self.by_name(" ".join(words[i:j]))), None)
            if j is None:
                return None
            out.append(self.by_name(" ".join(words[i:j])))
            i = j
        return out if len(out) > 1 else None

    def _group(self, part: str) -> list[Option] | None:
        """The options a name of a group means, by the options' own matcher: "AdamW 两个矩", "m and v",
        "两个动量" are the first and the second moment (the checks read them so); None unless every
        part of the group is an option here."""
        for o in self.options:
            got = o.means(part) if o.means else None
            if isinstance(got, tuple):
                keys = [x.key for x in self.options]
                return [self.options[keys.index(k)] for k in got] if set(got) <= set(keys) else None
        return None

    def by_names(self, text: str) -> list[str]:
        """Options typed by their names, as the course lists them ("run id · commit · 配置文件 · …"):
        separated by · , 、 ; 和 以及 or spaces (a name with a space, ``run id``, is read whole). A part
        that names no option is refused by itself, whole."""
        split = re.split(r"(\s*(?:[·•,;、，；/]|和|以及)\s*)", units.normalize(text))
        chunks, seps = split[0::2], split[1::2] + [""]
        parts, i = [], 0
        while i < len(chunks):  # an option's own name may hold a separator: "减 batch，用梯度累积补回"
            j = next(
                (j for j in range(len(chunks), i + 1, -1) if self.by_name(_joined(chunks, seps, i, j))),
                i + 1,
            )
            parts.append(_joined(chunks, seps, i, j))
            i = j
        keys = []
        for part in (p.strip() for p in parts):
            if not part:
                continue
            named = self.by_name(part)
            options = [named] if named else self._split(part) or self._group(part) or [self.by_words(part)]
            if None in options:
                raise _not_an_option(part, len(self.options))
            keys += [o.key for o in options]
        return keys

    def assess(self, value: frozenset, truth) -> bool:
        return set(value) == set(truth)

    def show(self, truth, lang: str) -> str:
        return "; ".join(f"{LETTERS[i]}) {o.text(lang)}" for i, o in enumerate(self.options) if o.key in set(truth))

    def encode(self, value: frozenset) -> Any:
        return sorted(value)


@dataclass
class Ordering(Choice):
    """All options in order. ``truth`` is one order (a list of keys) or several acceptable ones."""

    kind = "ordering"

    def hint(self, lang: str) -> str:
        n = len(self.options)
        return say(lang, N_("all {n} letters in order, e.g. {example}"), n=n, example=" ".join(LETTERS[:n][::-1]))

    def parse(self, text: str) -> tuple:
        got = _letters(text, len(self.options))
        if got is None:
            raise _not_an_option(units.normalize(text).strip(), len(self.options))
        if sorted(got) != list(LETTERS[: len(self.options)]):
            raise Invalid(N_("Give every letter a-{last} exactly once, in order."), last=LETTERS[len(self.options) - 1])
        return tuple(self.options[LETTERS.index(c)].key for c in got)

    @staticmethod
    def _orders(truth) -> list[tuple]:
        return [tuple(t) for t in truth] if truth and isinstance(truth[0], (list, tuple)) else [tuple(truth)]

    def assess(self, value: tuple, truth) -> bool:
        return tuple(value) in self._orders(truth)

    def show(self, truth, lang: str) -> str:
        order = self._orders(truth)[0]
        by_key = {o.key: (LETTERS[i], o) for i, o in enumerate(self.options)}
        return " → ".join(f"{by_key[k][0]}) {by_key[k][1].text(lang)}" for k in order)

    def encode(self, value: tuple) -> Any:
        return list(value)


# ------------------------------------------------------------------ shapes, einsum, commands
@dataclass
class Shape(Answer):
    kind = "shape"

    def hint(self, lang: str) -> str:
        return say(lang, N_("a shape, e.g. (4, 7, 3)"))

    def parse(self, text: str) -> tuple:
        t = units.normalize(text)
        if not t:
            raise Invalid(N_("Type a shape, e.g. (4, 7, 3); a scalar's shape is ()."))
        t = re.sub(r"^torch\.Size\(\s*\[?|\]?\s*\)$", "", t)
        t = t.strip("()[] ")
        if t == "":
            return ()
        parts = [p for p in re.split(r"\s*(?:,|x|×|\*|\s)\s*", t) if p]
        if not parts or not all(p.isdigit() for p in parts):
            raise Invalid(N_("A shape is whole numbers, e.g. (4, 7, 3) or 4, 7, 3."))
        return tuple(int(p) for p in parts)

    def assess(self, value: tuple, truth) -> bool:
        return tuple(value) == tuple(truth)

    def show(self, truth, lang: str) -> str:
        truth = tuple(truth)
        return str(truth) if len(truth) != 1 else f"({truth[0]},)"

    def encode(self, value: tuple) -> Any:
        return list(value)


@dataclass
class BroadcastShape(Shape):
    """A shape, or "error" when the shapes cannot broadcast (truth ``None``)."""

    def hint(self, lang: str) -> str:
        return say(lang, N_("a shape, e.g. (4, 7, 3), or 'error'"))

    def parse(self, text: str):
        t = units.normalize(text).lower()
        if t in ("error", "err", "none", "报错", "不能", "不能广播", "no", "n"):
            return None
        return super().parse(text)

    def assess(self, value, truth) -> bool:
        if value is None or truth is None:
            return value is None and truth is None
        return tuple(value) == tuple(truth)

    def show(self, truth, lang: str) -> str:
        return say(lang, N_("error (cannot broadcast)")) if truth is None else super().show(truth, lang)

    def encode(self, value):
        return None if value is None else list(value)


@dataclass
class Einsum(Answer):
    """An einsum subscripts string, assessed by what it computes (grader.quiz.truth.einsum_right)."""

    which: str = "qk"
    with_heads: bool = False
    kind = "einsum"

    def hint(self, lang: str) -> str:
        return say(lang, N_("np.einsum subscripts, e.g. 'ij,jk->ik'"))

    def parse(self, text: str) -> str:
        t = units.normalize(text).replace(" ", "")
        if not re.fullmatch(r"[a-zA-Z.]+,[a-zA-Z.]+->[a-zA-Z.]*", t):
            raise Invalid(N_("Two operands and an output: 'xyz,xwz->xyw' (letters, a comma, ->)."))
        return t

    def assess(self, value: str, truth) -> bool:
        from grader.quiz import truth as T

        return T.einsum_right(value, self.which, self.with_heads)

    def show(self, truth: str, lang: str) -> str:
        return say(lang, N_("{subscripts!r} (any letters that compute the same)"), subscripts=truth)


@dataclass
class Command(Answer):
    """A torchrun command line, read by torch's own argument parser (B5's ground truth)."""

    n: int = 8
    script: str = "train.py"
    kind = "command"

    def hint(self, lang: str) -> str:
        return say(lang, N_("a command line starting with torchrun, running {script}"), script=self.script)

    def parse(self, text: str) -> str:
        t = units.normalize(text)
        if not t:
            raise Invalid(N_("Type the command."))
        return t

    def assess(self, value: str, truth) -> bool:
        from grader.quiz import truth as T

        return T.torchrun_ok(value, self.n, self.script)

    def show(self, truth: str, lang: str) -> str:
        return truth
