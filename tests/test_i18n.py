"""The message catalog (grader/i18n.py): every message of every domain translated, with the same
placeholders; the catalogs up to date with the source; the language chosen in the documented order.
Each guard is also run on a catalog or a source made wrong on purpose, to show it can fail."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from grader import i18n
from grader.course.catalog import ROOT


def untranslated(catalog: Catalog) -> list[str]:
    """What is wrong with a catalog's entries: empty or fuzzy, or another set of {placeholders}."""
    wrong = []
    for msg in catalog:
        if not msg.id:
            continue  # the header
        if not msg.string or msg.fuzzy:
            wrong.append(f"{msg.id!r}: not translated" + (" (fuzzy)" if msg.fuzzy else ""))
        elif i18n.placeholders(msg.id) != i18n.placeholders(msg.string):
            wrong.append(f"{msg.id!r}: placeholders {sorted(i18n.placeholders(msg.string))} in {msg.string!r}")
    return wrong


def extracted(paths: list[Path]) -> set[str]:
    """The message ids marked in ``paths`` (_() and N_()), as `make messages` extracts them (babel.cfg)."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, _options = parse_mapping_cfg(f)
    assert method_map == [("**.py", "python")], "babel.cfg changed: extract here as it says"
    return {m[1] for path in paths for m in extract_from_file("python", path) if isinstance(m[1], str)}


def out_of_date(domain: str, paths: list[Path] | None = None, po: Path | None = None) -> list[str]:
    with (po or i18n.catalog_path(domain)).open("rb") as f:
        in_catalog = {m.id for m in read_po(f) if m.id}
    source = extracted(i18n.domain_files(domain) if paths is None else paths)
    return [f"{m!r}: no entry (make messages)" for m in sorted(source - in_catalog)] + [
        f"{m!r}: in the catalog, gone from the source (make messages)" for m in sorted(in_catalog - source)
    ]


def _read(domain: str) -> Catalog:
    with i18n.catalog_path(domain).open("rb") as f:
        return read_po(f, locale="zh")


@pytest.mark.parametrize("domain", list(i18n.DOMAINS))
def test_every_message_is_translated_with_its_placeholders(domain):
    assert i18n.catalog_path(domain).is_file(), f"no catalog for {domain}: make messages"
    assert not untranslated(_read(domain)), f"{domain}.po:\n" + "\n".join(untranslated(_read(domain)))


@pytest.mark.parametrize("domain", list(i18n.DOMAINS))
def test_catalogs_are_up_to_date_with_the_source(domain):
    wrong = out_of_date(domain)
    assert not wrong, f"{domain}.po:\n" + "\n".join(wrong)


def test_each_file_feeds_one_catalog():
    files = [p for d in i18n.DOMAINS for p in i18n.domain_files(d)]
    assert len(files) == len(set(files)) == len(list((ROOT / "grader").rglob("*.py")))
    assert i18n.domain_of(ROOT / "grader/course/catalog.py") == "course"
    assert i18n.domain_of(ROOT / "grader/course/levels.py") == "course"
    assert i18n.domain_of(ROOT / "grader/quiz/bank/r.py") == "quiz"
    assert i18n.domain_of(ROOT / "grader/reports/html.py") == "grader"


def test_the_translation_guard_fails_on_a_wrong_catalog():
    cat = Catalog(locale="zh")
    cat.add("{n} passed", "{n} 通过")
    assert not untranslated(cat)
    cat.add("not graded yet", "")
    cat.add("{got} of {total}", "{got} / {all}")
    cat.add("timed out", "超时", flags=["fuzzy"])
    wrong = untranslated(cat)
    assert wrong == [
        "'not graded yet': not translated",
        "'{got} of {total}': placeholders ['all', 'got'] in '{got} / {all}'",
        "'timed out': not translated (fuzzy)",
    ]


def test_the_freshness_guard_names_a_message_without_entry(tmp_path):
    src = tmp_path / "mod.py"
    src.write_text('from grader.i18n import _, N_\nA = N_("kept")\nprint(_("new {x}", x=1))\n')
    cat = Catalog(locale="zh")
    cat.add("kept", "保留")
    cat.add("gone", "已删")
    po = tmp_path / "x.po"
    with po.open("wb") as f:
        write_po(f, cat)
    assert out_of_date("grader", [src], po) == [
        "'new {x}': no entry (make messages)",
        "'gone': in the catalog, gone from the source (make messages)",
    ]


def test_a_translation_is_shown_formatted(monkeypatch):
    monkeypatch.setattr(i18n, "translations", lambda lang: {"{n} passed": "{n} 通过"})
    monkeypatch.setattr(i18n, "_lang", "zh")
    assert i18n._("{n} passed", n=3) == "3 通过"
    assert i18n._("no entry {n}", n=3) == "no entry 3"  # untranslated: the English id
    monkeypatch.setattr(i18n, "_lang", "en")
    assert i18n._("{n} passed", n=3) == "3 passed"
    assert i18n.N_("{n} passed") == "{n} passed"
    assert i18n._("x = {}[0]") == "x = {}[0]"  # data without fields (code in a claim): shown as it is
    assert i18n.placeholders("a { b") == set() and i18n.placeholders("{n:.1f} of {m}") == {"n", "m"}


def test_the_real_catalogs_load():
    table = i18n.translations("zh")
    assert all(isinstance(k, str) and v for k, v in table.items())


LOCALE_VARS = ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.mark.parametrize(
    ("explicit", "env", "want"),
    [
        (None, {}, "en"),
        (None, {"LANG": "zh_CN.UTF-8"}, "zh"),
        (None, {"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"),
        (None, {"LC_MESSAGES": "zh_TW", "LC_ALL": "C"}, "en"),
        (None, {"LC_ALL": "zh_CN.UTF-8", "GRADER_LANG": "en"}, "en"),
        (None, {"LC_ALL": "", "LANG": "zh_CN.UTF-8"}, "zh"),  # an empty variable is skipped
        (None, {"GRADER_LANG": "zh"}, "zh"),
        ("en", {"GRADER_LANG": "zh", "LANG": "zh_CN.UTF-8"}, "en"),
        ("zh", {"LANG": "en_US.UTF-8"}, "zh"),
        (None, {"LANG": "fr_FR.UTF-8"}, "en"),
    ],
)
def test_detect_order(monkeypatch, explicit, env, want):
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert i18n.detect(explicit) == want


def test_use_speaks_to_child_processes(monkeypatch):
    monkeypatch.setattr(i18n, "_lang", None)
    monkeypatch.setenv("GRADER_LANG", "en")
    i18n.use("zh")  # monkeypatch puts back the language and GRADER_LANG afterwards
    assert i18n.current() == "zh"
    assert os.environ["GRADER_LANG"] == "zh"
    with pytest.raises(ValueError):
        i18n.use("fr")


def marked_inside_fstrings(path: Path) -> list[str]:
    """_("...") or N_("...") inside an f-string: Babel (Python 3.11: an f-string is one token)
    never extracts it, so it would stay English for good without a word from any test."""
    import tokenize

    with path.open("rb") as f:
        tokens = list(tokenize.tokenize(f.readline))
    return [
        f"{path.name}:{t.start[0]}"
        for t in tokens
        if t.type == tokenize.STRING
        and t.string.lstrip("rRbB").lower().startswith("f")
        and re.search(r"(?<![\w.])N?_\(\s*[rRuU]?['\"]", t.string)
    ]


def test_no_message_is_marked_inside_an_fstring(tmp_path):
    found = [hit for path in sorted((ROOT / "grader").rglob("*.py")) for hit in marked_inside_fstrings(path)]
    assert not found, f"look the message up outside the f-string (Babel cannot see it): {found}"
    bad = tmp_path / "bad.py"
    bad.write_text('x = f"[{_(\'wrote\')}]"\ny = f"{data}" + _("fine")\n')
    assert marked_inside_fstrings(bad) == ["bad.py:1"]


def test_extraction_skips_nothing(capsys, tmp_path):
    """`make messages` prints no warning: Babel warns (on stderr only) of every f-string among a _()
    call's arguments, and five such false alarms hid the real one, an f-string as the message itself."""
    files = sorted({p for domain in i18n.DOMAINS for p in i18n.domain_files(domain)})
    extracted(files)
    assert "warning" not in capsys.readouterr().err.lower(), "format the value before the _() call"
    bad = tmp_path / "bad.py"
    bad.write_text('x = _("{n} files", n=f"{count:,}")\n')
    extracted([bad])
    assert "Skipping f-string" in capsys.readouterr().err


