"""What grading produces: one result per key point, grouped per exercise."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from grader.i18n import N_, _

# Key-point statuses. Only "passed" scores; "not_verifiable" (a GPU-only check on a CPU
# machine) is left out of every count instead of being passed silently.
PASSED = "passed"
NOT_VERIFIABLE = "not_verifiable"
# What the learner reads for each status, in the current language: status_text(status).
STATUS_TEXT = {
    "passed": N_("passed"),
    "failed": N_("wrong answer"),
    "error": N_("your code raised"),
    "not_implemented": N_("not implemented yet"),
    "import_error": N_("does not import"),
    "timeout": N_("timed out"),
    "oom": N_("out of memory"),
    "crashed": N_("process died"),
    "bad_output": N_("bad output"),
    "forbidden_call": N_("calls what the exercise forbids"),
    "check_error": N_("grader bug"),
    "not_verifiable": N_("not verifiable here"),
    "not_available": N_("not available yet"),
    "not_graded": N_("not graded yet"),
    "missing": N_("file missing"),
    "refused": N_("file refused"),
    "identical": N_("identical to the reference answer"),
}


def status_text(status: str) -> str:
    return _(STATUS_TEXT[status]) if status in STATUS_TEXT else status


@dataclass
class KeyPointResult:
    key_point: str
    status: str
    message: str = ""
    expected: str | None = None
    got: str | None = None
    hint: str = ""
    example: str = ""
    traceback: str = ""
    misconception: str = ""  # the registered wrong answer the failing call matches (engine.misconceptions)
    duration_s: float = 0.0
    naming_cpu_s: float = 0.0  # CPU seconds spent naming the mistake (engine.misconceptions), all processes
    figures: list = field(default_factory=list)  # charts a check attached (plugin.figure)
    lesson: str = ""  # what the course says, added for display by grader.engine.attempts (never cached)
    isolation: str = ""  # the weakest sandbox its learner processes measured (grader.isolation.sandbox.LEVELS)

    @property
    def passed(self) -> bool:
        return self.status == PASSED


@dataclass
class ExerciseResult:
    exercise: str
    status: str  # "graded", "not_available", "not_graded", "missing", "timeout", "crashed"
    key_points: list[KeyPointResult] = field(default_factory=list)
    duration_s: float = 0.0
    note: str = ""
    cached: bool = False  # from an earlier run, and nothing it depends on changed since

    @property
    def available(self) -> bool:
        return self.status != "not_available"

    @property
    def isolation(self) -> str:
        """The weakest sandbox any of its learner processes got ("" where none ran)."""
        from grader.isolation.sandbox import weakest

        return weakest(kp.isolation for kp in self.key_points)

    def outcome(self) -> dict[str, bool | None]:
        """key point -> passed (None: not verifiable here), for :mod:`grader.course.levels`."""
        return {kp.key_point: (None if kp.status == NOT_VERIFIABLE else kp.passed) for kp in self.key_points}

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> ExerciseResult:
        """From :meth:`to_dict`'s form; fields this version does not know (a results log written by
        a newer grader, on another node) are left out, not an error."""
        kp_fields = {f.name for f in fields(KeyPointResult)}
        kps = [KeyPointResult(**{k: v for k, v in kp.items() if k in kp_fields}) for kp in d["key_points"]]
        return cls(**{**{k: v for k, v in d.items() if k in {f.name for f in fields(cls)}}, "key_points": kps})
