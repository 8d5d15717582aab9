"""Attempts, in SQLite in the user's data folder: ``$XDG_DATA_HOME/toolbox-grader/quiz.sqlite`` (else
``~/.local/share/toolbox-grader/quiz.sqlite``). One row per answer: learner, question, sub-question,
attempt, variant seed, the variant's numbers, what was typed, its value, the right value, right or
wrong, the slips named before it, seconds taken.

Mastery (the course's closed-book criteria count only mastered questions): a question of R, A or B
is mastered when its last two complete attempts (two different variants) were right; a C
sub-question when its last two answers were; a C key point when all its sub-questions are.
"""

from __future__ import annotations

import getpass
import json
import math
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS learners (
    name TEXT PRIMARY KEY, seed INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    learner TEXT NOT NULL, question TEXT NOT NULL, part TEXT NOT NULL, attempt INTEGER NOT NULL,
    n_parts INTEGER NOT NULL, variant_seed INTEGER NOT NULL, params TEXT NOT NULL,
    answer TEXT NOT NULL, value TEXT, expected TEXT, correct INTEGER NOT NULL, slips TEXT NOT NULL,
    seconds REAL NOT NULL, lang TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS answers_by_learner ON answers (learner, question, attempt);
CREATE TABLE IF NOT EXISTS truth_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, at REAL NOT NULL);
"""
MASTERY_STREAK = 2


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
        self.db.commit()

    def close(self) -> None:
        self.db.close()

    # -------------------------------------------------------------- learners
    def set_learner_seed(self, name: str, seed: int) -> None:
        """Fix a learner's own seed (a test, or an instructor reproducing a learner's variants)."""
        self.db.execute("INSERT OR REPLACE INTO learners VALUES (?, ?, ?)", (name, seed, time.time()))
        self.db.commit()

    def learner_seed(self, name: str) -> int:
        row = self.db.execute("SELECT seed FROM learners WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        seed = secrets.randbits(40)
        self.db.execute("INSERT OR IGNORE INTO learners VALUES (?, ?, ?)", (name, seed, time.time()))
        self.db.commit()
        return self.learner_seed(name)

    # -------------------------------------------------------------- answers
    def record(self, *, learner: str, question: str, part: str, attempt: int, n_parts: int, variant_seed: int,
               params: dict, answer: str, value, expected, correct: bool, slips: list[str], seconds: float,
               lang: str) -> None:
        self.db.execute(
            "INSERT INTO answers (learner, question, part, attempt, n_parts, variant_seed, params, answer, value, "
            "expected, correct, slips, seconds, lang, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (learner, question, part, attempt, n_parts, variant_seed, _json(params), answer, _json(value),
             _json(expected), int(bool(correct)), _json(slips), round(seconds, 3), lang, time.time()))
        self.db.commit()

    def rows(self, learner: str, question: str | None = None) -> list[Row]:
        sql = ("SELECT learner, question, part, attempt, n_parts, variant_seed, answer, correct, seconds, at, slips, "
               "expected FROM answers WHERE learner = ?")
        args: tuple = (learner,)
        if question is not None:
            sql += " AND question = ?"
            args += (question,)
        out = []
        for r in self.db.execute(sql + " ORDER BY id", args):
            out.append(Row(r[0], r[1], r[2], int(r[3]), int(r[4]), int(r[5]), r[6], bool(r[7]), float(r[8]), float(r[9]),
                           json.loads(r[10]), r[11]))
        return out

    def learners(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT learner FROM answers ORDER BY learner")]

    # -------------------------------------------------------------- truth cache
    def cache_get(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM truth_cache WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def cache_put(self, key: str, value: str) -> None:
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
    return [all(r.correct for r in parts.values()) for _, parts in sorted(attempts(rows).items())
            if attempt_complete(parts)]


def part_history(rows: list[Row], part: str) -> list[bool]:
    return [r.correct for r in rows if r.part == part]


def mastered(history: list[bool]) -> bool:
    return len(history) >= MASTERY_STREAK and all(history[-MASTERY_STREAK:])


def streak(history: list[bool]) -> int:
    n = 0
    for ok in reversed(history):
        if not ok:
            break
        n += 1
    return n
