"""`grader --help` and every subcommand's help speak the detected language, argparse's own words
("usage:", "options", "show this help message and exit", its errors) included: argparse looks them
up through gettext when it shows them, and grader.cli hands it the catalog's (ARGPARSE_WORDS)."""

from __future__ import annotations

import pytest

from grader import cli, i18n
from tests.english import english_sentences

COMMANDS = [[], ["grade"], ["list"], ["classroom"], ["batch"], ["job"], ["gradescope"], ["quiz"]]


@pytest.fixture
def speak(monkeypatch):
    """The language the CLI detects (GRADER_LANG), restored after the test: main() calls i18n.use."""

    def to(code: str) -> None:
        monkeypatch.setenv("GRADER_LANG", code)
        monkeypatch.setattr(i18n, "_lang", None)

    return to


def _help(args: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as done:
        cli.main([*args, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "grader")
def test_every_help_page_in_chinese(speak, capsys, args):
    speak("zh")
    page = _help(args, capsys)
    assert page.startswith("用法：grader") and "显示本帮助并退出" in page and "选项" in page
    assert not english_sentences(page), english_sentences(page)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "grader")
def test_every_help_page_in_english_as_before(speak, capsys, args):
    speak("en")
    page = _help(args, capsys)
    assert page.startswith("usage: grader") and "show this help message and exit" in page and "options:" in page


def test_lang_on_the_command_line_chooses_the_help_language(speak, capsys):
    speak("en")
    assert "用法：grader grade" in _help(["grade", "--lang", "zh"], capsys)
    speak("zh")
    assert "usage: grader quiz" in _help(["quiz", "--lang=en"], capsys)


def test_argparse_errors_in_chinese(speak, capsys):
    speak("zh")
    with pytest.raises(SystemExit) as done:
        cli.main(["grade", "--bogus"])
    assert done.value.code == 2 and "grader：错误：不认识的参数：--bogus" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["lst"])
    err = capsys.readouterr().err
    assert "无效的选择：'lst'" in err and not english_sentences(err), err
