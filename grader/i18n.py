"""The one message catalog: every word a learner or student reads, in Chinese and English.

The English text is the message id (``_("passed")``); the Chinese entries live in gettext catalogs,
``grader/locale/zh/LC_MESSAGES/<domain>.po``, one domain per area (:data:`DOMAINS`), read at
run time with Babel (no compile step). ``make messages`` extracts the ids from the source and
updates the catalogs; a translator edits the .po files with any PO editor.

    from grader.i18n import _, N_
    STATUS = N_("wrong answer")            # module-level data: marked, translated where shown
    print(_("{n} key points", n=3))        # brace placeholders, filled after translation

What ``_()`` returns is a :class:`Text`: a ``str`` in the current language that keeps its
:class:`Message` (msgid and fields). A check's verdict is stored as that message, plain JSON data
(:meth:`Message.data`), and said again in the reader's language where it is shown (:func:`show`):
results are cached, and read later in the other language.
"""

from __future__ import annotations

import functools
import numbers
import os
import re
import string
from dataclasses import dataclass
from pathlib import Path

LANGS = ("zh", "en")
_ROOT = Path(__file__).resolve().parent
LOCALE_DIR = _ROOT / "locale"
# Each domain's catalog and the paths in grader/ its messages come from; the longest matching path
# decides, so every file of grader/ belongs to exactly one catalog ("" is all the rest).
DOMAINS = {
    "grader": ("",),
    "course": ("course",),
    "quiz": ("quiz",),
    "classroom": ("classroom",),
    "checks": ("checks",),
    "engine": ("engine", "isolation"),
}
# The stubs' contracts (exercises/, not grader/) are the ``stubs`` catalog: `make stubs` keeps it
# (grader/course/stub_docs.py), not `make messages`, and the stubs carry its Chinese themselves.
# The registered wrong answers' lines (solutions/mutants/, not grader/) are the ``mutants`` catalog:
# `make messages` keeps it through grader/engine/misconceptions.py's update_catalog, not pybabel.
KEPT = ("mutants",)
_ENV = "GRADER_LANG"
_LOCALE_VARS = (_ENV, "LC_ALL", "LC_MESSAGES", "LANG")

_lang: str | None = None


def _normalise(value: str) -> str:
    return "zh" if value.strip().lower().startswith("zh") else "en"


def detect(explicit: str | None = None) -> str:
    """The language to speak: ``explicit`` (``--lang``), else the first of GRADER_LANG, LC_ALL,
    LC_MESSAGES, LANG that is set and not empty (POSIX skips an empty one); "zh..." is Chinese,
    anything else English."""
    if explicit:
        return _normalise(explicit)
    for var in _LOCALE_VARS:
        if os.environ.get(var, "").strip():
            return _normalise(os.environ[var])
    return "en"


def use(lang: str) -> None:
    """Speak ``lang`` from now on, in this process and in every process it starts (the check
    processes and notebooks inherit GRADER_LANG)."""
    global _lang
    if lang not in LANGS:
        raise ValueError(f"language {lang!r} is not one of {LANGS}")
    _lang = lang
    os.environ[_ENV] = lang


def current() -> str:
    """The language in use: the last :func:`use`, else :func:`detect`'s."""
    return _lang or detect()


def catalog_path(domain: str, lang: str = "zh") -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def domain_of(path: Path) -> str:
    """The catalog a source file of grader/ feeds."""
    rel = path.resolve().relative_to(_ROOT).as_posix()
    owners = [
        (len(p), d) for d, paths in DOMAINS.items() for p in paths if not p or rel == p or rel.startswith(p + "/")
    ]
    return max(owners)[1]


def domain_files(domain: str) -> list[Path]:
    """The Python files of grader/ whose messages go to ``domain``'s catalog."""
    return sorted(p for p in _ROOT.rglob("*.py") if "__pycache__" not in p.parts and domain_of(p) == domain)


@functools.cache
def translations(lang: str) -> dict[str, str]:
    """msgid -> translation, every domain merged; entries still empty or fuzzy are left out (the
    English id is shown instead, and tests/test_i18n.py fails on them)."""
    from babel.messages.pofile import read_po

    table: dict[str, str] = {}
    for domain in (*DOMAINS, *KEPT):
        path = catalog_path(domain, lang)
        if not path.is_file():
            continue
        with path.open("rb") as f:
            for msg in read_po(f, locale=lang):
                if msg.id and isinstance(msg.id, str) and msg.string and not msg.fuzzy:
                    table[msg.id] = msg.string
    return table


def lookup(msgid: str, lang: str) -> str:
    """``msgid`` in ``lang``, as it is (no placeholder filled); the English id where none is kept."""
    return msgid if lang == "en" else translations(lang).get(msgid, msgid)


