"""The stubs' contracts in Chinese and English, from one source (issue 24).

Every docstring of a stub in exercises/ (the module's, each function's and class's) is written
Chinese first, then the English text under an ``English`` heading. The English text is the source:
each of its paragraphs is a message id of the ``stubs`` catalog,
grader/locale/zh/LC_MESSAGES/stubs.po, whose Chinese entry a translator keeps; the Chinese half is
generated from it, never edited by hand. A paragraph that quotes the course (indented, in Chinese)
is the course's own text in both halves; a translation that repeats the paragraph before it (the
English rendering of the course's question, translated back) is written once.

``make stubs`` (``python -m grader.course.stub_docs``) adds the new English paragraphs to the
catalog (empty, for the translator), drops those gone from the stubs, rewrites the Chinese
halves and records each stub's syntax tree (grader/course/released_stubs.py, how
grader.engine.stubs tells an untouched stub); tests/test_stub_docs.py fails when a stub differs
from what it writes or an entry lacks its translation.
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from grader import i18n
from grader.course.catalog import ROOT

DOMAIN = "stubs"
STUBS_DIR = ROOT / "exercises"
HEADING = "English\n-------"  # between the two halves (a reST/Markdown heading: readable in a notebook too)
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_BLANK = re.compile(r"\n[ \t]*\n")


GIVEN_DIR = ROOT / "grader" / "given"  # the modules a learner imports: their docstrings too (help())
HAND_WRITTEN = ("recall_topics.py",)  # bilingual in its own layout: each topic's two spellings


def stub_files(folder: Path = STUBS_DIR) -> list[Path]:
    return sorted(folder.glob("[a-z]*.py"))


def learner_files() -> list[Path]:
    """Every file whose docstrings a learner reads: the stubs, and the given modules they import."""
    given = [p for p in sorted(GIVEN_DIR.glob("*.py")) if p.name not in HAND_WRITTEN]
    return stub_files() + given


def split(doc: str) -> tuple[str, str]:
    """(the Chinese half, the English half) of a docstring's text; a docstring without the heading
    is all English."""
    zh, sep, en = doc.partition("\n" + HEADING + "\n")
    return (zh.strip("\n"), en.strip("\n")) if sep else ("", doc.strip("\n"))


def half(doc: str, lang: str) -> str:
    """A docstring in one language: its Chinese or its English half."""
    zh, en = split(doc)
    return (zh or en) if lang == "zh" else en


def paragraphs(text: str) -> list[str]:
    return [p for p in _BLANK.split(text.strip("\n")) if p.strip()]


def is_quote(paragraph: str) -> bool:
    """The course's question, quoted verbatim (indented under ``::``): the same in both halves."""
    return paragraph[:1].isspace() and bool(_CJK.search(paragraph))


def message_ids(english: str) -> list[str]:
    """The catalog's ids of an English text: its paragraphs, dedented, the course's quotes aside."""
    return [textwrap.dedent(p) for p in paragraphs(english) if not is_quote(p)]


def chinese(english: str, table: dict[str, str]) -> tuple[str, list[str]]:
    """(the Chinese half of ``english``, the ids ``table`` has no translation for); while one
    lacks its translation the half is empty: a docstring is never half translated."""
    out: list[str] = []
    missing: list[str] = []
    for p in paragraphs(english):
        if is_quote(p):
            text = p
        else:
            msgid = textwrap.dedent(p)
            if not table.get(msgid):
                missing.append(msgid)
                continue
            lead = p[: len(p) - len(p.lstrip())]
            text = textwrap.indent(table[msgid], lead)
        if not out or text.split() != out[-1].split():  # the same words: the quote, translated back
            out.append(text)
    return ("" if missing else "\n\n".join(out)), missing


# ---------------------------------------------------------------------------- the docstrings in a file
@dataclass
class Docstring:
    start: int  # first line (1-based) of the string literal
    end: int  # its last line
    indent: str  # of the lines after the first
    prefix: str  # r, u or nothing
    quote: str
    text: str  # the raw source between the quotes, dedented


_LITERAL = re.compile(r'(?s)([rRuU]?)("""|\'\'\')(.*)\2')


