"""The report speaks the learner's language (grader.i18n): with ``--lang zh`` the report's own words
(headings, columns, statuses, labels, the level box, the CLI's lines) hold no English sentence; with
``--lang en`` it reads as it always did. Text from the course's catalog (titles, claims, re-read
places: wt-course-zh's catalog) is taken out before looking; what the checks and the engine say
(their fail(...) messages, the failing input, timeouts, forbidden calls) is looked at too: a grade
of failing answers of every kind, in Chinese."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from rich.console import Console

from grader import i18n
from grader.course import catalog, levels
from grader.course.catalog import ROOT
from grader.reports import html as html_report, terminal as report
from tests.english import english_sentences
from tests.test_reports import sample_results


def not_ours(results) -> set[str]:
    """What the course's catalog and the checks wrote, in English and as shown now."""
    texts = [*catalog.SET_TITLES.values(), *catalog.PART_TITLES.values()]
    for ex in catalog.CATALOG:
        texts += [ex.title] + [t for kp in ex.key_points for t in (kp.claim, kp.reread, kp.lesson)]
    for res in results.values():
        texts += [t or "" for k in res.key_points for t in (k.message, k.hint, k.example, k.got, k.expected)]
    return {t for t in texts if t} | {i18n._(t) for t in texts if t}


def test_the_detector_finds_sentences_and_skips_code_names_and_numbers():
    assert english_sentences("已写入 grade-report.json: wrote the report") == ["wrote the report"]
    assert english_sentences("the expected value is") == ["the expected value is"]
    clean = "用 `grader grade --reveal` 与 broadcast_shape((2,), (2, 2))；/tmp/a/b c d；A ≥ 8、R 0/12；'not my words'"
    assert english_sentences(clean) == []
    assert english_sentences("A3 Broadcast the shapes 尚未实现", {"Broadcast the shapes"}) == []
    # the strictest of the three detectors it replaced: all-caps words, commas, an apostrophe is no quote
    assert english_sentences("GPU and CPU 都是") == ["GPU and CPU"]
    assert english_sentences("报告：the model's weights, don't move 了") == ["the model's weights, don't move"]
    assert english_sentences("x=1 runs anyway here") == ["runs anyway here"]
    assert english_sentences("SyntaxError: invalid syntax") == []  # an identifier and two words


def _rendered(quiz: bool) -> tuple[dict, str, str, str]:
    results = sample_results()
    outcomes = {k: r.outcome() for k, r in results.items() if r.available}
    cs = [ex.id for ex in catalog.CATALOG if ex.set == "C"]
    counts = levels.QuizCounts(
        (3, 12), (1, 10), (0, 5), dict.fromkeys(cs, (1, 5)), dict.fromkeys(cs, (1, 7)), "ada", 4, "/x/q.sqlite"
    )
    summary = levels.summarize(outcomes, quiz=counts if quiz else None)
    console = Console(record=True, width=1000, color_system=None)
    report.print_report(results, summary, console, target="exercises")
    page = html_report.render(results, summary, "exercises")
    data = json.dumps(report.gradescope_json(results, summary, 1.0), ensure_ascii=False)
    return results, console.export_text(), page, data