def _one_translation_each(catalogs: dict[str, Catalog]) -> list[str]:
    said: dict[str, dict[str, str]] = {}
    for domain, cat in catalogs.items():
        for msg in cat:
            if msg.id and isinstance(msg.id, str) and msg.string:
                said.setdefault(msg.id, {})[domain] = msg.string
    return [f"{mid!r}: {by}" for mid, by in said.items() if len(set(by.values())) > 1]


def test_a_message_in_two_catalogs_has_one_translation():
    """The domains are merged at run time: an English text two catalogs translate differently
    would show whichever was read last (a quiz title and the catalog's exercise title)."""
    catalogs = {}
    for domain in i18n.DOMAINS:
        with i18n.catalog_path(domain, "zh").open("rb") as f:
            catalogs[domain] = read_po(f, locale="zh")
    assert not _one_translation_each(catalogs)
    a, b = Catalog(locale="zh"), Catalog(locale="zh")
    a.add("Where did the step's time go", "这一步的时间花在哪里了")
    b.add("Where did the step's time go", "一步的时间花在哪了")
    assert _one_translation_each({"course": a, "quiz": b})  # the guard bites


def test_a_message_is_kept_as_its_id_and_fields_and_said_again_in_the_other_language(monkeypatch):
    """A check's verdict is stored as msgid + fields (plain JSON) and shown in the reader's language,
    whichever language the check process spoke: results are cached, and read later."""
    import json

    from grader.engine.results import ExerciseResult, KeyPointResult

    table = {
        "{what} must be an int": "{what} 必须是 int",
        "your code raised {type}: {message}": "你的代码抛出了 {type}：{message}",
    }
    monkeypatch.setattr(i18n, "translations", lambda lang: table)
    monkeypatch.setattr(i18n, "_lang", "zh")
    said = i18n._("{what} must be an int", what="f(2)")
    assert said == "f(2) 必须是 int" and said.message.data() == {
        "msgid": "{what} must be an int",
        "fields": {"what": "f(2)"},
    }
    nested = i18n._("your code raised {type}: {message}", type="ValueError", message=said)
    res = ExerciseResult(
        "A3", "graded", [KeyPointResult("k", "error", nested, got=i18n._("{what} must be an int", what=3))]
    )
    stored = json.loads(json.dumps(res.to_dict()))  # the cache's and the results log's form
    assert stored["key_points"][0]["message"]["fields"]["message"]["msgid"] == "{what} must be an int"
    monkeypatch.setattr(i18n, "_lang", "en")
    back = ExerciseResult.from_dict(stored).key_points[0]
    assert back.message == "your code raised ValueError: f(2) must be an int" and back.got == "3 must be an int"
    assert i18n.show(back.message, "zh") == "你的代码抛出了 ValueError：f(2) 必须是 int"
    # free text (the learner's own exception message, an older cache entry) stays as it was
    old = {**stored["key_points"][0], "message": "your code raised ValueError: boom", "got": None}
    assert ExerciseResult.from_dict({**stored, "key_points": [old]}).key_points[0].message == old["message"]
    assert i18n.show("boom", "zh") == "boom" and i18n.show(i18n.either(en="left", zh="左"), "zh") == "左"