def docstrings(src: str) -> list[Docstring]:
    lines = src.splitlines()
    out = []
    for node in ast.walk(ast.parse(src)):
        if not isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        body = node.body
        if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)):
            continue
        if not isinstance(body[0].value.value, str):
            continue
        expr = body[0]
        raw = "\n".join(lines[expr.lineno - 1 : expr.end_lineno])[expr.col_offset :]
        m = _LITERAL.fullmatch(raw.rstrip())
        if not m:
            continue  # a one-quote string: left as it is
        indent = " " * expr.col_offset
        first, *rest = m.group(3).split("\n")
        text = "\n".join([first, *(r.removeprefix(indent) for r in rest)])
        out.append(Docstring(expr.lineno, expr.end_lineno, indent, m.group(1), m.group(2), text.strip("\n ")))
    return sorted(out, key=lambda d: d.start)


def english_ids(folder: Path | None = None) -> list[str]:
    """Every message id of the stubs and the given modules (or of ``folder``'s stubs), in file order, each once."""
    seen: dict[str, None] = {}
    for path in stub_files(folder) if folder else learner_files():
        for doc in docstrings(path.read_text(encoding="utf-8")):
            for msgid in message_ids(split(doc.text)[1]):
                seen.setdefault(msgid)
    return list(seen)


def render(src: str, table: dict[str, str]) -> tuple[str, list[str]]:
    """(the stub ``src`` with every docstring written from its English half, the ids lacking a translation)."""
    lines = src.splitlines()
    missing: list[str] = []
    for doc in reversed(docstrings(src)):  # from the end: earlier line numbers stay valid
        english = split(doc.text)[1]
        zh, lacking = chinese(english, table)
        missing += lacking
        text = f"{zh}\n\n{HEADING}\n\n{english}" if zh else english
        body = [ln if not ln.strip() else (doc.indent + ln if i else ln) for i, ln in enumerate(text.split("\n"))]
        literal = [doc.indent + doc.prefix + doc.quote + body[0], *body[1:], doc.indent + doc.quote]
        lines[doc.start - 1 : doc.end] = literal
    return "\n".join(lines) + "\n", missing


# ---------------------------------------------------------------------------- the catalog
def catalog_path():
    return i18n.catalog_path(DOMAIN)


def read_catalog(path: Path | None = None):
    from babel.messages.pofile import read_po

    with (path or catalog_path()).open("rb") as f:
        return read_po(f, locale="zh", domain=DOMAIN)


def table(path: Path | None = None) -> dict[str, str]:
    """English paragraph -> its Chinese; empty and fuzzy entries left out."""
    return {m.id: m.string for m in read_catalog(path) if m.id and m.string and not m.fuzzy}


def update_catalog(
    ids: list[str], path: Path | None = None, domain: str = DOMAIN, locations: dict[str, list[str]] | None = None
) -> None:
    """Keep ``ids``' entries (new ones empty), drop the others; ``locations``: the files saying each id."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    path = path or catalog_path()
    old = read_catalog(path) if path.exists() else Catalog(locale="zh", domain=domain)
    new = Catalog(locale="zh", domain=domain, project="toolbox-grader", fuzzy=False, creation_date=old.creation_date)
    for msgid in ids:
        kept = old.get(msgid)
        new.add(
            msgid,
            kept.string if kept else "",
            locations=[(f, None) for f in (locations or {}).get(msgid, ())],
            auto_comments=kept.auto_comments if kept else (),
        )
    with path.open("wb") as f:
        write_po(f, new, width=0, omit_header=False, ignore_obsolete=True)


def check(folder: Path | None = None) -> list[str]:
    """What is wrong: a stub that differs from what :func:`render` writes, an id without its translation."""
    t = table()
    wrong = []
    for path in stub_files(folder) if folder else learner_files():
        src = path.read_text(encoding="utf-8")
        out, missing = render(src, t)
        wrong += [f"{path.name}: no translation for {m!r} (stubs.po)" for m in missing]
        if out != src:
            wrong.append(f"{path.name}: differs from what `make stubs` writes")
    return wrong


def main(argv: list[str]) -> int:
    """``make stubs``: the catalog from the stubs' English, then the stubs' Chinese from the catalog."""
    update_catalog(english_ids())
    t = table()
    lacking = set()
    for path in learner_files():
        src = path.read_text(encoding="utf-8")
        out, missing = render(src, t)
        lacking.update(missing)
        if out != src:
            path.write_text(out, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if lacking:
        print(f"{len(lacking)} paragraph(s) without a translation in {catalog_path().relative_to(ROOT)}")
    from grader.engine import stubs  # each stub's tree as released: an untouched stub is not run

    if stubs.write_released():
        print("wrote grader/course/released_stubs.py")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
