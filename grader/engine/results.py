"""What grading produces: one result per key point, grouped per exercise."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from grader import i18n
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


# The fields that hold a sentence: a message of the catalog (an i18n.Text) is stored as its msgid and
# fields (to_dict) and said again in the reader's language (i18n.show); free text stays as it is.
SAID = ("message", "expected", "got", "hint", "example", "misconception")


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
    load_free: bool = False  # a timeout the machine's load did not decide (LearnerTimeout.load_free): kept

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
    # How much of the reference answer the module has (grader.engine.similarity.Match.to_dict);
    # empty where it was not compared (the reference graded, a module that does not parse).
    similarity: dict = field(default_factory=dict)

    @property
    def near_copy(self) -> bool:
        from grader.engine import similarity

        return self.similarity.get("score", 0.0) >= similarity.THRESHOLD

    @property
    def opaque(self) -> bool:
        """Whether the module builds the code it runs from data (grader.engine.similarity.opaque):
        its score cannot say how much of that code is someone else's."""
        return bool(self.similarity.get("opaque"))

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
        out = asdict(self)
        out["note"] = i18n.data(self.note)
        out["key_points"] = [stored(kp) for kp in self.key_points]
        return out

    @classmethod
    def from_dict(cls, d: dict) -> ExerciseResult:
        """From :meth:`to_dict`'s form (an older one's plain strings too); fields this version does not
        know (a results log written by a newer grader, on another node) are left out, not an error."""
        kps = [key_point_from(kp) for kp in d["key_points"]]
        known = {f.name for f in fields(cls)}
        return cls(
            **{**{k: v for k, v in d.items() if k in known}, "key_points": kps, "note": i18n.loaded(d.get("note", ""))}
        )


def stored(kp: KeyPointResult) -> dict:
    """A key point's result as plain JSON data, its sentences as message data."""
    return {**asdict(kp), **{k: i18n.data(getattr(kp, k)) for k in SAID}}


def key_point_from(record: dict) -> KeyPointResult:
    """The inverse of :func:`stored`, for a check process's record too (grader.engine.plugin)."""
    known = {f.name for f in fields(KeyPointResult)}
    return KeyPointResult(**{k: i18n.loaded(v) if k in SAID else v for k, v in record.items() if k in known})
