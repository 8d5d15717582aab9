"""Gradescope: an autograder zip that grades one submission per container with the same runner.

Gradescope's autograder specification (gradescope-autograders.readthedocs.io, "Autograder
Specifications"): a zip with ``setup.sh`` and ``run_autograder`` at its root. Gradescope
unpacks it into ``/autograder/source``, runs ``setup.sh`` once as root when it builds the image,
copies ``run_autograder`` to ``/autograder/run_autograder``, and runs that once per submission
in ``/autograder``, with the student's files in ``/autograder/submission``; the script must
leave ``/autograder/results/results.json``.

:func:`build_zip` (``grader gradescope build OUT.zip [--only IDS]``) writes:

* the project's grader, stubs, solutions (and their mutants: the feedback names
  misconceptions from them) and ``pyproject.toml``, as ``make grade`` needs them;
* ``setup.sh``: Python 3.11 (apt, if the image lacks it), a virtual environment, the pinned
  dependencies as the Makefile installs them (torch first, CPU build, then the project, then the
  model package ``--no-deps``), and the model cache built once, at image build time;
* ``run_autograder``: ``grader gradescope run``, i.e. :func:`run`;
  both shell scripts are files in ``templates/`` (:func:`script` fills in the pins), so
  shellcheck reads them;
* ``grader-gradescope.json``: the exercises graded and the visibility chosen at build time.

:func:`run` puts the submission's modules (``*.py`` anywhere in it, or the answer cells of
the course's notebooks, those that start with ``# <ID> answer``) into a learner folder of its
own, grades it with :func:`grader.classroom.batch.run_job` (the same sandboxed runner as
``make grade`` and ``grader batch``) and writes results.json: one test per key point with its
visibility, a first test listing what was taken from the submission, level and pass line in
``extra_data``. What is taken, refused (a link, a file that is not regular or larger than 4 MiB)
or ignored is :func:`grader.classroom.submission.gather`'s, as ``grader batch`` and ``grader job``
read a submission;
the hidden checks' expected values are left out of the feedback, as in the classroom.

``GRADER_AUTOGRADER_ROOT`` moves ``/autograder`` elsewhere (the tests simulate one); the
scripts read it too.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from grader import i18n
from grader.classroom import submission
from grader.classroom.submission import Note
from grader.course import catalog, levels
from grader.course.catalog import ROOT
from grader.engine.results import ExerciseResult, status_text
from grader.i18n import _
from grader.isolation import files

ROOT_ENV = "GRADER_AUTOGRADER_ROOT"
CONFIG = "grader-gradescope.json"
VISIBILITY = ("visible", "after_due_date", "after_published", "hidden")  # Gradescope's options
SHIPPED = ("grader", "exercises", "solutions", "pyproject.toml", "README.md")
GIB_PER_JOB = 4  # memory one exercise may need at once (P4: learner ~2 GB + its check process)


def autograder_root() -> Path:
    return Path(os.environ.get(ROOT_ENV) or "/autograder")


# ---------------------------------------------------------------- the zip
def pins() -> dict[str, str]:
    """The pins setup.sh installs, read from where ``make`` reads them."""
    deps = re.findall(r'"([A-Za-z0-9_.\-\[\]]+==[^"]+)"', (ROOT / "pyproject.toml").read_text())
    torch = next(d for d in deps if d.startswith("torch=="))
    model = re.search(r"--no-deps\s+(\S+==\S+)", (ROOT / "Makefile").read_text()).group(1)
    return {"torch": torch, "model": model}


TEMPLATES = Path(__file__).parent / "templates"  # shell scripts as files: shellcheck reads them (tests/test_lint.py)
_SAFE_VALUE = re.compile(r"[A-Za-z0-9._:/?&=%+@~\[\]-]*")  # a pin or a URL: nothing the shell would read


def script(name: str, **values: str) -> str:
    """The shell script ``templates/<name>`` with each ``{key}`` replaced by ``values[key]``; a value
    the shell could read as code (a quote, ``$``, a space) is refused, as is a placeholder left over."""
    text = (TEMPLATES / name).read_text()
    for key, value in values.items():
        if not _SAFE_VALUE.fullmatch(value):
            raise ValueError(f"{name}: {key}={value!r} is not a plain pin or URL")
        text = text.replace("{" + key + "}", value)
    left = re.findall(r"\{([a-z_]+)\}", text)
    if left:
        raise ValueError(f"{name}: no value for {', '.join(left)}")
    return text


def _shipped_files() -> list[Path]:
    """The project's files to ship: what git tracks or would (not what it ignores)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", *SHIPPED],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        names = sorted({n for n in out.decode().split("\0") if n})
        files = [ROOT / n for n in names]
    except (OSError, subprocess.CalledProcessError):
        files = [
            p
            for part in SHIPPED
            for p in ([ROOT / part] if (ROOT / part).is_file() else sorted((ROOT / part).rglob("*")))
        ]
    return [p for p in files if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts]