def _page_text(page: str) -> str:
    # the missing-font notice is hidden where the page can draw Chinese, and bilingual by design
    page = re.sub(r"<(style|script)[^>]*>.*?</\1>|<img[^>]*>|<p id='no-cjk' hidden.*?</p>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("quiz", [False, True], ids=["code", "with-quiz"])
def test_the_chinese_report_has_no_english_sentence(speak, quiz):
    speak("zh")
    results, text, page, data = _rendered(quiz)
    foreign = not_ours(results)
    for where, shown in (("terminal", text), ("html", _page_text(page)), ("json", data)):
        assert not english_sentences(shown, foreign), f"{where}: {english_sentences(shown, foreign)}"
    assert "<html lang='zh-CN'>" in page and '"Noto Sans CJK SC"' in page and "sans-serif" in page
    assert "要改的地方与要重读的位置" in text and "期望：" in text and "掌握情况" in text


def test_the_detector_fails_on_the_english_report(speak):
    # The same check on the English report: it can fail, on exactly these outputs.
    speak("en")
    results, text, page, _data = _rendered(True)
    assert english_sentences(text, not_ours(results)) and english_sentences(_page_text(page), not_ours(results))
    assert "<html lang='en'>" in page and "What to fix and re-read" in text and "expected: (2, 2)" in text


def _grade(tmp_path, lang: str, target: str = "exercises", extra: list[str] = ()) -> tuple[str, str, dict]:
    env = {**os.environ, "COLUMNS": "1000", "GRADER_LANG": "en" if lang == "zh" else "zh"}  # --lang wins
    out = subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--target", target, "--no-quiz", "--lang", lang]
        + (list(extra) or ["--only", "A3"])
        + ["--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout, (tmp_path / "r.html").read_text(), json.loads((tmp_path / "r.json").read_text())


def test_grading_the_stubs_in_chinese(tmp_path):
    stdout, page, data = _grade(tmp_path, "zh")
    _assert_no_english_sentence(stdout, page, data)
    assert "尚未实现" in stdout and "掌握情况" in stdout and "<html lang='zh-CN'>" in page


def _assert_no_english_sentence(stdout, page, data, clean=lambda shown: shown, own=frozenset()) -> None:
    """No English sentence in the terminal, HTML or JSON report of a Chinese grade; the catalog's
    texts as the Chinese report shows them (names, quoted code) and ``own`` (the answers' own words) aside."""
    i18n.use("zh")
    try:
        foreign = {t for t in not_ours({}) if t}
    finally:
        i18n.use("en")
    for where, shown in (
        ("terminal", stdout),
        ("html", _page_text(page)),
        ("json", json.dumps(data, ensure_ascii=False)),
    ):
        found = [s for s in english_sentences(clean(shown), foreign) if s not in own]
        assert not found, f"{where}: {found}"


def _answers(tmp_path) -> dict[str, str]:
    """Failing answers of each kind: a registered wrong answer, one that raises, one that does not
    import, one that hangs, one that calls what its stub forbids (exercise -> file)."""
    stub = lambda name: (ROOT / "exercises" / f"{name}.py").read_text()  # noqa: E731
    files = {
        "A2": ROOT / "solutions/mutants/a2_nbytes_index/bf16_four_bytes.py",  # wrong answer, a named mistake
        "A3": "import numpy as np\n\n\ndef broadcast_shape(a, b):\n    return tuple(np.broadcast_shapes(a, b))\n",
        "A5": stub("a5_first_loss") + "\ndef broken(:\n",  # does not import
        # a named mistake from a docstring, a non-finite count, a shape in the title (issue 24's learner)
        "P1": ROOT / "solutions/mutants/p1_causal_attention/naive_exp.py",
        "A9": ROOT / "solutions/mutants/a9_kv_cache/n_heads_not_kv.py",  # a config cut short in the input
        "C6": stub("c6_trustworthy"),  # a check that once parsed its own translated words
        "X2": stub("x2_silent_broadcast")
        .replace('raise NotImplementedError("X2: naive_mse")', "while True:\n        pass")
        .replace(  # refuses what it must refuse, then raises where it must answer
            'raise NotImplementedError("X2: safe_mse")',
            'if pred.shape != target.shape:\n        raise ValueError("shapes")\n    raise RuntimeError("boom")',
        ),
    }
    out = {}
    for ex_id, body in files.items():
        if isinstance(body, str):
            path = tmp_path / f"{ex_id.lower()}_answer.py"
            path.write_text(body)
            body = path
        out[ex_id] = str(body)
    return out


def test_grading_failing_answers_in_chinese(tmp_path):
    """Every kind of failure, in Chinese, with the hints revealed: what the checks and the engine
    say (their messages, the failing input, the named mistake) holds no English sentence."""
    answers = _answers(tmp_path)
    stdout, page, data = _grade(
        tmp_path,
        "zh",
        target="solutions",
        extra=["--only", ",".join(answers), "--reveal", "--fresh"]
        + [f"--override={k}={v}" for k, v in answers.items()],
    )
    _assert_no_english_sentence(stdout, page, data, _no_tracebacks, LEARNERS_OWN)
    statuses = {t["name"]: t["output"].split(":")[0] for t in data["tests"] if t.get("status") == "failed"}
    for said in ("答案错误", "你的代码抛出异常", "无法导入", "超时", "调用了练习禁止的函数"):
        assert any(said in s for s in statuses.values()), (said, statuses)
    assert "出错的输入：" in stdout and "你的结果：" in stdout
    assert "评分器自身出错" not in stdout and "朴素的 softmax" in stdout, stdout


# What the failing answers themselves print (their exception's text) is theirs, not the grader's.
LEARNERS_OWN = {"boom"}


def _no_tracebacks(text: str) -> str:
    """A Python traceback is code (file names, lines of the learner's source), not a sentence."""
    return re.sub(r'(?m)^.*(File "[^"]*", line \d+.*|Traceback \(most recent call last\):|^\s{4,}\S.*)$', " ", text)


def test_grading_the_stubs_in_english_reads_as_before(tmp_path):
    stdout, page, data = _grade(tmp_path, "en")
    assert "not implemented yet" in stdout and "What to fix and re-read" in stdout and "Mastery — exercises" in stdout
    assert "re-read:  " in stdout and "pass line (A ≥ 8, B ≥ 4, each C ≥ 1/2 of its key points): not met" in stdout
    assert "<html lang='en'>" in page and data["output"].startswith("Level: none; pass line not met")


@pytest.mark.parametrize(
    ("env", "args"),
    [({"LANG": "zh_CN.UTF-8"}, []), ({"LANG": "C.UTF-8"}, ["GRADER_LANG=zh"])],
    ids=["locale", "variable"],
)
def test_make_grade_follows_the_locale_and_grader_lang(env, args):
    base = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    run = subprocess.run(
        ["make", "-s", "grade", "ONLY=A3", *args],
        cwd=ROOT,
        env={**base, **env, "COLUMNS": "1000"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert "掌握情况" in run.stdout and "Mastery" not in run.stdout


@pytest.mark.parametrize(
    ("code", "title", "legend"), [("zh", "各篇的要点", "通过"), ("en", "Key points per course part", "passed")]
)
def test_the_chart_speaks_the_reports_language_as_text(speak, code, title, legend):
    """The chart's words are the report's, kept as text in the SVG: the reader's browser draws them
    in its fonts (a machine without a CJK font is told so: the next test), never boxes in a picture."""
    speak(code)
    chart = html_report._parts_chart(sample_results())
    words = set(re.findall(r"<text[^>]*>([^<]*)</text>", chart))
    assert {title, legend, i18n._("key points"), f"3. {i18n._(catalog.PART_TITLES[3])}"} <= words, words


def _fonts_conf(tmp_path, dirs: list[str]) -> str:
    conf = tmp_path / "fonts.conf"
    body = "".join(f"<dir>{d}</dir>" for d in dirs)
    conf.write_text(f'<?xml version="1.0"?><fontconfig>{body}<cachedir>{tmp_path / "fc-cache"}</cachedir></fontconfig>')
    return str(conf)


def _has_cjk_font() -> bool:
    found = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, check=False)
    return bool(found.stdout.strip())


@pytest.mark.parametrize("fonts", ["none", "system"])
def test_chromium_shows_the_missing_font_notice_only_without_a_cjk_font(speak, tmp_path, fonts):
    """grade-report.html in real headless Chromium (scripts/check_report_renders.sh): with fontconfig
    pointed at an empty font folder the page's script shows the notice; with the machine's fonts,
    a CJK one among them (Debian: fonts-noto-cjk), it stays hidden."""
    if shutil.which("chromium") is None:
        pytest.skip("headless Chromium is not installed here (Debian: apt install chromium)")
    env = {**os.environ}
    if fonts == "none":
        (tmp_path / "no-fonts").mkdir()
        env["FONTCONFIG_FILE"] = _fonts_conf(tmp_path, [str(tmp_path / "no-fonts")])
    else:
        if shutil.which("fc-list") is None or not _has_cjk_font():
            pytest.skip("no CJK font installed here (Debian: apt install fonts-noto-cjk)")
        env.pop("FONTCONFIG_FILE", None)
    speak("zh")
    results = sample_results()
    summary = levels.summarize({k: r.outcome() for k, r in results.items() if r.available})
    page = tmp_path / "grade-report.html"
    page.write_text(html_report.render(results, summary, "exercises"))
    shot, dom = tmp_path / "shot.png", tmp_path / "dom.html"
    subprocess.run(
        ["bash", str(ROOT / "scripts" / "check_report_renders.sh"), str(page), str(shot), str(dom)],
        env=env,
        check=True,
        capture_output=True,
        timeout=180,
    )
    (notice,) = re.findall(r'<p id="no-cjk"[^>]*>', dom.read_text())
    assert ("hidden" not in notice) == (fonts == "none"), notice


def test_the_courses_latex_reads_as_text():
    from grader.course.tex import plain

    assert plain("「ci95 \\(= 1.96\\sqrt{\\hat p(1 - \\hat p)/n}\\)」") == "「ci95 = 1.96√(p̂(1 - p̂)/n)」"
    assert plain("float32 约 \\(10^{-6}\\)，\\(QK^T\\)") == "float32 约 10⁻⁶，QKᵀ"
    assert plain("no formula: 2^30 B") == "no formula: 2^30 B"  # only inside \( \)


@pytest.mark.parametrize("code", ["zh", "en"])
def test_the_reports_course_line_shows_no_latex(speak, code):
    from grader.engine.results import KeyPointResult

    speak(code)
    ex = catalog.get("A5")
    point = next(p for p in ex.key_points if "\\(\\ln V\\)" in p.lesson)
    text = report.feedback(ex, KeyPointResult(point.id, "failed", "x", lesson=point.lesson))
    (line,) = [ln for ln in text.splitlines() if ln.startswith(report.tag("course:"))]
    assert "\\(" not in line and "\\ln" not in line and "「第一步 loss 该是 ln V」" in line, line
