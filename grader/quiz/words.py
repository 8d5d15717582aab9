"""The quiz's words in a sitting's language. Every interface text of grader/quiz/ is an English
message id marked with ``N_`` (grader.i18n; its Chinese is in grader/locale/zh/LC_MESSAGES/quiz.po)
and rendered here in the language the sitting speaks: a sitting, a notebook's ``ask()`` or a test
may speak a language other than the process's (:func:`grader.i18n.current`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.i18n import lookup


def say(lang: str, msgid: str, /, **fields: object) -> str:
    """``msgid`` in ``lang``, its ``{placeholders}`` filled from ``fields`` (a :class:`Msg` field is
    said in ``lang`` too: "{unit!r} is {got}", got a dimension's name)."""
    return lookup(msgid, lang).format(**{k: v.text(lang) if isinstance(v, Msg) else v for k, v in fields.items()})


@dataclass(frozen=True)
class Msg:
    """A message said later, in the language of whoever shows it (a refusal, a slip's name)."""

    msgid: str
    fields: dict = field(default_factory=dict)

    def text(self, lang: str) -> str:
        return say(lang, self.msgid, **self.fields)

    @property
    def en(self) -> str:
        return self.text("en")

    @property
    def zh(self) -> str:
        return self.text("zh")
