"""Attempts, in SQLite in the user's data folder: ``$XDG_DATA_HOME/toolbox-grader/quiz.sqlite`` (else
``~/.local/share/toolbox-grader/quiz.sqlite``). One row per answer: learner, question, sub-question,
attempt, variant seed, the variant's numbers, what was typed, its value, the right value, right or
wrong, the slips named before it, seconds taken.

Review and mastery (the course's closed-book criteria count only mastered questions): each question
of R, A or B (its complete attempts) and each C sub-question (its answers) is a card of the FSRS
scheduler (the ``fsrs`` package, as Anki uses), replayed from its rows: right -> Good (Hard when a
slip was named first), wrong -> Again. No learning steps: the next review is days away. A card is
*mastered* when, since its last wrong answer, it was recalled right at least :func:`mastery_days`
after the review before it (so not by answering twice in one sitting); a C key point when all its
sub-questions are. The review state is computed from the rows, so a file written by an older
version keeps its answers as history.

Graded variants are drawn from a secret in the data folder (``quiz.secret`` beside the SQLite
file, mode 0600), never from a number ``--seed`` takes. This is self-study: the file is the
learner's own and can be edited; the counts say where they come from.
"""

from __future__ import annotations

import getpass
import hashlib
import hmac
import json
import math
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import fsrs

SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    learner TEXT NOT NULL, question TEXT NOT NULL, part TEXT NOT NULL, attempt INTEGER NOT NULL,
    n_parts INTEGER NOT NULL, variant_seed INTEGER NOT NULL, params TEXT NOT NULL,
    answer TEXT NOT NULL, value TEXT, expected TEXT, correct INTEGER NOT NULL, slips TEXT NOT NULL,
    seconds REAL NOT NULL, lang TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS answers_by_learner ON answers (learner, question, attempt);
