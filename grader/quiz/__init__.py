"""The closed-book quiz: sets R, A, B and C of the course asked as questions, with numbers drawn
afresh per learner and variant and the right answers computed by the hidden checks' ground truth.

    grader quiz [R|A|B|C|ID ...] [--lang zh|en] [--seed N] [--history]

In a notebook (plain ``input()``)::

    from grader.quiz import ask
    ask("A6")
"""

from __future__ import annotations


def ask(
    question_id: str,
    *,
    lang: str | None = None,
    seed: int | None = None,
    learner: str | None = None,
    db: str | None = None,
) -> dict:
    """Ask one question once (one variant) with print() and input(); the answers are recorded as in
    the terminal. Returns ``{"question", "result", "mastered"}``."""
    from rich.console import Console

    from grader import i18n
    from grader.quiz import bank, progress, session, store

    q = bank.get(question_id)
    st = store.Store(db)
    name = learner or store.default_learner()
    io = session.IO(Console(highlight=False, soft_wrap=True), read=input, echo=False)
    sess = session.Session(st, name, lang or i18n.current(), seed=seed, io=io, rounds=1)
    result = sess.ask(q)
    state = progress.question_state(q, st.rows(name, q.id))
    st.close()
    return {"question": q.id, "result": result, "mastered": state.mastered}


def main(
    targets: list[str],
    *,
    lang: str | None = None,
    seed: int | None = None,
    history: bool = False,
    learner: str | None = None,
    db: str | None = None,
    rounds: int = 2,
) -> int:
    from grader import i18n
    from grader.quiz import session, store

    st = store.Store(db)
    name = learner or store.default_learner()
    lang = i18n.detect(lang)  # --lang, else the locale
    i18n.use(lang)
    try:
        if history:
            session.print_history(st, name, lang)
            return 0
        questions, explicit = session.expand_targets(targets)
        session.Session(st, name, lang, seed=seed, rounds=rounds).run(questions, explicit)
        return 0
    finally:
        st.close()
