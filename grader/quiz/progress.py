"""What the quiz says a learner has mastered, closed book: the counts the levels take (part 7 §五.D).

* R: items mastered, of the set's items (read: at least 80%);
* A, B: questions mastered (mastered: A >= 8 of 10, B >= 4 of 5);
* C: per question, key points mastered (at least half) and key points plus follow-ups (all, can-teach).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.quiz import bank as qbank, store as qstore


@dataclass
class QuestionState:
    id: str
    set: str
    title: str
    attempts: int  # complete attempts (R, A, B) or interviews started (C)
    history: list[bool]  # R, A, B: per complete attempt; C: per answer, all sub-questions
    mastered: bool
    streak: int
    seconds: float
    points: dict[str, bool] = field(default_factory=dict)  # C: key point / follow-up -> mastered
    due: float | None = None  # the next review (epoch seconds; C: the earliest of its sub-questions); None: new
    new: bool = True  # never reviewed (C: some sub-question never answered)
    parts_due: dict[str, float | None] = field(default_factory=dict)  # C: sub-question -> its next review

    def is_due(self, now: float) -> bool:
        return self.due is not None and self.due <= now


@dataclass
class QuizProgress:
    learner: str
    r: tuple[int, int]
    a: tuple[int, int]
    b: tuple[int, int]
    c_points: dict[str, tuple[int, int]]  # key points mastered / key points
    c_all: dict[str, tuple[int, int]]  # the same with the follow-ups
    questions: dict[str, QuestionState]
    answers: int

    @property
    def r_fraction(self) -> float:
        return self.r[0] / self.r[1] if self.r[1] else 0.0

    def to_dict(self) -> dict:
        return {
            "learner": self.learner,
            "answers": self.answers,
            "R": f"{self.r[0]}/{self.r[1]}",
            "A": f"{self.a[0]}/{self.a[1]}",
            "B": f"{self.b[0]}/{self.b[1]}",
            "C": {k: f"{p}/{t}" for k, (p, t) in self.c_points.items()},
            "C_with_followups": {k: f"{p}/{t}" for k, (p, t) in self.c_all.items()},
            "mastered": sorted(q for q, s in self.questions.items() if s.mastered),
        }


def question_state(q: qbank.Question, rows: list[qstore.Row]) -> QuestionState:
    seconds = sum(r.seconds for r in rows)
    if not q.interview:
        hist = qstore.question_history(rows)
        mem = qstore.memory(qstore.question_reviews(rows))
        return QuestionState(
            q.id, q.set, q.title, len(hist), hist, mem.mastered, qstore.streak(hist), seconds, due=mem.due, new=mem.new
        )
    points: dict[str, bool] = {}
    parts_due: dict[str, float | None] = {}
    for part in q.all_parts:
        mem = qstore.memory(qstore.part_reviews(rows, part.id))
        parts_due[part.id] = mem.due
        key = f"{q.id}.{part.id}" if part.followup else q.key_point_of(part)
        points[key] = points.get(key, True) and mem.mastered
    n_interviews = len({r.attempt for r in rows})
    hist = [r.correct for r in rows]
    dues = [d for d in parts_due.values() if d is not None]
    return QuestionState(
        q.id,
        q.set,
        q.title,
        n_interviews,
        hist,
        all(points.values()),
        qstore.streak(hist),
        seconds,
        points,
        due=min(dues) if dues else None,
        new=any(d is None for d in parts_due.values()),
        parts_due=parts_due,
    )


def progress(store: qstore.Store, learner: str) -> QuizProgress:
    return progress_from_rows(learner, store.rows(learner))


def progress_from_rows(learner: str, rows: list[qstore.Row]) -> QuizProgress:
    by_q: dict[str, list[qstore.Row]] = {}
    for r in rows:
        by_q.setdefault(r.question, []).append(r)
    states = {q.id: question_state(q, by_q.get(q.id, [])) for q in qbank.questions()}

    def count(set_id):
        qs = [s for s in states.values() if s.set == set_id]
        return sum(s.mastered for s in qs), len(qs)

    c_points, c_all = {}, {}
    for q in qbank.questions("C"):
        pts = states[q.id].points
        main = {q.key_point_of(p) for p in q.all_parts if not p.followup}
        c_points[q.id] = (sum(pts[k] for k in main), len(q.points))
        c_all[q.id] = (sum(pts.values()), len(pts))
    return QuizProgress(learner, count("R"), count("A"), count("B"), c_points, c_all, states, len(rows))


def counts(prog: QuizProgress, source: str = ""):
    """The quiz's side of the levels (grader.course.levels.QuizCounts); ``source``: the attempts file."""
    from grader.course.levels import QuizCounts

    return QuizCounts(prog.r, prog.a, prog.b, dict(prog.c_points), dict(prog.c_all), prog.learner, prog.answers, source)


def counts_for(learner: str | None = None, path=None):
    """The quiz counts of ``learner`` (default: this user) from the attempts file, without creating
    it: no file means no answers yet, so nothing is mastered."""
    from pathlib import Path

    name = learner or qstore.default_learner()
    db = Path(path) if path else qstore.default_path()
    if not db.exists():
        return counts(progress_from_rows(name, []), str(db))
    st = qstore.Store(db)
    try:
        return counts(progress(st, name), str(db))
    finally:
        st.close()