def test_a_number_field_stored_as_text_is_shown_rather_than_failing():
    """A field kept as its text (a tensor, a numpy value) where the message formats a number."""
    data = {"msgid": "max abs error {worst:.3g}", "fields": {"worst": "tensor(0.5)"}}
    assert i18n.show(data, "en") == "max abs error tensor(0.5)"
    assert i18n.show({**data, "fields": {"worst": 0.123456}}, "en") == "max abs error 0.123"


def unfilled(path: Path) -> list[str]:
    """_("...", k=v) calls whose message names a placeholder no field fills, or a field it never
    shows: a KeyError the first time the check fails (messages are formatted only on a failure)."""
    import ast

    wrong = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"):
            continue
        if not node.keywords or not node.args or not isinstance(node.args[0], ast.Constant):
            continue
        if any(k.arg is None for k in node.keywords):
            continue  # **fields: not decidable here
        given = {k.arg for k in node.keywords}
        if i18n.placeholders(node.args[0].value) != given:
            wrong.append(
                f"{path.name}:{node.lineno}: {sorted(i18n.placeholders(node.args[0].value))} vs {sorted(given)}"
            )
    return wrong


def test_every_message_is_given_the_fields_it_shows(tmp_path):
    found = [hit for path in sorted((ROOT / "grader").rglob("*.py")) for hit in unfilled(path)]
    assert not found, found
    bad = tmp_path / "bad.py"
    bad.write_text('_("{what} must be an int", what=1)\n_("{what} of {n}", what=1)\n_("{a}", a=1, b=2)\n')
    assert unfilled(bad) == ["bad.py:2: ['n', 'what'] vs ['what']", "bad.py:3: ['a'] vs ['a', 'b']"]