@dataclass(frozen=True)
class Message:
    """A learner-facing text kept as its message id and fields: ``str()`` is the English,
    :meth:`text` a language's (a field that is itself a Message is translated too)."""

    msgid: str
    fields: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, msgid: str, **fields) -> Message:
        return cls(msgid, tuple(fields.items()))

    def __str__(self) -> str:
        return self.text("en")

    def text(self, lang: str | None = None) -> str:
        lang = lang or current()
        text = lookup(self.msgid, lang)
        if not self.fields:
            return text
        return _fill(text, {k: show(v, lang) if isinstance(v, Message | str | dict) else v for k, v in self.fields})

    def data(self) -> dict:
        """Plain JSON data: ``{"msgid": ..., "fields": {...}}``; a field that is no message, string
        or number (a shape, a dtype: code) is kept as the text it was shown as."""
        return {"msgid": self.msgid, "fields": {k: _field_data(v) for k, v in self.fields}}

    @classmethod
    def from_data(cls, data: dict) -> Message:
        fields = data.get("fields") or {}
        return cls(data["msgid"], tuple((k, cls.from_data(v) if is_data(v) else v) for k, v in fields.items()))


class Text(str):
    """A message as shown in one language that remembers what it says (:attr:`message`)."""

    message: Message

    def __new__(cls, message: Message, lang: str | None = None) -> Text:
        self = super().__new__(cls, message.text(lang))
        self.message = message
        return self

    def __reduce__(self):  # pickled (a check's exception between processes): the message, said again
        return (Text, (self.message,))


def _field_data(value: object) -> object:
    if isinstance(value, Text):
        return value.message.data()
    if isinstance(value, Message):
        return value.data()
    if _is_pair(value):
        return dict(value)
    if isinstance(value, (str, bool)) or value is None:
        return str(value) if isinstance(value, str) else value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return str(value)


def _fill(text: str, fields: dict) -> str:
    """``text.format(**fields)``; a field that came back from storage as text where the message
    formats a number (``{x:.3g}``) is shown as it is rather than failing the report."""
    try:
        return text.format(**fields)
    except (ValueError, TypeError, KeyError, IndexError):
        return re.sub(r"\{(\w+)(![rsa])?(:[^{}]*)?\}", r"{\1}", text).format_map({k: str(v) for k, v in fields.items()})


def either(*, en: str, zh: str) -> dict:
    """A field given in both languages where it is declared (a named mistake's sentence), not in a
    catalog: shown in the reader's language."""
    return {"en": en, "zh": zh}


def _is_pair(value: object) -> bool:
    return isinstance(value, dict) and set(value) == set(LANGS) and all(isinstance(v, str) for v in value.values())


def is_data(value: object) -> bool:
    """Whether ``value`` is a message stored as data (:meth:`Message.data`)."""
    return isinstance(value, dict) and isinstance(value.get("msgid"), str) and isinstance(value.get("fields"), dict)


def data(value: object) -> object:
    """What to store for a shown text: a :class:`Text` as its message's data, anything else as it is
    (free text: the learner's exception message, a traceback)."""
    return value.message.data() if isinstance(value, Text) else value


def loaded(value: object, lang: str | None = None) -> object:
    """The inverse of :func:`data`: stored message data as a :class:`Text` in ``lang``."""
    return Text(Message.from_data(value), lang) if is_data(value) else value


def show(value: object, lang: str | None = None) -> str:
    """A stored or shown text in ``lang`` (default: the current language): a :class:`Text`, a
    :class:`Message` or message data said again there; a plain string as it is."""
    if isinstance(value, Text):
        value = value.message
    elif is_data(value):
        value = Message.from_data(value)
    if isinstance(value, Message):
        return value.text(lang)
    if _is_pair(value):
        return value[lang or current()]
    return value if isinstance(value, str) else str(value)


def _(msgid: str, /, **fields: object) -> Text:
    """``msgid`` in the current language, its ``{placeholders}`` filled from ``fields``. Without
    fields the text is shown as it is, braces and all: data marked with :func:`N_` (a claim that
    quotes code) is translated where shown, ``_(claim)``, and has no placeholders."""
    return Text(Message.of(msgid, **fields))


def N_(msgid: str) -> str:
    """Marks ``msgid`` for extraction and returns it unchanged: translate it where shown, ``_(msgid)``."""
    return msgid


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message fills (format specs and conversions aside); for a text that is no
    format string (a lone brace of quoted code), its brace groups as they are."""
    try:
        return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return set(re.findall(r"\{[^{}]*\}", text))


if __name__ == "__main__":  # `make messages` asks which files feed each domain
    import sys

    print(" ".join(str(p.relative_to(_ROOT.parent)) for p in domain_files(sys.argv[1])))
