"""A submission as graded: its modules wherever they are in the folder, or the answer cells of the
course's notebooks, copied into a learner folder of their own (:func:`gather`). Gradescope
(:mod:`grader.classroom.gradescope`), ``grader batch`` and ``grader job``
(:mod:`grader.classroom.batch`) read a submission through it, so the same upload is read alike
everywhere: the first answer wins, and what was taken, refused or ignored is named."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from grader import i18n
from grader.course import catalog
from grader.i18n import N_, _
from grader.isolation import files

FILE_CAP = 4 << 20  # bytes of one submitted file read


def read_regular(path: Path, cap: int = FILE_CAP) -> bytes:
    """A submitted file's bytes: a regular file, not a link, at most ``cap`` bytes (refused
    otherwise, by :func:`grader.isolation.files.read_regular`, as the runner reads learner files)."""
    return files.read_regular(path, cap)


@dataclass(frozen=True)
class Note:
    """What :func:`gather` did with one file of the submission: ``kind`` ("taken", "refused",
    "ignored") for the code to read, :attr:`message` to say it in the reader's language."""

    kind: str
    message: i18n.Message

    def text(self, lang: str | None = None) -> str:
        return self.message.text(lang)

    def data(self) -> dict:
        return {"kind": self.kind, **self.message.data(), "text": self.text()}


def _note(kind: str, msgid: str, **fields: object) -> Note:
    return Note(kind, i18n.Message.of(msgid, **fields))


def as_submitted(result, copy: Path, notes: list[Note]):
    """``result`` with each gathered module's path in ``copy`` said as the student knows it: the file
    as submitted (its path in the submission) or a notebook's answer cell, as nbgrader's feedback says
    it; a traceback named the grader's temporary folder, a file the student never uploaded."""
    import dataclasses

    said = {}
    for note in notes:
        fields = dict(note.message.fields)
        if note.kind != "taken" or "name" not in fields:
            continue
        where, ex_id = str(fields["where"]), fields.get("id")
        cell = ex_id and where.endswith(".ipynb")
        said[str(copy / str(fields["name"]))] = (
            _("{id} answer cell in {where}", id=ex_id, where=where) if cell else where
        )

    def say(text):
        for path, shown in said.items():
            if isinstance(text, str) and path in text:
                text = text.replace(path, shown)
        return text

    kps = [
        dataclasses.replace(k, **{f: say(getattr(k, f)) for f in ("message", "traceback", "example")})
        for k in result.key_points
    ]
    return dataclasses.replace(result, key_points=kps, note=say(result.note))


def _refusal(path: Path, where: str, exc: OSError) -> Note:
    """Why a submitted file was not read, said without the container's paths."""
    if not isinstance(exc, files.Refused):
        return _note("refused", N_("refused {where}: not readable ({error})"), where=where, error=type(exc).__name__)
    try:
        st = path.lstat()
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode) and st.st_size > FILE_CAP:
        return _note("refused", N_("refused {where}: larger than {mib} MiB"), where=where, mib=FILE_CAP >> 20)
    if st is not None and stat.S_ISLNK(st.st_mode):
        return _note("refused", N_("refused {where}: a symbolic link"), where=where)
    return _note("refused", N_("refused {where}: not a regular file"), where=where)


def gather(submission: Path, dest: Path, only: list[str] | None = None) -> list[Note]:
    """Copy the submission's modules into ``dest`` (created here); returns notes on what was
    taken, refused or ignored. ``.py`` files win over a notebook's answer cells. An answer cell of
    an exercise this assignment does not grade (``only``) is ignored, never a module the graded
    answers could import; of two answer cells of one exercise the first is used, the other named
    (issue 27 G1)."""
    from grader.classroom.notebooks import ANSWER_MARK

    dest.mkdir(parents=True, mode=0o755)
    os.chmod(dest, 0o755)
    modules = {ex.module: ex for ex in catalog.CATALOG}
    found: dict[str, tuple[int, str, bytes]] = {}  # module file name -> (depth, where, source)
    notebooks: list[tuple[str, bytes]] = []
    notes: list[Note] = []
    for folder, dirs, names in os.walk(submission, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        rel = Path(folder).relative_to(submission)
        for name in sorted(names):
            where = (rel / name).as_posix()
            if not name.endswith((".py", ".ipynb")) or name.startswith("."):
                continue
            path = Path(folder) / name
            if path.is_symlink():
                notes.append(_note("refused", N_("refused {where}: a symbolic link"), where=where))
                continue
            try:
                data = read_regular(path)
            except OSError as exc:
                notes.append(_refusal(path, where, exc))
                continue
            if name.endswith(".ipynb"):
                notebooks.append((where, data))
            elif not name[:-3].isidentifier():
                notes.append(_note("ignored", N_("ignored {where}: not a module name"), where=where))
            elif name in found and found[name][0] <= len(rel.parts):
                notes.append(_note("ignored", N_("ignored {where}: {used} is used"), where=where, used=found[name][1]))
            else:
                if name in found:
                    notes.append(
                        _note("ignored", N_("ignored {where}: {used} is used"), where=found[name][1], used=where)
                    )
                found[name] = (len(rel.parts), where, data)
    for where, data in notebooks:
        try:
            import nbformat

            nb = nbformat.reads(data.decode(), as_version=4)
        except Exception as exc:  # noqa: BLE001 - a broken notebook is the student's, reported
            notes.append(
                _note(
                    "refused",
                    N_("refused {where}: not a readable notebook ({error})"),
                    where=where,
                    error=type(exc).__name__,
                )
            )
            continue
        for cell in nb.cells:
            if cell.get("cell_type") != "code":
                continue
            src = cell.get("source", "")
            first = src.lstrip().split("\n", 1)[0].rstrip()  # the mark's line: alone, or with words after it
            for ex in modules.values():
                if first == ANSWER_MARK.format(id=ex.id) or first.startswith(ANSWER_MARK.format(id=ex.id) + " "):
                    name = f"{ex.module}.py"
                    if only is not None and ex.id not in only:
                        notes.append(
                            _note(
                                "ignored",
                                N_("ignored the {id} answer cell of {where}: {id} is not graded in this assignment"),
                                id=ex.id,
                                where=where,
                            )
                        )
                    elif name in found and found[name][1].endswith(".ipynb"):
                        notes.append(
                            _note(
                                "ignored",
                                N_("ignored a second {id} answer cell in {where}: the first one, in {used}, is graded"),
                                id=ex.id,
                                where=where,
                                used=found[name][1],
                            )
                        )
                    elif name in found:
                        notes.append(
                            _note(
                                "ignored",
                                N_("ignored the {id} answer cell of {where}: {used} is used"),
                                id=ex.id,
                                where=where,
                                used=found[name][1],
                            )
                        )
                    else:
                        found[name] = (0, where, src.encode())
    for name, (_rank, where, data) in sorted(found.items()):
        target = dest / name
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        ex = modules.get(name[:-3])
        if ex and (only is None or ex.id in only):
            notes.append(_note("taken", N_("{id}: {name} from {where}"), id=ex.id, name=name, where=where))
        else:
            notes.append(_note("taken", N_("helper module: {name} from {where}"), name=name, where=where))
    return notes