# What a check or the engine says (checking.py's fail, expect_equal: the what, expected, got, hint and
# example; a result's message and note) is a catalog message or code, never English built in place: an
# f-string or a literal with words ("{n} epochs", "identical") stays English under --lang zh, and a
# message joined to text with + ("..." + HINT) is stored as the text of the language it was built in.
_SAYS = {
    "fail": (0, 1, 2, 3, 4),
    "expect_equal": (2, 3, 4),
    "KeyPointFailure": (0, 1, 2, 3, 4),
    "KeyPointResult": (2, 3, 4, 5, 6),
    "ExerciseResult": (4,),
}
_SAID_KEYWORDS = {"what", "hint", "example", "message", "note"}
# Code and units are not words: calls, dotted names, key=value, a/b, quoted or bracketed code.
_CODE = re.compile(r"\w+(?:\.\w+)+|\w+ ?= ?\S*|\w+/\w+|'[^']*'|\"[^\"]*\"|`[^`]*`|\[[^\]]*\]|\w+\([^()]*\)")
_UNITS_AND_NAMES = {"ms", "us", "GB", "MB", "KB", "GiB", "MiB", "KiB", "TB", "FLOP", "torchrun"}
_TYPES = {"int", "float", "str", "bool", "dict", "list", "tuple", "torch", "None"}


def _literal_words(node) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = " {} ".join(v.value for v in node.values if isinstance(v, ast.Constant))
    else:
        return []
    for _round in range(3):  # calls inside calls
        text = _CODE.sub(" ", text)
    return [w for w in re.findall(r"(?<![\w.])[A-Za-z]{2,}(?![\w(])", text) if w not in _UNITS_AND_NAMES | _TYPES]


def _joined(node) -> bool:
    """Text joined with +: a literal, an f-string or a catalog message as one side of it."""
    return any(
        isinstance(n, ast.BinOp)
        and isinstance(n.op, ast.Add)
        and any(
            isinstance(side, ast.JoinedStr)
            or isinstance(side, ast.Constant)
            and isinstance(side.value, str)
            or isinstance(side, ast.Call)
            and getattr(side.func, "id", None) == "_"
            for side in (n.left, n.right)
        )
        for n in _outside_messages(node)
    )


def _outside_messages(node):
    """``node`` and what it holds, a catalog message's fields aside (code: f"{atol:g}" + ...)."""
    yield node
    if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_"):
        for child in ast.iter_child_nodes(node):
            yield from _outside_messages(child)


def english_said_in_place(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        name = getattr(node, "func", None) and getattr(node.func, "id", getattr(node.func, "attr", None))
        if not isinstance(node, ast.Call) or name not in _SAYS:
            continue
        said = [a for i, a in enumerate(node.args) if i in _SAYS[name]]
        said += [k.value for k in node.keywords if k.arg in _SAID_KEYWORDS]
        for arg in said:
            if _literal_words(arg) or _joined(arg):
                found.append(f"{path.name}:{arg.lineno}")
    return found


def test_no_check_says_english_outside_the_catalog(tmp_path):
    found = [hit for path in sorted((ROOT / "grader").rglob("*.py")) for hit in english_said_in_place(path)]
    assert not found, f"say it through the catalog, _('{{n}} epochs', n=n), not in an f-string or with +: {found}"
    bad = tmp_path / "bad.py"
    bad.write_text(
        'fail(what, f"{n} epochs", got)\nfail(what, "identical", got)\nfail(what, x, y, _("see ") + HINT)\n'
        'fail(f"{fn}(x)", "list[str]", f"{got:.3f} ms", "hashlib.sha256(open(path, \'rb\').read())")\n'
        'expect_equal(got, "fits", _("{n} epochs", n=n))\n'
        'ExerciseResult(ex, "not_available", note="not available yet")\n'
    )
    assert english_said_in_place(bad) == ["bad.py:1", "bad.py:2", "bad.py:3", "bad.py:6"]
