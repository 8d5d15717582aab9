"""The documentation: the README routes in one screen, docs/ teaches, and both say what the code does.

The site is built as a maintainer builds it (``mkdocs build --strict``, mkdocs.yml): a broken link,
a missing anchor or a page left out of the nav fails. The figures are ``make bench``'s, rendered
from scripts/bench-run.json, never typed (issue 25, issue 30)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from grader import cli
from grader.course.catalog import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"


def build(config, site) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(site)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def nav_pages() -> list[str]:
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    return [page for entry in nav for page in entry.values()]


def bench():
    spec = importlib.util.spec_from_file_location("bench", ROOT / "scripts" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_builds_strictly(tmp_path):
    done = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(nav_pages())


@pytest.mark.parametrize(
    "break_it, why",
    [
        (lambda docs: (docs / "orphan.md").write_text("# Not in the nav\n"), 'not included in the "nav"'),
        (lambda docs: (docs / "index.md").open("a").write("\n[gone](no-such-page.md)\n"), "not found"),
        (lambda docs: (docs / "index.md").open("a").write("\n[gone](learning.md#no-such-heading)\n"), "anchor"),
    ],
    ids=["page left out of the nav", "broken link", "broken anchor"],
)
def test_the_strict_build_fails_on(tmp_path, break_it, why):
    """The guard above is mkdocs.yml's validation settings: without them each of these builds."""
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(DOCS, tmp_path / "docs")
    break_it(tmp_path / "docs")
    done = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0 and why in done.stderr, done.stderr


def test_the_readme_is_one_screen_that_routes():
    text = README.read_text()
    assert len(text.splitlines()) <= 60, "the README routes in one screen; what it teaches goes in docs/"
    for command in ("make grade", "make test", "make quiz"):
        assert command in text
    assert "Linux" in text and "Python 3.11" in text and all(w in text for w in ("seccomp", "pivot_root", "/proc"))
    links = set(re.findall(r"\]\((docs/[^)#]+)", text))
    assert {f"docs/{page}" for page in nav_pages() if page != "index.md"} <= links
    assert all((ROOT / link).is_file() for link in links), links


def test_the_figures_are_the_bench_output():
    """docs/performance.md's table and the README's first-run line are scripts/bench.py's rendering
    of one run's rows (scripts/bench-run.json, written by ``scripts/bench.py --json``)."""
    b = bench()
    run = json.loads((ROOT / "scripts" / "bench-run.json").read_text())
    refresh = "run scripts/bench.py --render scripts/bench-run.json"
    assert b.render(run) in (DOCS / "performance.md").read_text(), refresh
    assert b.render_first_run(run) in README.read_text(), refresh
    assert any(r["target"] for r in run["rows"]) and any(r["unit"] == "MiB" for r in run["rows"])
    assert {b.VENV_SIZE, b.MODEL_CACHE_SIZE} <= {r["what"] for r in run["rows"]}


def test_the_first_run_line_says_what_the_run_did_not_measure():
    """A reduced run times no full grade and may have built no model cache: the line says so
    rather than print 0 or leave the figure out."""
    b = bench()

    def line(**values) -> str:
        units = {b.VENV_SIZE: "MiB", b.MODEL_CACHE_SIZE: "MiB", b.COLD_GRADE: "s"}
        rows = [
            {"what": what, "value": values[key], "unit": units[what]}
            for key, what in (("venv", b.VENV_SIZE), ("cache", b.MODEL_CACHE_SIZE), ("cold", b.COLD_GRADE))
            if key in values
        ]
        return " ".join(b.render_first_run({"date": "today", "machine": "here", "rows": rows}).split())

    reduced = line(venv=2000.0, cache=0.0)
    assert "the venv 2000 MiB" in reduced and "model cache not built" in reduced and "full grade not timed" in reduced
    full = line(venv=2000.0, cache=517.0, cold=300.0)
    assert "first full grade 300.0 s" in full and "model cache 517 MiB" in full


def test_the_module_map_names_the_clis_commands(capsys):
    """The map's line for grader/cli.py lists the commands `grader --help` shows, no more, no fewer."""
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    shown = set(re.search(r"\{([\w,]+)\}", capsys.readouterr().out).group(1).split(","))
    line = next(t for t in (DOCS / "architecture.md").read_text().splitlines() if t.startswith("grader/cli.py"))
    listed = set(re.search(r"`grader ([^`]+)`", line).group(1).replace(" ", "").split("|"))
    assert listed == shown


