"""How the grader (root, on a course machine) touches files someone else may control.

A learner controls its target folder (the files it hands in) and, while it runs, its work
folder. The grader never follows a link there, never reads more than it needs, never creates
or chowns by path: files are opened with ``O_NOFOLLOW`` (and ``O_NONBLOCK``, so a FIFO cannot
hang it), checked with ``fstat`` on the descriptor, read up to a cap, and copied into a folder
of the grader's own. The grader's own folders (the caches) are checked to be real folders of
its user before anything is written there, and what it writes (caches, reports) replaces the
old file by rename: a link planted at a report's path is replaced, never written through.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import stat
import tempfile
from pathlib import Path

MODULE_CAP = 4 << 20  # bytes of one learner module read or copied
SNAPSHOT_BYTES_CAP = 16 << 20  # bytes of all the learner's modules copied for one exercise
SNAPSHOT_FILES_CAP = 200  # .py files in the learner's folder


class Refused(OSError):
    """A path the grader will not read: a link, not a regular file, too large."""


def read_regular(path: str | Path, cap: int = MODULE_CAP, *, dir_fd: int | None = None) -> bytes:
    """The bytes of a regular file that is not a symbolic link, at most ``cap`` of them."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Refused(f"{path} is a symbolic link") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"{path} is not a regular file")
        if st.st_size > cap:
            raise Refused(f"{path} is larger than {cap >> 20} MiB")
        return _read_fd(fd, cap)
    finally:
        os.close(fd)


def read_tail(path: str | Path, cap: int, *, whole: bool = False) -> bytes:
    """The last ``cap`` bytes of a regular file (``b""`` if there is none); ``whole``: all of
    it, or ValueError when it is larger than ``cap`` or not a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return b""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (whole and st.st_size > cap):
            raise ValueError(f"{path} is not a regular file of at most {cap} bytes")
        os.lseek(fd, max(0, st.st_size - cap), os.SEEK_SET)
        return _read_fd(fd, cap)
    finally:
        os.close(fd)


def _read_fd(fd: int, cap: int) -> bytes:
    chunks, left = [], cap
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def snapshot_modules(module_file: Path, dest: Path, *, not_inside: tuple[Path, ...] = (), mode: int = 0o644) -> Path:
    """Copy ``module_file`` and the other ``.py`` files of its folder into ``dest`` (a folder of
    the grader's own, created here); returns the copy of ``module_file``.

    The module must be a regular file, not a link, in a folder that is not (really, links
    resolved) inside one of ``not_inside``: :class:`Refused` otherwise. A sibling that is a
    link, not regular or too large is left out (the learner's code sees it missing). The folder
    is read through one descriptor, so it cannot be swapped for a link midway.
    """
    folder, name = module_file.parent, module_file.name
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        real = Path(os.readlink(f"/proc/self/fd/{dir_fd}"))  # the folder actually opened
        for hidden in not_inside:
            if real == hidden or hidden in real.parents:
                raise Refused(
                    f"{module_file} resolves to {real / name}, inside the grader's own {hidden.name}/: not your file"
                )
        try:
            data = read_regular(name, dir_fd=dir_fd)
        except Refused:
            if os.path.islink(os.path.join(folder, name)):
                raise Refused(
                    f"{name} is a symbolic link (to {os.readlink(name, dir_fd=dir_fd)}): the "
                    "grader grades your own file, not a link to one"
                ) from None
            raise
        names = sorted(n for n in os.listdir(dir_fd) if n.endswith(".py") and n != name)
        if len(names) + 1 > SNAPSHOT_FILES_CAP:
            raise Refused(
                f"{folder} holds {len(names) + 1} .py files, more than the {SNAPSHOT_FILES_CAP} "
                "the grader copies: keep your modules and a few helpers there"
            )
        total = len(data)

        def over(extra: int) -> Refused:
            return Refused(
                f"the .py files of {folder} add up to more than {SNAPSHOT_BYTES_CAP >> 20} MiB "
                f"(at {total + extra} bytes): the grader copies at most that much"
            )

        for sibling in names:  # sizes first: nothing is read or copied past the cap
            try:
                st = os.stat(sibling, dir_fd=dir_fd, follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and st.st_size <= MODULE_CAP:
                total += st.st_size
                if total > SNAPSHOT_BYTES_CAP:
                    raise over(0)
        total = len(data)
        dest.mkdir(mode=0o755)
        write_new(dest / name, data, mode)
        for sibling in names:
            try:
                body = read_regular(sibling, dir_fd=dir_fd)
            except (Refused, OSError):
                continue
            if total + len(body) > SNAPSHOT_BYTES_CAP:  # grew since its size was read
                raise over(len(body))
            total += len(body)
            write_new(dest / sibling, body, mode)
    finally:
        os.close(dir_fd)
    return dest / module_file.name


def write_new(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Create ``path`` (it must not exist: ``O_EXCL``, never through a link) and write ``data``."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def replace_file(path: str | Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``path`` whole, by a new file renamed over it: a link at ``path`` is replaced, not
    followed, and a reader never sees half a file."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            os.fchmod(f.fileno(), mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def own_folder(path: Path, mode: int = 0o700) -> Path:
    """``path`` as a real folder of this user that nobody else can write (created if missing)."""
    try:
        path.mkdir(mode=mode, parents=True)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise PermissionError(f"{path} is not a folder that only this user can write")
    return path


KEY_NAME = ".key"


def secret_key(folder: Path) -> bytes:
    """A random key in ``folder/.key`` that only this user can read, created on first use
    (linked into place whole, so a process racing this one reads the same key)."""
    path = own_folder(folder) / KEY_NAME
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        fd_new, tmp = tempfile.mkstemp(prefix=".key.", dir=folder)  # mode 0600
        try:
            os.write(fd_new, os.urandom(32))
            os.close(fd_new)
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass
        finally:
            os.unlink(tmp)
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077 or st.st_size != 32:
            raise PermissionError(f"{path} is not a key that only this user can read")
        return _read_fd(fd, 32)
    finally:
        os.close(fd)


def mac(key: bytes, data: bytes) -> str:
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def mac_ok(key: bytes, data: bytes, tag: object) -> bool:
    return isinstance(tag, str) and hmac.compare_digest(mac(key, data), tag)
