"""The classroom: an nbgrader course built from the catalog (``notebooks``) and class-wide
grading on one machine (``batch``). Student code runs in the same sandbox as ``make grade``."""

from grader.classroom.notebooks import (ANSWER_MARK, GradeAnswerCells, RequireGradeOutputs, answer_from_history,
                                        answer_source, assignment_name, build_course, check, grade_id,
                                        mastery, notebook, verdict_for_source, write_mastery)

__all__ = ["ANSWER_MARK", "GradeAnswerCells", "RequireGradeOutputs", "answer_from_history", "answer_source",
           "assignment_name", "build_course", "check", "grade_id", "mastery", "notebook",
           "verdict_for_source", "write_mastery"]