def build_zip(
    out: str | Path,
    *,
    only: list[str] | None = None,
    visibility: str = "visible",
    reveal_expected: bool = False,
    torch_index_url: str | None = None,
    lang: str | None = None,
) -> list[str]:
    """Write the autograder zip; returns the names in it. ``lang``: the feedback's language
    (default: the current one), kept in the zip's config for :func:`run`."""
    if visibility not in VISIBILITY:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITY)}")
    ids = [catalog.get(i).id for i in only] if only else None
    if ids:
        missing = [i for i in ids if not catalog.get(i).available]
        if missing:
            raise ValueError(f"not available yet: {', '.join(missing)}")
    p = pins()
    index = torch_index_url if torch_index_url is not None else os.environ.get("GRADER_TORCH_INDEX_URL", "")
    config = {
        "only": ids,
        "visibility": visibility,
        "reveal_expected": reveal_expected,
        "lang": lang or i18n.current(),
        "built_from": _commit(),
        "pins": p,
    }
    entries = {
        "setup.sh": (script("setup.sh", torch=p["torch"], model=p["model"], torch_index=index).encode(), 0o755),
        "run_autograder": (script("run_autograder").encode(), 0o755),
        CONFIG: (json.dumps(config, indent=1).encode(), 0o644),
    }
    for path in _shipped_files():
        entries[path.relative_to(ROOT).as_posix()] = (path.read_bytes(), 0o644)
    out = Path(out)
    tmp = out.with_name(out.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, (data, mode) in entries.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    tmp.replace(out)
    return list(entries)


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def prepare() -> Path:
    """setup.sh's last step: the model cache, built (or checked) once per image."""
    from grader.engine import model_cache

    return model_cache.ensure_cache()


def available_cpus() -> int:
    """CPUs this container may use: its affinity, and its cgroup's CPU quota where one is set."""
    n = len(os.sched_getaffinity(0))
    for path, split in (("/sys/fs/cgroup/cpu.max", None), ("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "period")):
        try:
            if split is None:
                quota, period = Path(path).read_text().split()[:2]
            else:
                quota = Path(path).read_text().strip()
                period = Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us").read_text().strip()
            if quota not in ("max", "-1"):
                n = min(n, max(1, math.ceil(int(quota) / int(period))))
            break
        except (OSError, ValueError):
            continue
    return max(1, n)


def available_memory_gib() -> float:
    """The container's memory limit (cgroup), else the machine's."""
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(path).read_text().strip()
            if text != "max" and int(text) < 1 << 50:
                return int(text) / (1 << 30)
        except (OSError, ValueError):
            continue
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30)


def parallel_jobs() -> int:
    return max(1, min(available_cpus(), int(available_memory_gib() // GIB_PER_JOB)))


def grade_submission(learner: Path, only: list[str] | None, jobs: int) -> dict[str, ExerciseResult]:
    """Every exercise asked for, graded with the batch's job runner (the same sandbox)."""
    from grader.classroom import batch
    from grader.engine import runner

    todo = [{**job, "gathered": True} for job in batch.make_jobs([learner], only)]  # gather()'d by run()
    batch.warm_up(todo)  # none for a submission of untouched stubs: nothing runs
    done = []
    runner.in_pool(batch.run_job, todo, done.append, jobs=jobs)
    results = {r["exercise"]: ExerciseResult.from_dict(r["result"]) for r in done}
    for ex in catalog.CATALOG:
        if (only is None or ex.id in only) and not ex.available:
            results[ex.id] = ExerciseResult(ex.id, "not_available", note=status_text("not_available"))
    return {ex.id: results[ex.id] for ex in catalog.CATALOG if ex.id in results}


def results_json(results: dict[str, ExerciseResult], notes: list[Note], elapsed: float, config: dict) -> dict:
    from grader.isolation import sandbox
    from grader.reports import terminal

    summary = levels.summarize({k: r.outcome() for k, r in results.items() if r.available})
    visibility = config.get("visibility", "visible")
    data = terminal.gradescope_json(
        results, summary, elapsed, reveal_expected=config.get("reveal_expected", False), visibility=visibility
    )
    used = [n for n in notes if n.kind == "taken"]
    taken = "\n".join(n.text() for n in notes) if notes else _("nothing")
    files_test = {
        "name": _("Submission: the files graded"),
        "score": 0,
        "max_score": 0,
        "output": (
            taken
            if used
            else _(
                "no exercise module found in the submission: upload the modules "
                "(e.g. a3_broadcast.py) or the course notebooks with their answer cells"
            )
            + "\n"
            + taken
        ),
        "tags": ["submission"],
        "visibility": "visible",
    }
    inside, outside, met = assignment_pass_line(summary, config.get("only"))
    if outside:  # the course's pass line spans sets this assignment does not hold: never "not met" for them
        data["output"] = pass_line_outside(inside, outside, met, config.get("only"))
    held = held_of(outside, config.get("only"))
    data["extra_data"]["assignment_pass_line"] = {
        "sets": inside,
        "outside": outside,
        "met": met,
        **({"partial": {s: list(n) for s, n in held.items()}} if held else {}),
    }
    data["tests"].insert(0, files_test)
    data["tests"].insert(1, similarity_test(results))
    data["visibility"] = visibility
    data["stdout_visibility"] = "hidden"  # the grader's log: for the instructor
    data["extra_data"]["submission"] = [n.data() for n in notes]
    data["extra_data"]["next_level_needs"] = summary.next_level_needs_text()  # the instructor reads the zip's language
    data["extra_data"]["grader"] = {
        "built_from": config.get("built_from", ""),
        "only": config.get("only"),
        "isolation": data["extra_data"]["isolation"],  # as measured in the learner processes' setup
        "isolation_expected": sandbox.isolation_level(),
    }
    return data


def assignment_pass_line(summary: levels.Summary, only: list[str] | None) -> tuple[list[str], list[str], bool | None]:
    """The pass line over the sets an assignment holds whole (``only``: its exercises; None: all):
    those sets, the pass line's other sets, and whether it is met over the first (None: none held)."""
    ids = {ex.id for ex in catalog.available()} if only is None else set(only)
    sets = levels.by_set()
    inside = [s for s in summary.pass_line_sets if all(ex.id in ids for ex in sets[s])]
    outside = [s for s in summary.pass_line_sets if s not in inside]
    return inside, outside, all(summary.pass_line_sets[s] for s in inside) if inside else None


def held_of(outside: list[str], only: list[str] | None) -> dict[str, tuple[int, int]]:
    """The pass line's sets this assignment holds part of: set -> (its questions here, the set's)."""
    sets = levels.by_set()
    held = {s: sum(ex.id in (only or ()) for ex in sets[s]) for s in outside}
    return {s: (n, len(sets[s])) for s, n in held.items() if n}


def pass_line_outside(inside: list[str], outside: list[str], met: bool | None, only: list[str] | None) -> str:
    """What a student reads of a pass line whose sets the assignment does not all hold whole:
    over which sets it is met, which are only partly here (and how much), which are not here."""
    from grader.reports import terminal

    held = held_of(outside, only)
    absent = [s for s in outside if s not in held]
    said = (
        [_("pass line over set(s) {inside} of this assignment: {met}", inside=", ".join(inside), met=terminal.met(met))]
        if inside
        else []
    )
    said += [
        _(
            "set {set}: {n} of its {total} questions are in this assignment, not counted (the pass line "
            "counts the whole set)",
            set=s,
            n=n,
            total=total,
        )
        for s, (n, total) in held.items()
    ]
    if absent:
        said.append(_("set(s) {outside} of the pass line are outside this assignment", outside=", ".join(absent)))
    return _("; ").join(said)


def similarity_test(results: dict[str, ExerciseResult]) -> dict:
    """For the instructor only (hidden): each exercise's similarity to the reference answer, the
    near copies first. Comparing classmates needs every submission: Gradescope's own code similarity
    tool, or ``grader batch`` on the downloaded submissions (docs/scale-out.md)."""
    from grader.engine import similarity
    from grader.reports import terminal

    threshold = f"{similarity.THRESHOLD:.0%}"
    compared = [r for r in results.values() if r.similarity]
    lines = [terminal.near_copy_line(r, instructor=True) for r in compared if r.near_copy]
    lines += [
        f"{r.exercise}: {r.similarity['score']:.0%} {r.similarity.get('note', '')}".rstrip()
        for r in compared
        if not r.near_copy
    ]
    hidden = [terminal.opaque_line(r) for r in compared if r.opaque]
    if hidden:  # never a silent 0%: where the code that runs is built from data, the score cannot see it
        lines += ["", _(terminal.OPAQUE), *hidden]
    return {
        "name": _("Similarity to the reference answer (near copy from {threshold})", threshold=threshold),
        "score": 0,
        "max_score": 0,
        "output": "\n".join(lines) or _("nothing compared"),
        "tags": ["similarity"],
        "visibility": "hidden",
    }


def run(root: Path | None = None) -> int:
    """run_autograder's body: grade ``root/submission``, write ``root/results/results.json``."""
    root = Path(root or autograder_root())
    start = time.monotonic()
    out = root / "results"
    out.mkdir(parents=True, exist_ok=True)
    try:
        config = json.loads((ROOT / CONFIG).read_text()) if (ROOT / CONFIG).exists() else {}
        i18n.use(config.get("lang") or i18n.current())  # the language the zip was built in
        learner = _fresh_learner_folder(root)
        notes = submission.gather(root / "submission", learner, config.get("only"))
        jobs = parallel_jobs()
        print(f"grading {learner} with {jobs} job(s) at once", flush=True)
        results = {
            ex_id: submission.as_submitted(res, learner, notes)
            for ex_id, res in grade_submission(learner, config.get("only"), jobs).items()
        }
        data = results_json(results, notes, time.monotonic() - start, config)
        code = 0
    except Exception as exc:  # noqa: BLE001 - Gradescope must get a results.json saying so
        import traceback

        traceback.print_exc()
        data = {
            "score": 0,
            "execution_time": round(time.monotonic() - start, 2),
            "stdout_visibility": "hidden",
            "output": _(
                "The autograder itself failed ({error}): this is not your fault; your instructor has been "
                "shown the log.",
                error=type(exc).__name__,
            ),
            "tests": [],
        }
        code = 1

    # Replaced by rename, never written through: whatever stands at that path now is not followed.
    files.replace_file(out / "results.json", json.dumps(data, indent=1, ensure_ascii=False).encode())
    print(
        f"wrote {out / 'results.json'}: {data.get('score')}/{data.get('extra_data', {}).get('max_score', '?')}",
        flush=True,
    )
    return code


def _fresh_learner_folder(root: Path) -> Path:
    """``root/learners/<name>``: the only folder in its parent (the runner hides the parent's other
    folders, a batch's classmates, from the learner)."""
    import shutil

    parent = root / "learners"
    if parent.is_symlink():
        parent.unlink()
    shutil.rmtree(parent, ignore_errors=True)
    parent.mkdir(mode=0o755)
    return parent / "submission"


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - the CLI calls run() and build_zip()
    from grader import cli

    return cli.main(["gradescope", *(argv if argv is not None else sys.argv[1:])])