CREATE TABLE IF NOT EXISTS truth_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS stops (learner TEXT PRIMARY KEY, question TEXT NOT NULL, at REAL NOT NULL);
"""
SCHEMA_VERSION = 2  # 1: learners' seeds stored in plain text (dropped: they let anyone preview the graded variants)
MASTERY_DAYS_ENV = "TOOLBOX_GRADER_MASTERY_DAYS"
MIN_MASTERY_DAYS = 1.0  # the setting's floor: a recall in the same sitting (or day) never masters
DAY = 86400.0


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "toolbox-grader"


def default_path() -> Path:
    return data_dir() / "quiz.sqlite"


def default_learner() -> str:
    name = os.environ.get("TOOLBOX_GRADER_LEARNER")
    if name:
        return name
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001  no user name (some containers)
        return "learner"


def _json(value) -> str:
    def default(o):
        if isinstance(o, (set, frozenset)):
            return sorted(o)
        if isinstance(o, tuple):
            return list(o)
        return str(o)

    def clean(o):
        if isinstance(o, float) and not math.isfinite(o):
            return str(o)
        if isinstance(o, (list, tuple)):
            return [clean(x) for x in o]
        if isinstance(o, dict):
            return {k: clean(v) for k, v in o.items()}
        return o

    return json.dumps(clean(value), default=default, ensure_ascii=False, sort_keys=True)


@dataclass
class Row:
    learner: str
    question: str
    part: str
    attempt: int
    n_parts: int
    variant_seed: int
    answer: str
    correct: bool
    seconds: float
    at: float
    slips: list = field(default_factory=list)
    expected: str | None = None


class Store:
    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path) if path else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        self.db.executescript(SCHEMA)
        if self.db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
            self.db.execute("DROP TABLE IF EXISTS learners")  # version 1's plain seeds; answers stay
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self.db.commit()

    def close(self) -> None:
        self.closed = True  # the truth cache may still point here (a later session's): it is then skipped
        self.db.close()

    # -------------------------------------------------------------- the graded variants' secret
    @property
    def secret_path(self) -> Path:
        return self.path.parent / "quiz.secret"

    def secret(self) -> bytes:
        """The secret the graded variants are drawn from, made on first use (readable by its owner only)."""
        p = self.secret_path
        if not p.exists():
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
        return bytes.fromhex(p.read_text().strip())

    # -------------------------------------------------------------- answers
    def record(
        self,
        *,
        learner: str,
        question: str,
        part: str,
        attempt: int,
        n_parts: int,
        variant_seed: int,
        params: dict,
        answer: str,
        value,
        expected,
        correct: bool,
        slips: list[str],
        seconds: float,
        lang: str,
        at: float | None = None,
    ) -> None:
        self.db.execute(
            "INSERT INTO answers (learner, question, part, attempt, n_parts, variant_seed, params, answer, value, "
            "expected, correct, slips, seconds, lang, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                learner,
                question,
                part,
                attempt,
                n_parts,
                variant_seed,
                _json(params),
                answer,
                _json(value),
                _json(expected),
                int(bool(correct)),
                _json(slips),
                round(seconds, 3),
                lang,
                time.time() if at is None else at,
            ),
        )
        self.db.commit()

    def rows(self, learner: str, question: str | None = None) -> list[Row]:
        sql = (
            "SELECT learner, question, part, attempt, n_parts, variant_seed, answer, correct, seconds, at, slips, "
            "expected FROM answers WHERE learner = ?"
        )
        args: tuple = (learner,)
        if question is not None:
            sql += " AND question = ?"
            args += (question,)
        out = []
        for r in self.db.execute(sql + " ORDER BY id", args):
            out.append(
                Row(
                    r[0],
                    r[1],
                    r[2],
                    int(r[3]),
                    int(r[4]),
                    int(r[5]),
                    r[6],
                    bool(r[7]),
                    float(r[8]),
                    float(r[9]),
                    json.loads(r[10]),
                    r[11],
                )
            )
        return out

    # -------------------------------------------------------------- where a learner stopped
    def set_stop(self, learner: str, question: str, at: float) -> None:
        """The question a learner stopped in (even before answering any of its parts: nothing else records it)."""
        self.db.execute("INSERT OR REPLACE INTO stops VALUES (?, ?, ?)", (learner, question, at))
        self.db.commit()

    def stop(self, learner: str) -> str | None:
        row = self.db.execute("SELECT question FROM stops WHERE learner = ?", (learner,)).fetchone()
        return row[0] if row else None

    def clear_stop(self, learner: str, question: str) -> None:
        self.db.execute("DELETE FROM stops WHERE learner = ? AND question = ?", (learner, question))
        self.db.commit()

    def learners(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT learner FROM answers ORDER BY learner")]

    # -------------------------------------------------------------- truth cache
    closed = False

    def cache_get(self, key: str) -> str | None:
        if self.closed:
            return None
        row = self.db.execute("SELECT value FROM truth_cache WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def cache_put(self, key: str, value: str) -> None:
        if self.closed:
            return
        self.db.execute("INSERT OR REPLACE INTO truth_cache VALUES (?, ?, ?)", (key, value, time.time()))
        self.db.commit()


# ------------------------------------------------------------------ attempts and mastery (no bank needed)
def attempts(rows: list[Row]) -> dict[int, dict[str, Row]]:
    """attempt -> part -> its (last) row, for one question's rows."""
    out: dict[int, dict[str, Row]] = {}
    for r in rows:
        out.setdefault(r.attempt, {})[r.part] = r
    return out


def attempt_complete(parts: dict[str, Row]) -> bool:
    return bool(parts) and len(parts) >= max(r.n_parts for r in parts.values())


def question_history(rows: list[Row]) -> list[bool]:
    """Right or wrong per complete attempt, in order (R, A, B)."""
    return [
        all(r.correct for r in parts.values()) for _, parts in sorted(attempts(rows).items()) if attempt_complete(parts)
    ]