def given_to_the_learner() -> dict[str, set[str]]:
    """docs/security.md's "What the learner's process is given": each bullet's backquoted names."""
    section = (DOCS / "security.md").read_text().split("### What the learner's process is given", 1)[1]
    bullets = re.findall(r"^- \*\*(.+?)\*\*(.*?)(?=^- \*\*|\Z)", section, re.M | re.S)
    return {head.split(",")[0]: set(re.findall(r"`([^`]+)`", body)) for head, body in bullets}


def test_the_security_doc_lists_exactly_what_the_sandbox_gives():
    """The environment and the file system the learner's process gets, as the doc lists them, are
    the code's (learner_env and Sandbox.view's constants): a name added to either side alone fails."""
    from grader.isolation import learner, sandbox

    doc = given_to_the_learner()
    env = set(learner.learner_env("/work")) | set(learner.LOCALE)  # the locale's only where the grader has it
    assert {n for n in doc["Environment"] if n.isupper()} == env
    read_only = {n for n in doc["Read-only"] if n.startswith(("/", "grader/", "solutions"))}
    assert read_only == {*sandbox.SYSTEM, *(f"/etc/{n}" for n in sandbox.ETC), *sandbox.LEARNER_VISIBLE, "solutions"}
    assert {"sys.base_prefix", "sys.prefix"} <= doc["Read-only"]
    assert doc["Its own"] == {"/tmp", "/dev/shm", sandbox.WORK_SIZE, sandbox.TMP_SIZE, sandbox.SHM_SIZE}
    view = sandbox.Sandbox(1 << 30).view()
    devices = {
        path.removeprefix("/dev/") for kind, _src, path in view if kind in ("dev", "link") and path.startswith("/dev/")
    }
    assert doc["Fresh"] - {"/proc", "/dev", "/proc/self/fd"} == set(sandbox.DEVICES) | devices
    tmpfs = {path: options.split(",")[0] for kind, options, path in view if kind == "tmpfs"}
    assert tmpfs["/tmp"] == f"size={sandbox.TMP_SIZE}" and tmpfs["/dev/shm"] == f"size={sandbox.SHM_SIZE}"


def test_the_bench_starts_ray_as_the_tests_do(monkeypatch):
    """The Ray row's head is started with the tests' settings (token auth off on loopback): without
    RAY_AUTH_MODE=disabled a recent Ray's local head refuses the driver and the row is missing."""
    import types

    from grader.classroom import raypool

    seen = {}
    fake = types.SimpleNamespace(init=lambda **kw: seen.update({k: os.environ.get(k) for k in raypool.LOCAL_HEAD_ENV}))
    monkeypatch.setitem(sys.modules, "ray", fake)
    for k in raypool.LOCAL_HEAD_ENV:
        monkeypatch.delenv(k, raising=False)
    bench().start_local_ray()
    assert seen == raypool.LOCAL_HEAD_ENV


def test_the_classroom_page_names_every_csv_column_the_code_writes(tmp_path):
    """docs/classroom.md's column list is analytics.columns_doc(), and those columns are the ones
    written: the class report's CSVs and grader batch's levels.csv, from a made-up class."""
    import csv

    from grader.classroom import analytics, batch
    from tests.test_analytics import class_results

    page = (DOCS / "classroom.md").read_text()
    assert analytics.columns_doc() in page, "paste analytics.columns_doc() into docs/classroom.md"
    columns = analytics.csv_columns()
    jobs = class_results()
    analytics.write(analytics.from_jobs(jobs, "class/"), tmp_path)
    for name in analytics.REPORT_CSVS:
        with (tmp_path / name).open(encoding="utf-8") as f:
            assert next(csv.reader(f)) == columns[f"class-report/{name}"], name
    batch.write_csv(batch.summarize_class(jobs), tmp_path / "levels.csv")
    with (tmp_path / "levels.csv").open() as f:
        assert next(csv.reader(f)) == columns["levels.csv (grader batch --out)"]
