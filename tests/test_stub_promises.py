"""What a stub promises about the learner's environment holds where the learner's code runs (issue
23: C6's stub promised "the git checkout of the working directory"; in the sandbox the working
folder is empty and no repository, and an answer that followed the stub crashed).

- the working folder: the sandbox gives the learner an empty work folder as its cwd, so no stub may
  promise anything of it (a checkout, files, a repository);
- a repository "owned by another user than the one running your code" (C6, P5): the check's
  repository (truth/experiments.git_repo) is readable by another user id, gives git's HEAD there
  once told it is safe, and is refused otherwise, as the stubs say;
- packages a stub says are installed import in the sandbox's interpreter.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

from grader.checks.truth.experiments import git_repo
from grader.course import catalog
from grader.course.catalog import ROOT

STUBS = sorted((ROOT / "exercises").glob("[a-z]*.py"))
CWD_PROMISE = re.compile(r"(working|current) (directory|folder)|\bcwd\b|checkout", re.I)


@pytest.mark.parametrize("stub", STUBS, ids=[p.stem for p in STUBS])
def test_no_stub_promises_anything_of_the_working_folder(stub):
    found = CWD_PROMISE.findall(stub.read_text(encoding="utf-8"))
    assert not found, f"{stub.name} promises something of the learner's working folder, empty in the sandbox: {found}"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run git as another user")
def test_repository_owned_by_another_user_reads_as_promised():
    parent = tempfile.mkdtemp()  # pytest's tmp_path sits under a folder only root may enter
    os.chmod(parent, 0o755)
    repo, head = git_repo(parent, "# run\n")
    nobody = 65534

    def as_other(*args):
        return subprocess.run(
            ["git", *args, "-C", repo, "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            user=nobody,
            group=nobody,
            env={"PATH": os.environ["PATH"], "HOME": "/tmp"},
        )

    assert os.stat(repo).st_uid != nobody
    told = as_other("-c", "safe.directory=*")
    assert told.returncode == 0 and told.stdout.strip() == head, told.stderr
    refused = as_other()
    shutil.rmtree(parent)
    assert refused.returncode != 0, "git read another user's repository without being told it is safe"


INSTALLED = {"P4": ("torch", "transformers", "peft")}  # "torch, transformers and peft are installed"


@pytest.mark.parametrize("ex_id", sorted(INSTALLED))
def test_packages_a_stub_says_are_installed_import(ex_id):
    stub = (ROOT / "exercises" / f"{catalog.get(ex_id).module}.py").read_text(encoding="utf-8")
    for name in INSTALLED[ex_id]:
        assert name in stub
        # the sandbox runs this same interpreter and venv (sandbox.py mounts them read-only)
        out = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
