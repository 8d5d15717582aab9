"""The classroom: an nbgrader course built from the catalog (``notebooks``), what runs inside
nbgrader's commands (``pipeline``: no student notebook is executed there), the class and its
mastery (``roster``), the seal on the grader's files (``manifest``), and class-wide grading on one
machine (``batch``). Student code runs in the same sandbox as ``make grade``."""

from grader.classroom.notebooks import (
    ANSWER_MARK,
    answer_from_history,
    answer_source,
    assignment_name,
    build_course,
    check,
    class_feedback,
    grade_id,
    is_release_stub,
    mastery,
    notebook,
    release_source,
    write_mastery,
)

__all__ = [
    "ANSWER_MARK",
    "answer_from_history",
    "answer_source",
    "assignment_name",
    "build_course",
    "check",
    "class_feedback",
    "grade_id",
    "is_release_stub",
    "mastery",
    "notebook",
    "release_source",
    "write_mastery",
]
