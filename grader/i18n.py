"""The one message catalog: every word a learner or student reads, in Chinese and English.

The English text is the message id (``_("passed")``); the Chinese entries live in gettext catalogs,
``grader/locale/zh/LC_MESSAGES/<domain>.po``, one domain per area (:data:`DOMAINS`), read at
run time with Babel (no compile step). ``make messages`` extracts the ids from the source and
updates the catalogs; a translator edits the .po files with any PO editor.

    from grader.i18n import _, N_
    STATUS = N_("wrong answer")            # module-level data: marked, translated where shown
    print(_("{n} key points", n=3))        # brace placeholders, filled after translation
"""

from __future__ import annotations

import functools
import os
import re
import string
from pathlib import Path

LANGS = ("zh", "en")
_ROOT = Path(__file__).resolve().parent
LOCALE_DIR = _ROOT / "locale"
# Each domain's catalog and the paths in grader/ its messages come from; the longest matching path
# decides, so every file of grader/ belongs to exactly one catalog ("" is all the rest).
DOMAINS = {"grader": ("",), "course": ("course",), "quiz": ("quiz",), "classroom": ("classroom",)}
# The stubs' contracts (exercises/, not grader/) are the ``stubs`` catalog: `make stubs` keeps it
# (grader/course/stub_docs.py), not `make messages`, and the stubs carry its Chinese themselves.
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
    for domain in DOMAINS:
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


def _(msgid: str, /, **fields: object) -> str:
    """``msgid`` in the current language, its ``{placeholders}`` filled from ``fields``. Without
    fields the text is shown as it is, braces and all: data marked with :func:`N_` (a claim that
    quotes code) is translated where shown, ``_(claim)``, and has no placeholders."""
    text = lookup(msgid, current())
    return text.format(**fields) if fields else text


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