def part_history(rows: list[Row], part: str) -> list[bool]:
    return [r.correct for r in rows if r.part == part]


def streak(history: list[bool]) -> int:
    n = 0
    for ok in reversed(history):
        if not ok:
            break
        n += 1
    return n


# ------------------------------------------------------------------ graded and practice variants
def graded_seed(secret: bytes, learner: str, question_id: str, attempt: int) -> int:
    """A graded variant's seed: from the data folder's secret (odd, so never a practice seed)."""
    digest = hmac.new(secret, f"graded:{learner}:{question_id}:{attempt}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:6], "big") | 1


def practice_seed(seed: int, question_id: str, attempt: int) -> int:
    """A ``--seed`` variant's seed (even, so never a graded one)."""
    digest = hashlib.sha256(f"practice:{seed}:{question_id}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:6], "big") & ~1


# ------------------------------------------------------------------ spaced review (FSRS)
@dataclass(frozen=True)
class Review:
    at: float  # epoch seconds
    correct: bool
    slips: int = 0


@dataclass
class Memory:
    """One card's state replayed from its reviews."""

    reviews: list[Review]
    due: float | None  # epoch seconds of the next review (None: never reviewed: new)
    mastered: bool
    stability: float | None = None  # days (FSRS)

    @property
    def new(self) -> bool:
        return not self.reviews

    def is_due(self, now: float) -> bool:
        return self.due is not None and self.due <= now


def scheduler() -> fsrs.Scheduler:
    # no minute-scale learning steps (a sitting is one review) and no fuzz (a replay is deterministic)
    return fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def _utc(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


def default_mastery_days() -> float:
    """FSRS's interval after a first right recall (its default parameters: 2 days): the gap a right
    recall must follow to show a memory that lasts, not a short-term one."""
    t0 = _utc(0)
    card, _ = scheduler().review_card(fsrs.Card(card_id=1), fsrs.Rating.Good, t0)
    return (card.due - t0).total_seconds() / DAY


def mastery_days() -> float:
    """The setting (``$TOOLBOX_GRADER_MASTERY_DAYS``, at least :data:`MIN_MASTERY_DAYS`; a value that
    is not a number is ignored), else :func:`default_mastery_days`."""
    try:
        value = float(os.environ.get(MASTERY_DAYS_ENV) or "nan")
    except ValueError:
        value = math.nan
    return max(value, MIN_MASTERY_DAYS) if math.isfinite(value) else default_mastery_days()


def memory(reviews: list[Review], days: float | None = None) -> Memory:
    days = mastery_days() if days is None else days
    reviews = sorted(reviews, key=lambda r: r.at)
    sched, card = scheduler(), fsrs.Card(card_id=1)
    mastered, prev = False, None
    for r in reviews:
        rating = fsrs.Rating.Again if not r.correct else fsrs.Rating.Hard if r.slips else fsrs.Rating.Good
        card, _ = sched.review_card(card, rating, _utc(max(r.at, prev or r.at)))
        if not r.correct:
            mastered = False
        elif prev is not None and r.at - prev >= days * DAY - 1:
            mastered = True
        prev = max(r.at, prev or r.at)
    due = card.due.timestamp() if reviews else None
    return Memory(reviews, due, mastered, card.stability)


def question_reviews(rows: list[Row]) -> list[Review]:
    """R, A, B: one review per complete attempt, at its last answer."""
    return [
        Review(
            max(r.at for r in parts.values()),
            all(r.correct for r in parts.values()),
            sum(len(r.slips) for r in parts.values()),
        )
        for _, parts in sorted(attempts(rows).items())
        if attempt_complete(parts)
    ]


def part_reviews(rows: list[Row], part: str) -> list[Review]:
    """A C sub-question: one review per answer."""
    return [Review(r.at, r.correct, len(r.slips)) for r in rows if r.part == part]
