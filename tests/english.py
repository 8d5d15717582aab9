"""English left in Chinese text (issue 24): the one detector of tests/test_report_lang.py (the
reports), tests/test_i18n_course.py (the course's catalog) and tests/test_stub_docs.py (the
stubs' code literals).

A sentence is three or more plain words in a row (letters only, in lower case, Capitalised or
all caps: CamelCase identifiers, paths, numbers and a.b or x=y code are not words), separated by
spaces and a comma, semicolon or colon; quoted code ('x', "x", `x`), a call's arguments and a
tuple, the course's own quotes (「...」), :data:`NAMES` and the caller's ``foreign`` texts are
taken out first. An apostrophe inside a word ("the model's") opens no quote. Inside a code
literal two words in a row are already prose (:func:`prose_in_code`)."""

from __future__ import annotations

import keyword
import re

# Quoted code and the course's quotes; a quote mark right after or before a letter is an apostrophe.
QUOTED = re.compile(r"`[^`\n]*`|(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])|\"[^\"\n]*\"|「[^」\n]*」")
# Words the learner meets in English whatever the language: an error message's own text.
NAMES = ("CUDA out of memory",)
# lower case, Capitalised or ALL CAPS (the model's, don't); CamelCase is an identifier (SyntaxError)
WORD = r"(?:[A-Z]?[a-z]+|[A-Z]+)(?:'[a-z]+)?"
SENTENCE = re.compile(rf"(?<![\w./-]){WORD}(?:[,;:]?[ \t]+{WORD}){{2,}}(?![\w/-])")


# Code that is not quoted: a call's arguments, imap(tokenize, texts, chunksize=...), and a tuple of
# single tokens, (B, heads, T, T).
CODE = re.compile(r"(?<=\w)\([^()\n]*\)|\((?:\s*[\w*+/.-]+\s*,)+\s*[\w*+/.-]*\s*\)")


def english_sentences(text: str, foreign: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Runs of >= 3 English words in ``text``, outside quoted code, unquoted calls and tuples, NAMES
    and the ``foreign`` texts; a run of one-letter words is algebra (``B A x``), not a sentence."""
    for piece in sorted({*foreign, *NAMES}, key=len, reverse=True):
        if piece:
            text = text.replace(piece, " ")
    runs = SENTENCE.findall(CODE.sub(" ", QUOTED.sub(" ", text)))
    return [run for run in runs if any(len(word) > 1 for word in re.findall(WORD, run))]


# In code (a stub's ``literal``) a comma separates items, so any punctuation breaks a run, as do
# Python's keywords and the literal's own strings: ``[busy(n) for n in tasks]`` is code.
_STRING = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\\s]|\\.)*'")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_']*|\S")


def prose_in_code(literal: str) -> list[str]:
    """Runs of >= 2 English words in a code literal, outside its strings."""
    runs, run = [], []
    for token in [*_TOKEN.findall(_STRING.sub(" ; ", literal)), ";"]:
        if re.fullmatch(r"[A-Za-z][A-Za-z']*", token) and not keyword.iskeyword(token):
            run.append(token)
            continue
        if len(run) >= 2:
            runs.append(" ".join(run))
        run = []
    return runs
