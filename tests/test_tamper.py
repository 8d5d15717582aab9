"""Attempts to pass without being right: each ends in a fail or error verdict for that exercise.

The learner's code runs in its own process, as its own user id, with the project read-only,
the hidden checks and solutions out of sight and no network (grader/isolation/sandbox.py); the check
computes its expected values in a process the learner's code never touched.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import runner
from grader.isolation import sandbox
from tests.conftest import own_answer

ALLOWLIST = "user+namespaces+allowlist"
A3 = dataclasses.replace(catalog.get("A3"), call_timeout_s=5, import_timeout_s=20, timeout_s=60, memory_gib=2)
WRONG = "return (1,)"  # every attempt answers wrong, then tries to make the check pass anyway
# A3's answer runs in one process (its "do not call" rule): an attempt made of processes is refused
# there, so it also runs on C1 (no rule), where they start, answering state_bytes wrong.
C1 = dataclasses.replace(catalog.get("C1"), call_timeout_s=5, import_timeout_s=20, timeout_s=60, memory_gib=2)
PROCESS_ATTEMPTS = ("allocate_across_processes", "fork_bomb", "half_a_frame_then_a_daemon")


def _grade_on_c1(tmp_path, attempt: str, ex=C1):
    """The attempt's ``broadcast_shape`` as C1's ``state_bytes``, the rest of C1 right."""
    path = tmp_path / f"{C1.module}.py"
    right = (ROOT / "solutions" / f"{C1.module}.py").read_text()
    path.write_text(
        right
        + textwrap.dedent(ATTEMPTS[attempt])
        + "\n\ndef state_bytes(*args):\n    return broadcast_shape((1,), (1,))\n"
    )
    return runner.grade_exercise(ex, path, key_points=("full_finetune_total",))


ANSWER_PIPE = """
        import fcntl, os
        def answer_pipe():  # the worker's channel to the check: the one pipe it writes to
            for fd in map(int, os.listdir("/proc/self/fd")):
                try:
                    if (fd > 2 and os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:")
                            and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY):
                        return fd
                except OSError:
                    pass
        """
ATTEMPTS = {
    "monkeypatch_numpy": f"""
        import numpy as np, numpy.testing
        np.broadcast_shapes = lambda *a: (1,)
        numpy.testing.assert_equal = lambda *a, **k: None
        def broadcast_shape(a, b):
            {WRONG}
        """,
    "monkeypatch_torch_and_pytest": f"""
        import torch, pytest
        torch.allclose = lambda *a, **k: True
        torch.equal = lambda *a, **k: True
        pytest.fail = lambda *a, **k: None
        def broadcast_shape(a, b):
            {WRONG}
        """,
    "always_equal_int": """
        class Int(int):
            def __eq__(self, other):
                return True
            __hash__ = int.__hash__
        def broadcast_shape(a, b):
            return tuple(Int(1) for _ in range(max(len(a), len(b))))
        """,
    "odd_float_subclass": """
        class F(float):
            def __ne__(self, other):
                return False
        def broadcast_shape(a, b):
            return (F(1.0),)
        """,
    "forged_report": f"""
        import glob, json
        def broadcast_shape(a, b):
            for path in glob.glob("/tmp/**/results.jsonl", recursive=True):
                with open(path, "a") as f:
                    for kp in ("matches_numpy", "different_lengths", "raises_on_incompatible"):
                        f.write(json.dumps({{"key_point": kp, "status": "passed"}}) + "\\n")
            {WRONG}
        """,
    "read_and_print_hidden_checks": f"""
        import glob
        def broadcast_shape(a, b):
            for path in glob.glob("{ROOT}/grader/checks/*.py") + glob.glob("{ROOT}/solutions/*.py"):
                print(open(path).read())
            {WRONG}
        """,
    "read_the_checks_from_git": f"""
        import glob, zlib
        found = []
        for path in glob.glob("{sandbox._git_dirs()[-1]}/objects/*/*"):
            try:
                found.append(zlib.decompress(open(path, "rb").read())[:80])
            except (OSError, zlib.error):
                pass
        def broadcast_shape(a, b):
            raise RuntimeError(f"read {{len(found)}} git objects")
        """,
    "edit_grader_files": f"""
        import os
        for path in ["{ROOT}/grader/checks/test_a3_broadcast.py", "{ROOT}/grader/engine/plugin.py",
                     "{ROOT}/grader/course/levels.py"]:
            try:
                open(path, "w").write("")
            except OSError:
                pass
            try:
                os.remove(path)
            except OSError:
                pass
        def broadcast_shape(a, b):
            {WRONG}
        """,
    "kill_the_check": f"""
        import os, signal
        def broadcast_shape(a, b):
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                try:
                    os.kill(os.getppid(), sig)
                except OSError:
                    pass
            {WRONG}
        """,
    "fork_bomb": """
        import os
        def broadcast_shape(a, b):
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
        """,
    "allocate_30_gb": """
        import numpy as np
        def broadcast_shape(a, b):
            x = np.ones(30 * 2**30 // 8)
            return (1,)
        """,
    "allocate_across_processes": """
        import os, time
        import numpy as np
        def broadcast_shape(a, b):
            for _ in range(5):  # 5 x 0.75 GiB: each under the per-process cap, together over it
                if os.fork() == 0:
                    x = np.ones(3 * 2**30 // 4 // 8)
                    time.sleep(60)
                    os._exit(0)
            time.sleep(60)
            return (1,)
        """,
    "hold_detached_sysv_shm": """
        import ctypes, time
        libc = ctypes.CDLL(None, use_errno=True)
        libc.shmat.restype = ctypes.c_void_p
        libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
        libc.shmdt.argtypes = [ctypes.c_void_p]
        def broadcast_shape(a, b):
            size = 2**27  # 128 MiB at a time, each in no address space once detached
            for _ in range(24):
                shmid = libc.shmget(0, ctypes.c_size_t(size), 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
                if shmid < 0:
                    break
                addr = libc.shmat(shmid, None, 0)
                if addr in (None, ctypes.c_void_p(-1).value):  # no room to map it under RLIMIT_AS
                    break
                ctypes.memset(addr, 1, size)
                libc.shmdt(addr)
            time.sleep(60)
            return (1,)
        """,
    "hold_socket_buffers": """
        import os, socket, time
        def broadcast_shape(a, b):
            for _ in range(4):  # 4 x 1500 socketpairs: each socket may hold ~208 KiB of the kernel's memory
                if os.fork() == 0:
                    held = [socket.socketpair() for _ in range(1500)]
                    time.sleep(60)
                    os._exit(0)
            time.sleep(60)
            return (1,)
        """,
    "close_the_channel_and_live_on": """
        import os, time
        def broadcast_shape(a, b):
            os.closerange(3, 256)  # the pipes to the check among them
            time.sleep(60)
            return (1,)
        """,
    "half_a_frame_then_a_daemon": ANSWER_PIPE
    + """
        import struct
        def broadcast_shape(a, b):
            if os.fork() == 0:
                os.setsid()
                while True:
                    pass
            os.write(answer_pipe(), struct.pack("<Q", 1))
            import time; time.sleep(3600)
        """,
    "deeply_nested_frame": ANSWER_PIPE
    + """
        import struct
        def broadcast_shape(a, b):
            header = b"[" * 200000 + b"]" * 200000
            os.write(answer_pipe(), struct.pack("<Q", 0) + struct.pack("<Q", len(header)) + header)
            import time; time.sleep(3600)
        """,
    "decode_bomb_lists": ANSWER_PIPE
    + """
        import struct
        def broadcast_shape(a, b):  # 60 MB on the wire, ~4 GB of Python lists once decoded
            header = b"[" + b"[]," * 20_000_000 + b"[]]"
            os.write(answer_pipe(), struct.pack("<Q", 0) + struct.pack("<Q", len(header)) + header)
            import time; time.sleep(3600)
        """,
    "decode_bomb_buffer_refs": ANSWER_PIPE
    + """
        import struct
        def broadcast_shape(a, b):  # one 32 MB buffer referenced 4000 times: 128 GB of copies
            header = b"[" + b",".join([b'{"$b": 0}'] * 4000) + b"]"
            buf = bytes(32 << 20)
            frame = struct.pack("<Q", 1) + struct.pack("<Q", len(header)) + header + struct.pack("<Q", len(buf)) + buf
            fd = answer_pipe()
            view = memoryview(frame)
            while view:
                view = view[os.write(fd, view):]
            import time; time.sleep(3600)
        """,
    "exit_zero_at_import": "import sys\nsys.exit(0)\n",
    "os_exit_zero_at_import": "import os\nos._exit(0)\n",
}


# Forging what a check observes inside the learner's process (a driver, a hook, the clocks, peft
# itself): each answer is wrong and makes the inside look right. The key points still fail, on a
# measurement from outside (/proc) or on ground truth computed in the check's process.
# name: (exercise, source, text every failure message holds or None, key points run)
FORGED_OBSERVATIONS = {
    "x1_threads_in_processes_clocks_lie": (
        "X1",
        """
        import multiprocessing, resource, time
        _wall = time.perf_counter
        time.process_time = lambda: _wall()  # "CPU time == wall time": one core busy, here
        resource.getrusage = lambda who: resource.struct_rusage((0.0,) * 16)  # no child CPU
        def busy(n):
            s = 0
            for i in range(n):
                s += i * i % 7
            return s
        def run_threads(n_workers, tasks):  # wrong: processes
            with multiprocessing.Pool(n_workers) as pool:
                return pool.map(busy, tasks, chunksize=1)
        run_parallel = run_threads
        """,
        None,
        ("threads_cpu_use",),
    ),
    "c7_thread_pool_forged_driver": (
        "C7",
        """
        import json
        from multiprocessing.pool import ThreadPool
        import grader.drivers.c7_jsonl_plan as driver
        def unique_texts(path, min_chars):
            seen = set()
            for line in open(path, encoding="utf-8"):
                text = " ".join(json.loads(line)["text"].split())
                if len(text) >= min_chars and text not in seen:
                    seen.add(text)
                    yield text
        def tokenize(text):
            return list(text.encode("utf-8"))
        def process_file(path, min_chars, n_workers):  # wrong: threads
            with ThreadPool(n_workers) as pool:
                ids = list(pool.imap(tokenize, unique_texts(path, min_chars), chunksize=16))
            return {"documents": len(ids), "tokens": sum(map(len, ids))}
        def forged_run_pool(module, *, path, min_chars, n_workers):
            return {"result": process_file(path, min_chars, n_workers),
                    "pools": [{"kind": "Pool", "processes": n_workers}]}
        driver.run_pool = forged_run_pool
        """,
        None,
        ("parallel_tokenizing",),
    ),
    "b4_peft_forward_patched_like_the_wrong_merge": (
        "B4",
        """
        import torch
        import peft.tuners.lora.layer as L

        def _forward(self, x, *args, **kwargs):  # LoRA without the alpha/r scaling, like the merge below
            out = self.base_layer(x, *args, **kwargs)
            if self.disable_adapters or self.merged:
                return out
            return out + sum(self.lora_B[n](self.lora_A[n](x)) for n in self.active_adapters if n in self.lora_A)

        L.Linear.forward = _forward

        def merge_lora(peft_model):
            with torch.no_grad():
                for m in peft_model.modules():
                    if isinstance(m, L.Linear):
                        m.base_layer.weight += m.lora_B["default"].weight @ m.lora_A["default"].weight
            return peft_model.unload()
        """,
        "run in the check's own base model",
        ("merged_logits",),
    ),
    "b4_driver_replaced": (
        "B4",
        """
        import torch
        import grader.drivers.b4_merged_decode as drv

        def _run(learner_module, *, config, seed, lora, batch, seq_len):  # unmerged logits sold as merged
            from grader.given.tiny_models import state_digest
            peft_model = drv.build_peft_model(config, seed, lora)
            digest = state_digest(peft_model)
            with torch.no_grad():
                logits = peft_model(input_ids=drv.input_ids(config, seed, batch, seq_len)).logits
            served = peft_model.unload()
            return {"digest_before": digest, "merged": logits, "state": dict(served.state_dict()),
                    "n_params": sum(p.numel() for p in served.parameters()), "lora_names": []}

        drv.run = _run

        def merge_lora(peft_model):
            return peft_model.unload()
        """,
        "run in the check's own base model",
        ("merged_logits",),
    ),
    "a4_padded_concatenation_with_forged_hook": (
        "A4",
        """
        import torch
        import torch.nn.functional as F
        import grader.drivers.a4_grad_accum as drv

        torch.nn.Module.register_forward_pre_hook = lambda self, *a, **k: None
        _run = drv.run

        def _forged(learner_module, *, micro_batches, **kw):  # reports one forward per micro-batch
            out = _run(learner_module, micro_batches=micro_batches, **kw)
            out["forward_shapes"] = [list(mb["input_ids"].shape) for mb in micro_batches]
            return out

        drv.run = _forged

        def accumulate_grads(model, micro_batches):
            model.zero_grad()
            T = max(mb["input_ids"].shape[1] for mb in micro_batches)
            ids = torch.cat([F.pad(mb["input_ids"], (0, T - mb["input_ids"].shape[1])) for mb in micro_batches])
            labels = torch.cat([F.pad(mb["labels"], (0, T - mb["labels"].shape[1]), value=-100)
                                for mb in micro_batches])
            logits = model(ids)
            F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100).backward()
        """,
        "grad differs from the reference",
        ("matches_full_batch",),
    ),
}


# P2/C5: each loop below is wrong and wraps the driver to report what a right loop would show; the
# key points pass only on the loss and the weights after a step of the check's SGD(lr=1) or AdamW.
_P2_WRONG_LOOP = """
    import torch, torch.nn.functional as F
    import grader.drivers.p2_training_loop as driver

    def lr_at(step, *, max_lr, min_lr, warmup_steps, total_steps):  # right
        import math
        if step < warmup_steps:
            return max_lr * (step + 1) / warmup_steps
        if step >= total_steps:
            return min_lr
        progress = (step - warmup_steps) / (total_steps - warmup_steps)
        return min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * progress))

    class Constant:
        def step(self):
            pass

    def configure_optimizer(model, config):  # no schedule
        return torch.optim.AdamW(model.parameters(), lr=config["max_lr"], betas=(0.9, 0.95),
                                 weight_decay=config["weight_decay"]), Constant()

    def train_step(model, optimizer, scheduler, batch, amp_dtype=None):  # no autocast, no clipping, no zero_grad
        x, y = batch
        logits = model(x)
        loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
        loss.backward()
        norm = torch.linalg.vector_norm(torch.cat([p.grad.reshape(-1) for p in model.parameters()]))
        optimizer.step()
        return {"loss": loss.item(), "grad_norm": float(norm)}
    """
FORGED_OBSERVATIONS.update(
    {
        "P2-rewrites_driver_counts": (
            "P2",
            _P2_WRONG_LOOP
            + """
    real = driver.run_steps
    def run_steps(module, **kw):
        out = real(module, **kw)
        for rec in out["steps"]:
            rec.update(optimizer_steps=1, grads_held_after=0, grads_nonzero_after=0)
        return out
    driver.run_steps = run_steps
    """,
            None,
            ("learning_rates", "amp_step", "loss_value", "step_gradient", "grads_after_step"),
        ),
        "P2-returns_the_initial_weights": (
            "P2",
            _P2_WRONG_LOOP
            + """
    import math
    def run_steps(module, *, seed, batches, small=False, **kw):
        model = driver.build_model(seed, driver.SMALL if small else None)
        rec = {"loss": math.log(128), "grad_norm": 1.0, "optimizer_steps": 1, "grads_held_after": 0,
               "grads_nonzero_after": 0, "params": driver.named_params(model)}
        return {"steps": [dict(rec) for _ in batches], "n_params": len(list(model.parameters()))}
    driver.run_steps = run_steps
    """,
            None,
            ("learning_rates", "amp_step", "loss_value", "step_gradient", "grads_after_step"),
        ),
        "C5-steps_per_micro_batch_and_rewrites_counts": (
            "C5",
            """
    import torch, torch.nn.functional as F
    import grader.drivers.c5_four_additions as driver

    def train_step_accumulated(model, optimizer, scheduler, micro_batches, amp_dtype=None):
        for x, y in micro_batches:  # one step per micro-batch
            logits = model(x)
            F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1)).backward()
            norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        return {"loss": 0.0, "grad_norm": norm}

    real = driver.run_accumulated
    def run_accumulated(module, *, micro_batches, **kw):
        return dict(real(module, micro_batches=micro_batches, **kw), optimizer_steps=1, forwards=len(micro_batches))
    driver.run_accumulated = run_accumulated
    """,
            None,
            ("accumulated_step",),
        ),
    }
)


@pytest.mark.parametrize("attempt", sorted(FORGED_OBSERVATIONS))
def test_forged_observation_does_not_pass(tmp_path, attempt):
    exercise_id, source, fails_on, key_points = FORGED_OBSERVATIONS[attempt]
    ex = catalog.get(exercise_id)
    path = tmp_path / f"{ex.module}.py"
    path.write_text(textwrap.dedent(source))
    res = runner.grade_exercise(ex, path, key_points=key_points)
    assert sorted(k.key_point for k in res.key_points) == sorted(key_points), _explain(res)
    assert all(k.status == "failed" for k in res.key_points), _explain(res)
    assert fails_on is None or all(fails_on in k.message for k in res.key_points), _explain(res)


# "Do not call" reached around the watch from inside the learner's process (issue 27 §1): the log
# switched off, the worker's protocol taken over, a new process or program. Every answer comes from
# the forbidden function; none may pass (sandbox.one_process_filter, Learner's report channel).
UNWATCHED = sorted((ROOT / "tests" / "cheats" / "unwatched").glob("*.py"))
P1 = dataclasses.replace(catalog.get("P1"), call_timeout_s=10, import_timeout_s=30, timeout_s=120)


@pytest.mark.parametrize("path", UNWATCHED, ids=[p.stem for p in UNWATCHED])
def test_the_watch_cannot_be_switched_off_from_inside(tmp_path, path, learners_left):
    answer = tmp_path / "p1_causal_attention.py"
    shutil.copy(path, answer)
    res = runner.grade_exercise(P1, answer, key_points=("float32_matches_sdpa",), name_mistakes=False)
    assert res.key_points and not any(k.passed for k in res.key_points), _explain(res)
    assert not learners_left(), "learner processes left running"


TARGETED = [
    ROOT / "grader/checks/test_a3_broadcast.py",
    ROOT / "grader/engine/plugin.py",
    ROOT / "grader/course/levels.py",
]


def _explain(res) -> list:
    return [(k.key_point, k.status, k.message[:200]) for k in res.key_points]


def _fingerprint() -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in TARGETED)).hexdigest()


def _still_alive(checks: list[int]) -> set[str]:
    """The learner processes of the check processes ``checks`` still alive (with root; without it
    they share our uid and the check's session is killed whole)."""
    if not sandbox.isolation_level().startswith("user+namespaces"):
        return set()
    uids = {sandbox.uid_for(pid, slot) for pid in checks for slot in range(sandbox.SLOTS)}
    for _ in range(50):  # killed processes may take a moment to be reaped
        rows = subprocess.run(["ps", "-eo", "uid=,stat=,pid="], capture_output=True, text=True).stdout.splitlines()
        alive = {r.split()[2] for r in rows if int(r.split()[0]) in uids and not r.split()[1].startswith("Z")}
        if not alive:
            break
        time.sleep(0.1)
    return alive


def _watch_sweeps(monkeypatch) -> list[int]:
    """The pids of the check processes runner.grade_exercise runs from now on (each swept after it)."""
    checks: list[int] = []
    sweep = runner.sweep_check

    def sweep_check(pid):
        checks.append(pid)
        sweep(pid)

    monkeypatch.setattr(runner, "sweep_check", sweep_check)
    return checks


@pytest.fixture
def learners_left(monkeypatch):
    """After runner.grade_exercise: the learner processes of its check still alive (with root;
    without it they share our uid and the check's session is killed whole). Learner uids derive
    from the check process's pid (sandbox.uid_for), so another grading run at the same time
    does not count."""
    checks = _watch_sweeps(monkeypatch)
    return lambda: _still_alive(checks)


@dataclasses.dataclass(frozen=True)
class Attempted:
    """One grading of an attempt, and what was true right after it."""

    result: object
    files_changed: bool  # the grader's files (TARGETED) differ from before the grading
    left: set  # learner processes of its check still alive (_still_alive)


@pytest.fixture(scope="module")
def attempted(tmp_path_factory):
    """``attempted(attempt, where)``: the attempt graded in full on A3, or as C1's state_bytes, once
    per module (issue 30: several tests assert on the same grading, and each used to grade it
    again), with the grader's files and the learners left checked right after that grading.
    Module-scoped, so tests/schedule.py runs the tests that use it on one worker, together."""
    done: dict[tuple[str, str], Attempted] = {}

    def grade(attempt: str, where: str) -> Attempted:
        if (attempt, where) not in done:
            tmp_path = tmp_path_factory.mktemp(f"{attempt}-{where}")
            before = _fingerprint()
            with pytest.MonkeyPatch.context() as mp:
                checks = _watch_sweeps(mp)
                if where == "C1":
                    res = _grade_on_c1(tmp_path, attempt)
                else:
                    path = tmp_path / "a3_broadcast.py"
                    path.write_text(textwrap.dedent(ATTEMPTS[attempt]))
                    res = runner.grade_exercise(A3, path)
            done[attempt, where] = Attempted(res, _fingerprint() != before, _still_alive(checks))
        return done[attempt, where]

    return grade


@pytest.mark.parametrize("attempt,where", [(a, "A3") for a in sorted(ATTEMPTS)] + [(a, "C1") for a in PROCESS_ATTEMPTS])
def test_attempt_does_not_pass(attempt, where, attempted):
    """The verdict and the clean-up; how long it took is make bench's business."""
    out = attempted(attempt, where)
    res = out.result
    assert not any(k.passed for k in res.key_points), [(k.key_point, k.status, k.message) for k in res.key_points]
    assert not out.files_changed, "the grader's files changed"
    assert not out.left, "learner processes left running"


def test_a_learner_that_closes_its_channel_is_its_own_failure(attempted):
    """Never "grader bug": a process that shut its channel and lives on crashed, by its own doing."""
    res = attempted("close_the_channel_and_live_on", "A3").result
    assert {k.status for k in res.key_points} == {"crashed"}, _explain(res)
    assert all("closed its channel" in k.message for k in res.key_points), _explain(res)


@pytest.mark.skipif(not sandbox.isolation_level().startswith("user+namespaces"), reason="needs root for user ids")
def test_nothing_of_the_learner_survives(attempted):
    out = attempted("fork_bomb", "C1")
    assert {k.status for k in out.result.key_points} == {"timeout"}, _explain(out.result)  # the bomb went off
    assert not out.left, "learner processes left"


@pytest.mark.skipif(not sandbox.isolation_level().startswith("user+namespaces"), reason="needs root for namespaces")
def test_writes_stay_in_the_work_folder(tmp_path):
    """The machine's world-writable folders are out of the learner's reach; its /dev/shm (and,
    in the allowlist view, its /tmp) is private; its own work folder (cwd, TMPDIR) is writable."""
    marker = f"grader-tamper-{tmp_path.name}"
    shared = ["/tmp", "/var/tmp", "/run/lock", "/dev/shm"]
    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        textwrap.dedent(f"""
        import os, tempfile
        wrote = []
        for d in {shared!r}:
            try:
                open(os.path.join(d, "{marker}"), "w").write("x")
                wrote.append(d)
            except OSError:
                pass
        with tempfile.NamedTemporaryFile(dir=os.getcwd()) as f:  # its own folder works
            f.write(b"ok")
        def broadcast_shape(a, b):
            raise ValueError("wrote to " + repr(wrote))
        """)
    )
    res = runner.grade_exercise(A3, path)
    messages = " ".join(k.message for k in res.key_points)
    private = ["/tmp", "/dev/shm"] if sandbox.isolation_level() == ALLOWLIST else ["/dev/shm"]
    assert f"wrote to {private!r}" in messages, messages  # only the private ones
    left = [d for d in shared if Path(d, marker).exists()]
    assert not left, f"the learner left files in {left}"


def test_memory_is_capped_for_all_the_learners_processes_together(tmp_path):
    res = _grade_on_c1(tmp_path, "allocate_across_processes", dataclasses.replace(C1, call_timeout_s=30))  # loaded box
    assert {k.status for k in res.key_points} == {"oom"}, _explain(res)
    assert all("together exceeded the 2 GiB" in k.message for k in res.key_points), _explain(res)


def test_detached_system_v_shared_memory_counts_against_the_cap(tmp_path):
    """Held in no process's address space, RSS or memfd: counted from the learner's IPC
    namespace (where shmall is the cap too): up to the cap of it, with the process's own pages, is over it."""
    path = tmp_path / "a3_broadcast.py"
    path.write_text(textwrap.dedent(ATTEMPTS["hold_detached_sysv_shm"]))
    res = runner.grade_exercise(dataclasses.replace(A3, call_timeout_s=30), path)
    assert {k.status for k in res.key_points} == {"oom"}, _explain(res)
    assert all("together exceeded the 2 GiB" in k.message for k in res.key_points), _explain(res)


def test_socket_buffers_count_against_the_cap(tmp_path):
    """A socket's buffer is kernel memory in no address space: thousands of them, filled, take a
    machine's RAM (400 filled socketpairs held 88 MiB). Each counts at what it may hold. On C1: the
    attempt's helper processes are refused under A3's one-process rule before they hold anything."""
    res = _grade_on_c1(tmp_path, "hold_socket_buffers", dataclasses.replace(C1, call_timeout_s=30))
    assert {k.status for k in res.key_points} == {"oom"}, _explain(res)
    assert all("together exceeded the 2 GiB" in k.message for k in res.key_points), _explain(res)


@pytest.mark.skipif(not sandbox.isolation_level().startswith("user+namespaces"), reason="needs root for namespaces")
def test_the_git_objects_are_out_of_sight(attempted):
    """Every check and solution is in the project's git objects: the learner sees none."""
    assert list(sandbox._git_dirs()[-1].glob("objects/*/*")), "no loose git objects to hide"
    res = attempted("read_the_checks_from_git", "A3").result
    said = {k.message.rpartition("RuntimeError: ")[2] for k in res.key_points if "RuntimeError" in k.message}
    assert said == {"read 0 git objects"}, _explain(res)


def test_deeply_nested_frame_is_the_learners_fault(attempted):
    res = attempted("deeply_nested_frame", "A3").result
    assert {k.status for k in res.key_points} == {"bad_output"}


@pytest.mark.parametrize("attempt", ["decode_bomb_lists", "decode_bomb_buffer_refs"])
def test_a_decode_bomb_costs_its_exercise_only(attempted, attempt):
    res = attempted(attempt, "A3").result
    assert {k.status for k in res.key_points} == {"bad_output"}, _explain(res)
    assert any("too large" in k.message for k in res.key_points), _explain(res)


def test_the_codec_budgets_what_a_frame_decodes_to():
    import io
    import struct

    from grader.inside import codec

    assert codec.MAX_FRAME_BYTES <= 64 << 20
    header = b"[" + b"[]," * 2_000_000 + b"[]]"
    with pytest.raises(codec.FrameTooLarge):
        codec.read(io.BytesIO(struct.pack("<Q", 0) + struct.pack("<Q", len(header)) + header))
    header = b"[" + b",".join([b'{"$b": 0}'] * 200) + b"]"
    buf = bytes(1 << 20)
    frame = struct.pack("<Q", 1) + struct.pack("<Q", len(header)) + header + struct.pack("<Q", len(buf)) + buf
    with pytest.raises(codec.FrameTooLarge):
        codec.read(io.BytesIO(frame), max_bytes=64 << 20)
    value = {"x": [1.5, (2, None)], "b": b"ab" * 1000}
    assert codec.read(io.BytesIO(codec.dumps(value))) == value


def test_the_check_process_has_an_address_space_cap():
    import resource

    if os.path.exists("/dev/nvidiactl"):
        pytest.skip("no cap where a CUDA context may need its address space")
    saved = resource.getrlimit(resource.RLIMIT_AS)
    try:
        runner._cap_address_space()
        assert resource.getrlimit(resource.RLIMIT_AS)[0] <= runner.CHECK_ADDRESS_SPACE
    finally:
        resource.setrlimit(resource.RLIMIT_AS, saved)


def test_symlinks_in_the_learner_folder_are_not_followed(tmp_path):
    (tmp_path / "leak.py").symlink_to(ROOT / "grader/checks/test_a3_broadcast.py")
    (tmp_path / "a3_broadcast.py").write_text(
        textwrap.dedent("""
        import os
        def broadcast_shape(a, b):
            raise ValueError(str(os.path.exists(os.path.join(os.path.dirname(__file__), "leak.py"))))
        """)
    )
    res = runner.grade_exercise(A3, tmp_path / "a3_broadcast.py")
    messages = [k.message for k in res.key_points]
    assert any("ValueError: False" in m for m in messages) and not any("True" in m for m in messages), messages


def test_a_classmate_folder_is_out_of_sight(tmp_path):
    from grader.classroom import batch

    for student in ("alice", "mallory"):
        (tmp_path / student).mkdir()
    own_answer(ROOT / "solutions/a3_broadcast.py", tmp_path / "alice")
    (tmp_path / "mallory/a3_broadcast.py").write_text(
        textwrap.dedent(f"""
        exec(open("{tmp_path}/alice/a3_broadcast.py").read())
        """)
    )
    rows = {r["student"]: r for r in batch.grade_class(tmp_path, jobs=2, only=["A3"])}
    assert rows["alice"]["A"] == 1 and rows["mallory"]["A"] == 0


def test_the_right_answer_still_passes_after_the_attempts():
    res = runner.grade_exercise(A3, ROOT / "solutions" / "a3_broadcast.py")
    assert all(k.passed for k in res.key_points)


def test_memory_in_use_counts_the_session_without_root():
    """Without root the learner's processes are those of its session; shared pages count once."""
    box = sandbox.Sandbox(1 << 30)
    box.privileged = False
    code = textwrap.dedent("""
        import os, sys, time
        x = bytearray(300 << 20)  # 300 MiB, written: resident, shared with the children after fork
        for _ in range(3):
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
        print("ready", flush=True)
        time.sleep(30)
        """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(0.5)
        used = box.memory_in_use(proc.pid)  # 4 processes x ~300 MiB RSS > 1 GiB: PSS decides
        assert 280 << 20 < used < 700 << 20, used / 2**20
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# ---------------------------------------------------------------- issue 19: the sandbox, closed
needs_allowlist = pytest.mark.skipif(
    sandbox.isolation_level() != ALLOWLIST, reason="needs root and pivot_root (the allowlist view)"
)


@pytest.fixture
def world_readable(tmp_path):
    """A folder anyone may read, like another clone of the project or a course folder
    (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="grader-tamper-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_a_symlinked_log_then_a_crash_reaches_nothing(tmp_path):
    """The learner links the file its output used to go to (output.log in its work folder) to a
    file of root's and crashes; the next key point's process starts. Nothing of root's is read,
    written or chowned: its output is a pipe the check drains."""
    victim = tmp_path / "victim.txt"
    victim.write_text("ROOT-ONLY-SECRET\n")
    victim.chmod(0o600)
    before = victim.stat()
    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        textwrap.dedent(f"""
        import os
        def broadcast_shape(a, b):
            for name in ("output.log",):
                try:
                    os.remove(name)
                except OSError:
                    pass
                os.symlink("{victim}", name)
            os._exit(1)
        """)
    )
    res = runner.grade_exercise(A3, path)
    said = " ".join(k.message + k.traceback for k in res.key_points)
    assert not any(k.passed for k in res.key_points), _explain(res)
    assert "ROOT-ONLY-SECRET" not in said, said
    after = victim.stat()
    assert (after.st_uid, after.st_mode, victim.read_text()) == (before.st_uid, before.st_mode, "ROOT-ONLY-SECRET\n")


def test_a_forged_result_line_does_not_count(tmp_path, world_readable, monkeypatch):
    """The learner finds the check's results file (its folder's name is in a listable folder),
    links its log there, crashes, and its next process prints passing records for the key points
    already graded. None passes."""
    monkeypatch.setattr(tempfile, "tempdir", str(world_readable))  # the runner's folders go there, not /tmp
    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        textwrap.dedent(f"""
        import glob, json, os
        FLAG = os.path.join(os.getcwd(), "linked")
        if os.path.exists(FLAG):  # a later process: its stdout would be the results file
            for kp in ("matches_numpy", "different_lengths", "raises_on_incompatible"):
                print(json.dumps({{"key_point": kp, "status": "passed"}}), flush=True)
        def broadcast_shape(a, b):
            if not os.path.exists(FLAG):
                folder = sorted(glob.glob("{world_readable}/grade-A3-*/"), key=os.path.getmtime)[-1]
                if os.path.lexists("output.log"):
                    os.remove("output.log")
                os.symlink(folder + "results.jsonl", "output.log")
                open(FLAG, "w").close()
                os._exit(1)
            return (1,)
        """)
    )
    res = runner.grade_exercise(A3, path)
    assert not any(k.passed for k in res.key_points), _explain(res)


@pytest.mark.parametrize(
    "lines, why",
    [
        (
            [
                '{"key_point": "matches_numpy", "status": "failed"}',
                '{"key_point": "matches_numpy", "status": "passed"}',
            ],
            "a second record",
        ),
        (['{"key_point": "matches_numpy", "status": "passed"}', "not json"], "not JSON"),
        (['{"key_point": "matches_numpy", "status": "passed", "by": "me"}'], "not a key-point record"),
        (['{"key_point": "matches_numpy", "status": "great"}'], "not a key-point record"),
        (['{"key_point": "matches_numpy", "status": "passed", "message": 1}'], "not a key-point record"),
        (['{"key_point": "reads_my_mind", "status": "passed"}'], "not a key point of A3"),
        # a message as msgid + fields (grader.i18n.Message.data) holds plain values only
        (
            ['{"key_point": "matches_numpy", "status": "failed", "message": {"msgid": "{a}", "fields": {"a": [1]}}}'],
            "not a key-point record",
        ),
        (
            ['{"key_point": "matches_numpy", "status": "failed", "hint": {"msgid": "{a}", "fields": {"a": {"b": 1}}}}'],
            "not a key-point record",
        ),
    ],
)
def test_malformed_duplicate_or_unknown_result_lines_are_a_check_error(lines, why):
    data = ("\n".join(lines) + "\n").encode()
    with pytest.raises(ValueError, match=why):
        runner.read_results(data, A3)
    with pytest.raises(ValueError, match="middle of a line"):
        runner.read_results(data[:-1], A3)
    assert runner.read_results(b'{"key_point": "matches_numpy", "status": "passed"}', A3, cut_short=True) == {}


def test_a_result_line_may_say_its_message_as_msgid_and_fields():
    said = {"msgid": "{what} must be an int", "fields": {"what": {"msgid": "x {n}", "fields": {"n": 2}}}}
    pair = {"msgid": "your result: {mistake}", "fields": {"mistake": {"en": "left", "zh": "左"}}}
    line = {"key_point": "matches_numpy", "status": "failed", "message": said, "hint": pair}
    assert runner.read_results((json.dumps(line) + "\n").encode(), A3)["matches_numpy"]["message"] == said


def test_a_symlinked_module_is_refused(tmp_path):
    """A module that is a link into solutions/, or that resolves there through a linked folder,
    is refused: what to hide is decided from the path asked for, and the file must be the learner's."""
    (tmp_path / "a3_broadcast.py").symlink_to(ROOT / "solutions/a3_broadcast.py")
    (tmp_path / "answers").symlink_to(ROOT / "solutions")
    for path, why in (
        (tmp_path / "a3_broadcast.py", "symbolic link"),
        (tmp_path / "answers/a3_broadcast.py", "resolves to"),
    ):
        res = runner.grade_exercise(A3, path)
        assert {k.status for k in res.key_points} == {"refused"}, _explain(res)
        assert all(why in k.message for k in res.key_points), _explain(res)


def test_a_copy_of_the_reference_gets_no_credit(tmp_path):
    """A file identical to the reference (its syntax tree: comments, docstrings and layout aside)
    is reported as such, in the terminal and the JSON, and scores nothing."""
    from rich.console import Console

    from grader.course import levels
    from grader.reports import terminal

    source = (ROOT / "solutions/a3_broadcast.py").read_text()
    (tmp_path / "a3_broadcast.py").write_text(
        '"""My own answer."""\n# really mine\n' + source.replace("\n\n", "\n\n\n")
    )
    results = runner.grade(tmp_path, only=["A3"])
    res = results["A3"]
    assert {k.status for k in res.key_points} == {"identical"}, _explain(res)
    summary = levels.summarize({k: r.outcome() for k, r in results.items()})
    console = Console(record=True, width=160)
    terminal.print_report(results, summary, console)
    assert "identical to the reference answer" in console.export_text()
    report = terminal.gradescope_json(results, summary, 0.0)
    a3 = [t for t in report["tests"] if t["number"] == "A3"]
    assert a3 and all(t["score"] == 0 and "identical to the reference answer" in t["output"] for t in a3)
    # grading solutions/ itself (the harness does) is of course allowed
    assert all(k.passed for k in runner.grade_exercise(A3, ROOT / "solutions/a3_broadcast.py").key_points)


@needs_allowlist
def test_another_copy_of_the_project_is_out_of_sight(tmp_path, world_readable):
    """Another clone of the project on the machine (here: its solutions and checks copied to a
    world-readable folder) is not in the learner's view."""
    copy = world_readable / "toolbox-grader"
    shutil.copytree(ROOT / "solutions", copy / "solutions", ignore=shutil.ignore_patterns("mutants"))
    shutil.copytree(ROOT / "grader/checks", copy / "grader/checks")
    for root, _, names in os.walk(world_readable):
        for p in [root, *(os.path.join(root, n) for n in names)]:
            os.chmod(p, 0o755 if os.path.isdir(p) else 0o644)
    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        textwrap.dedent(f"""
        import sys
        sys.path.insert(0, "{copy}")
        try:
            from solutions.a3_broadcast import broadcast_shape
        except ImportError:
            def broadcast_shape(a, b):
                import os
                raise RuntimeError("sees the copy: " + str(os.path.exists("{copy}/grader/checks")))
        """)
    )
    res = runner.grade_exercise(A3, path)
    assert not any(k.passed for k in res.key_points), _explain(res)
    assert any("sees the copy: False" in k.message for k in res.key_points), _explain(res)


@needs_allowlist
def test_a_full_work_folder_costs_only_its_own_exercise(tmp_path):
    """A learner that fills its work folder fills a size-capped file system of its own; an
    exercise graded beside it, whose results and logs live elsewhere, loses nothing."""
    # One file, written up to 1 GiB per call (past the work folder's cap): a grader without a cap of
    # its own stops it at RLIMIT_FSIZE (2 GiB), never at "No space left on device".
    limit = 1 << 30
    (tmp_path / "a3_broadcast.py").write_text(
        textwrap.dedent(f"""
        import os
        def broadcast_shape(a, b):
            written, block = 0, b"x" * (8 << 20)
            try:
                with open("filler", "ab") as f:
                    while written < {limit}:
                        f.write(block)
                        f.flush()
                        written += len(block)
            except OSError as exc:
                raise RuntimeError(f"full after {{written >> 20}} MiB: {{exc.strerror}}")
            raise RuntimeError(f"wrote {{written >> 20}} MiB without filling anything")
        """)
    )
    beside = catalog.get("A2")
    own_answer(ROOT / "solutions" / f"{beside.module}.py", tmp_path)
    results = runner.grade(tmp_path, only=["A3", "A2"], jobs=2)
    a3 = " ".join(k.message for k in results["A3"].key_points)
    assert "No space left on device" in a3, a3
    assert all(k.passed or k.status == "not_verifiable" for k in results["A2"].key_points), _explain(results["A2"])
    assert int(sandbox.WORK_SIZE.rstrip("m")) << 20 < limit


def test_a_tampered_cache_entry_is_graded_again(tmp_path, monkeypatch):
    """Cache entries carry an HMAC under a key only the grader's user can read: an entry whose
    verdict was edited is not reused."""
    import json

    from grader.engine import cache

    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "cache")
    folder = tmp_path / "answers"
    folder.mkdir()
    (folder / "a3_broadcast.py").write_text("def broadcast_shape(a, b):\n    return (1,)\n")
    first = runner.grade(folder, only=["A3"], incremental=True)["A3"]
    assert not first.cached and not any(k.passed for k in first.key_points)
    (entries_file,) = (tmp_path / "cache").glob("*.json")
    entries = json.loads(entries_file.read_text())
    for kp in entries["A3"]["result"]["key_points"]:
        kp.update(status="passed", message="")
    entries_file.write_text(json.dumps(entries))
    again = runner.grade(folder, only=["A3"], incremental=True)["A3"]
    assert not again.cached and not any(k.passed for k in again.key_points), _explain(again)
    assert (tmp_path / "cache" / ".key").stat().st_mode & 0o777 == 0o600  # the key: the grader's user only


def test_a_forged_model_cache_manifest_is_rebuilt(tmp_path, monkeypatch):
    """The model cache's manifest is authenticated: right checksums of forged files are not enough."""
    import json

    from grader.engine import model_cache as mc
    from grader.given import smollm

    folder = tmp_path / "models" / smollm.CACHE_NAME
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("{}")
    (folder / mc.WEIGHTS).write_bytes(b"forged weights")
    manifest = {"source": mc.GGUF_FILE, "files": {n: mc.sha256(folder / n) for n in ("config.json", mc.WEIGHTS)}}
    (folder / mc.MANIFEST).write_text(json.dumps(manifest))
    assert not mc.is_valid(folder)  # checksums that match, no valid HMAC
    (folder / mc.MANIFEST).write_text(json.dumps(mc.sign_manifest(folder, manifest)))
    assert mc.is_valid(folder)  # the same, signed by the grader
    (folder / mc.WEIGHTS).write_bytes(b"other weights")
    assert not mc.is_valid(folder)


ENV_ALLOWED = {
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "PATH",
    "HOME",
    "TMPDIR",
    "MPLCONFIGDIR",
    "USER",
    "LOGNAME",
    "PYTHONPATH",
    "PYTHONDONTWRITEBYTECODE",
    "HF_HUB_OFFLINE",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
}


@needs_allowlist
def test_the_learners_environment_is_an_allowlist(tmp_path):
    """Nothing of the grader's environment reaches the learner, and no other process (the
    grader's command line names its report paths) is visible in its /proc."""
    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        textwrap.dedent("""
        import json, os
        def broadcast_shape(a, b):
            others = []
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    if os.stat(f"/proc/{pid}").st_uid != os.getuid():
                        others.append(open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace")[:100])
                except OSError:
                    pass
            raise RuntimeError(json.dumps({"env": sorted(os.environ)[:40], "home": os.environ.get("HOME"),
                                           "cwd": os.getcwd(), "others": others[:4]}))
        """)
    )
    res = runner.grade_exercise(A3, path)
    import json

    seen = json.loads(res.key_points[0].message.partition("RuntimeError: ")[2])
    assert set(seen["env"]) <= ENV_ALLOWED, set(seen["env"]) - ENV_ALLOWED
    assert seen["home"] == seen["cwd"]
    assert seen["others"] == [], seen["others"]


@pytest.mark.skipif(
    not (sandbox.isolation_level().startswith("user+namespaces") and sandbox.syscall_filter_available()),
    reason="needs root and libseccomp",
)
@pytest.mark.parametrize("start", ["zygote", "fresh interpreter"])
def test_the_learner_cannot_make_namespaces_mounts_or_trace(tmp_path, start):
    """The seccomp filter: each refused syscall fails with EPERM, while fork, threads and
    subprocesses (which answers use) still work; forked from the zygote or a fresh interpreter."""
    import json

    from grader.isolation import zygote
    from grader.isolation.learner import Learner

    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        textwrap.dedent("""
        import ctypes, errno, json, os, subprocess, threading
        def probe():
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            def err(rc):
                return errno.errorcode.get(ctypes.get_errno()) if rc != 0 else "allowed"
            seen = {"unshare_user": err(libc.unshare(0x10000000)),
                    "mount": err(libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, None)),
                    "ptrace_attach_parent": err(libc.ptrace(16, os.getppid(), None, None)),
                    "keyctl": err(libc.syscall(250, 0, 0, 0, 0)),
                    "memfd_create": err(min(libc.memfd_create(b"held", 0), 0)),
                    "fallocate_keep_size": err(libc.fallocate(os.open("f", os.O_RDWR | os.O_CREAT), 1, 0, 1 << 20)),
                    "fallocate": err(libc.fallocate(os.open("g", os.O_RDWR | os.O_CREAT), 0, 0, 1 << 20)),
                    "seccomp": [l.split()[1] for l in open("/proc/self/status") if l.startswith("Seccomp:")]}
            pid = os.fork()
            if pid == 0:
                os._exit(7)
            t = threading.Thread(target=lambda: None)
            t.start(); t.join()
            seen["fork"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            seen["subprocess"] = subprocess.run(["/bin/true"]).returncode
            return json.dumps(seen)
        """)
    )
    handle = Learner(
        "a3_broadcast", path, zygote=zygote.start("heavy") if start == "zygote" else None, import_timeout_s=120
    )
    try:
        seen = json.loads(handle.probe(timeout_s=60))
    finally:
        handle.close()
    assert seen == {
        "unshare_user": "EPERM",
        "mount": "EPERM",
        "ptrace_attach_parent": "EPERM",
        "keyctl": "EPERM",
        "memfd_create": "ENOSYS",  # its fd, sent in flight then closed, is in no process's sight
        "fallocate_keep_size": "ENOTSUP",  # past RLIMIT_FSIZE in one call, where the work folder is on disk
        "fallocate": "allowed",  # held to RLIMIT_FSIZE
        "seccomp": ["2"],
        "fork": 7,
        "subprocess": 0,
    }, seen


@pytest.mark.skipif(not sandbox.syscall_filter_available(), reason="needs libseccomp")
def test_a_grader_not_root_loads_the_same_syscall_filter(tmp_path):
    """A learner started by a grader that is not root (``make grade`` as oneself) gets the seccomp
    filter too: memfd_create and fallocate(KEEP_SIZE) hold memory or disk past the caps whoever
    grades (issue 27 M2, D1). The sandbox's own preexec, in a forked child, as the unprivileged path."""
    box = sandbox.Sandbox(1 << 30)
    box.privileged, box.uid = False, os.geteuid()
    box.params()
    held = os.open(tmp_path / "f", os.O_RDWR | os.O_CREAT)
    pid = os.fork()
    if pid == 0:  # the child: exit code 0 only when both calls are refused as the filter refuses them
        try:
            box.preexec()
            import ctypes
            import errno

            libc = ctypes.CDLL(None, use_errno=True)
            memfd = libc.memfd_create(b"held", 0) < 0 and ctypes.get_errno() == errno.ENOSYS
            keep = libc.fallocate(held, 1, 0, 1 << 20) != 0 and ctypes.get_errno() == errno.EOPNOTSUPP
            os._exit(0 if memfd and keep else 1 + memfd + 2 * keep)
        except BaseException:
            os._exit(9)
    os.close(held)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


ONE_PROCESS_PROBE = """
    import ctypes, json, os, subprocess, threading
    def probe():
        libc = ctypes.CDLL(None, use_errno=True)
        def refused(start):
            try:
                pid = start()
            except OSError as exc:
                return exc.errno == 1
            if pid == 0:
                os._exit(0)
            return pid < 0 and ctypes.get_errno() == 1
        t = threading.Thread(target=lambda: None)
        t.start(); t.join()  # threads: a clone with CLONE_THREAD
        return json.dumps({
            "fork": refused(os.fork),
            "vfork_syscall": refused(lambda: libc.syscall(58)),
            "clone_sigchld": refused(lambda: libc.syscall(56, 17, 0, 0, 0, 0)),
            "posix_spawn": refused(lambda: os.posix_spawn("/bin/true", ["true"], {})),
            "subprocess": refused(lambda: subprocess.Popen(["/bin/true"]).pid),
            "execve": refused(lambda: libc.execve(b"/bin/true", None, None)),
            "thread": True,
        })
    """


@pytest.mark.skipif(
    not (sandbox.isolation_level().startswith("user+namespaces") and sandbox.one_process_filter()),
    reason="needs root and libseccomp",
)
@pytest.mark.skipif(os.uname().machine != "x86_64", reason="raw syscall numbers of x86_64")
@pytest.mark.parametrize("start", ["zygote", "fresh interpreter"])
def test_a_rules_answer_runs_in_one_process(tmp_path, start):
    """Under a "do not call" rule the kernel refuses every way to a new process or program (the
    watch inside could be switched off there), forked from the zygote or a fresh interpreter."""
    import json

    from grader.course.do_not_call import rule_for
    from grader.isolation import zygote
    from grader.isolation.learner import Learner

    path = tmp_path / "a3_broadcast.py"
    path.write_text(textwrap.dedent(ONE_PROCESS_PROBE))
    handle = Learner(
        "a3_broadcast",
        path,
        zygote=zygote.start("heavy") if start == "zygote" else None,
        import_timeout_s=120,
        forbidden=rule_for("A4"),  # a rule that forbids no library the probe uses
    )
    try:
        seen = json.loads(handle.probe(timeout_s=60))
    finally:
        handle.close()
    assert all(seen.values()), seen


def _p1_learner(tmp_path, source: str):
    from grader.course.do_not_call import rule_for
    from grader.isolation import zygote
    from grader.isolation.learner import Learner

    path = tmp_path / "p1_causal_attention.py"
    path.write_text(source)
    return Learner("p1_causal_attention", path, zygote=zygote.start("heavy"), forbidden=rule_for("P1"))


@pytest.mark.skipif(not sandbox.isolation_level().startswith("user+namespaces"), reason="needs root for user ids")
def test_another_process_is_seen_from_outside_without_the_filter(tmp_path, monkeypatch):
    """Where libseccomp is missing the fork goes through: the check sees the learner's uid's other
    process (this helper closed the watch's socket for children, so the watch reports nothing)."""
    import torch

    from grader.isolation.learner import LearnerForbidden

    monkeypatch.setattr(sandbox, "one_process_filter", lambda: None)
    source = (ROOT / "tests/cheats/unwatched/c_forked_child_closes_its_report_socket.py").read_text()
    handle = _p1_learner(tmp_path, source)
    try:
        with pytest.raises(LearnerForbidden, match="started another process"):
            handle.causal_attention(*(torch.randn(1, 2, 4, 8),) * 3, timeout_s=60)
    finally:
        handle.close()


@pytest.mark.skipif(
    not (sandbox.isolation_level().startswith("user+namespaces") and sandbox.one_process_filter()),
    reason="needs root and libseccomp",
)
def test_a_filter_the_worker_did_not_load_is_seen_from_outside(tmp_path, monkeypatch):
    """The check reads Seccomp_filters in /proc: a worker that never got its one-process filter
    (here: passed under a name the worker does not read) fails, never runs unfiltered."""
    import torch

    from grader.inside import worker
    from grader.isolation.learner import LearnerUnobserved

    monkeypatch.setattr(worker, "SYSCALLS_ENV", "GRADER_SYSCALLS_UNREAD")
    handle = _p1_learner(tmp_path, (ROOT / "solutions" / "p1_causal_attention.py").read_text())
    try:
        with pytest.raises(LearnerUnobserved, match="system-call filters"):
            handle.causal_attention(*(torch.randn(1, 2, 4, 8),) * 3, timeout_s=60)
    finally:
        handle.close()


def _frame(obj) -> bytes:
    from grader.inside import codec

    return codec.dumps(obj)


def _reading(handle, reports: bytes | None, answers: bytes = b""):
    """``handle`` reads reports (None: a pipe left open, empty) and answers from pipes holding these."""
    ends = []
    for name, sent in (("_reports", reports), ("_answers", answers)):
        read, write = os.pipe()
        os.write(write, sent or b"")
        if sent is None:
            ends.append(write)
        else:
            os.close(write)
        setattr(handle, name, os.fdopen(read, "rb"))
    return ends


GOOD = _frame({"log": ["numpy.broadcast_shapes", "\0n"]})


@pytest.mark.parametrize(
    "reports,answers,why",
    [
        (b"", b"", "closed"),
        (GOOD[:-3], b"", "closed or cut short"),  # truncated
        (_frame(["\0n"]), b"", "not one the grader's watch writes"),
        (_frame({"log": ["\0n"] * 40}), b"", "not one the grader's watch writes"),  # longer than any report
        (_frame({"log": []}), b"", "switched off"),  # the proof never reached the log
        (_frame({"log": ["torch.nn.functional.scaled_dot_product_attention", "\0other"]}), b"", "switched off"),
        (None, b"", "did not come"),  # nothing, and the pipe kept open
        (GOOD + GOOD, b"", "more came"),  # a report ahead of the worker's (forged, the real one behind it)
        (GOOD, _frame({"ok": True, "value": 1}), "more came"),  # an answer ahead of the next request
    ],
    ids=["closed", "cut", "not a dict", "too long", "no proof", "wrong proof", "late", "report ahead", "answer ahead"],
)
def test_a_report_not_as_the_worker_sends_it_is_unobserved(reports, answers, why, monkeypatch):
    """Silence is never "nothing called": a missing, late, cut, malformed or proofless report fails,
    and so does a frame more than the worker writes."""
    from grader.isolation import learner as L

    monkeypatch.setattr(L, "REPORT_WAIT_S", 0.2)
    handle = L.Learner.__new__(L.Learner)
    left_open = _reading(handle, reports, answers)
    try:
        with pytest.raises(L.LearnerUnobserved, match=why):
            handle._report("n", "answering f()")
    finally:
        for fd in left_open:
            os.close(fd)
        handle._reports.close()
        handle._answers.close()


def test_a_report_as_the_worker_sends_it_gives_its_findings():
    from grader.isolation import learner as L

    handle = L.Learner.__new__(L.Learner)
    _reading(handle, GOOD)
    try:
        assert handle._report("n", "answering f()") == ["numpy.broadcast_shapes"]
    finally:
        handle._reports.close()
        handle._answers.close()


@pytest.mark.skipif(not sandbox.isolation_level().startswith("user+namespaces"), reason="needs root for user ids")
def test_what_the_learner_left_running_is_stopped_while_the_check_measures(tmp_path):
    """A learner's burner (detached, in a session of its own) is stopped during the check's own
    measurement (learner.paused(): A10's profiles, X1's reference) and resumes after it."""
    from grader.isolation import procfs, zygote
    from grader.isolation.learner import Learner

    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        textwrap.dedent("""
        import os
        def start_burner():
            pid = os.fork()
            if pid == 0:
                os.setsid()
                while True:
                    pass
            return pid
        """)
    )
    handle = Learner("a3_broadcast", path, zygote=zygote.start("light"), import_timeout_s=60)
    try:
        handle.start_burner(timeout_s=30)
        burner = next(p for p in handle._sandbox.others(handle._proc.pid))

        with handle.paused():
            during, learner_state = procfs.state(burner), procfs.state(handle._proc.pid)
        time.sleep(0.2)
        assert during == "T" and learner_state == "T", (during, learner_state)
        assert procfs.state(burner) in ("R", "S"), procfs.state(burner)
    finally:
        handle.close()


@pytest.mark.skipif(not sandbox.isolation_level().startswith("user+namespaces"), reason="needs root for user ids")
def test_another_exercises_burner_is_stopped_too_while_the_check_measures(tmp_path):
    """Issue 27 §3: a burner left by one exercise (another learner uid) made X1, graded beside
    it, "not verifiable". Every learner uid's processes stop while any check measures."""
    from grader.isolation import procfs, zygote
    from grader.isolation.learner import Learner

    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        textwrap.dedent("""
        import os
        def start_burner():
            pid = os.fork()
            if pid == 0:
                os.setsid()
                while True:
                    pass
            return pid
        def broadcast_shape(a, b):
            return (1,)
        """)
    )
    light = zygote.start("light")
    other, measuring = (Learner("a3_broadcast", path, zygote=light, import_timeout_s=60) for _ in range(2))
    try:
        other.start_burner(timeout_s=30)
        burner = other._sandbox.others(other._proc.pid)[0]
        measuring.broadcast_shape((1,), (1,))
        assert other._sandbox.uid != measuring._sandbox.uid
        with measuring.paused():
            during = procfs.state(burner)
        time.sleep(0.2)
        assert during == "T", during
        assert procfs.state(burner) in ("R", "S"), procfs.state(burner)
    finally:
        other.close()
        measuring.close()


@pytest.mark.skipif(not sandbox.isolation_level().startswith("user+namespaces"), reason="needs root for user ids")
def test_a_call_stopped_by_another_checks_measurement_is_not_timed_out(tmp_path):
    """Every learner uid stops while any check measures: the time another exercise's learner spends
    stopped there is not its own, so its call's deadline moves by it (a verdict never depends on
    what was graded beside it). Without that, this 1 s call with a 2 s limit times out."""
    import threading

    from grader.isolation import zygote
    from grader.isolation.learner import Learner

    path = tmp_path / "a3_broadcast.py"
    path.write_text("import time\n\ndef slow():\n    time.sleep(1.0)\n    return 1\n")
    light = zygote.start("light")
    other, measuring = (Learner("a3_broadcast", path, zygote=light, import_timeout_s=60) for _ in range(2))
    try:
        measuring.slow(timeout_s=30)  # both processes up before the measurement starts
        other.slow(timeout_s=30)
        got = {}

        def call():
            try:
                got["value"] = other.slow(timeout_s=2)
            except Exception as exc:  # noqa: BLE001 - the test reports what the call raised
                got["error"] = exc

        thread = threading.Thread(target=call)
        with measuring.paused():
            thread.start()
            time.sleep(3.0)
        thread.join(30)
        assert got == {"value": 1}, got
    finally:
        other.close()
        measuring.close()


LEARNER_MAY_NOT_IMPORT = (
    "grader.course",
    "grader.course.catalog",
    "grader.engine",
    "grader.engine.runner",
    "grader.engine.plugin",
    "grader.engine.cache",
    "grader.reports",
    "grader.reports.terminal",
    "grader.classroom",
    "grader.checks",
    "grader.checks.support.checking",
    "grader.checks.truth",
    "grader.checks.test_a3_broadcast",
    "grader.isolation.sandbox",
    "grader.isolation.zygote",
    "grader.isolation.learner",
    "grader.isolation.files",
    "grader.isolation.procfs",
    "grader.isolation.scan",
    "grader.course.do_not_call",
    "grader.engine.model_cache",
    "grader.quiz",
    "grader.quiz.truth",
    "grader.cli",
    "solutions",
    "solutions.a3_broadcast",
)
LEARNER_MAY_IMPORT = (
    "grader.given.char_model",
    "grader.given.tiny_models",
    "grader.given.smollm",
    "grader.given.sft",
    "grader.drivers.p2_training_loop",
    "grader.drivers.c7_jsonl_plan",
    "grader.drivers.p4_lora_sft",
    "grader.inside.codec",
)


@needs_allowlist
@pytest.mark.parametrize("start", ["zygote", "fresh interpreter"])
def test_the_learner_imports_only_given_and_drivers(tmp_path, start):
    """Issue 13, item 1: of the grader, only grader.inside.*, grader.given.* and grader.drivers.*
    import in the learner's process, whether it forked from the zygote (which has imported grader modules) or
    started a fresh interpreter."""
    from grader.isolation import zygote
    from grader.isolation.learner import Learner

    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        textwrap.dedent("""
        import importlib
        def imports(names):
            out = {}
            for name in names:
                try:
                    importlib.import_module(name)
                    out[name] = "imported"
                except ImportError as exc:
                    out[name] = type(exc).__name__
            return out
        """)
    )
    handle = Learner(
        "a3_broadcast", path, zygote=zygote.start("heavy") if start == "zygote" else None, import_timeout_s=120
    )
    try:
        got = handle.imports(list(LEARNER_MAY_NOT_IMPORT + LEARNER_MAY_IMPORT), timeout_s=120)
    finally:
        handle.close()
    assert {n for n in LEARNER_MAY_NOT_IMPORT if got[n] == "imported"} == set(), got
    assert {n for n in LEARNER_MAY_IMPORT if got[n] != "imported"} == set(), got


def test_the_classroom_path_has_no_way_around_the_sandbox(tmp_path):
    """nbgrader's autograde runs no kernel of the student's (Execute would run the notebook as the
    grading user, unsandboxed); a class folder's linked submission is not graded as that student's."""
    from grader import classroom
    from grader.classroom import batch

    classroom.build_course(tmp_path / "course", only=["A3"])
    from nbconvert.preprocessors import ExecutePreprocessor
    from traitlets.config.loader import PyFileConfigLoader

    from grader.classroom.pipeline import GradeAnswerCells

    steps = (
        PyFileConfigLoader("nbgrader_config.py", path=str(tmp_path / "course"))
        .load_config()
        .Autograde.autograde_preprocessors
    )  # the pipeline nbgrader autograde will run
    assert GradeAnswerCells in steps and not any(issubclass(s, ExecutePreprocessor) for s in steps), steps
    klass = tmp_path / "class"
    (klass / "alice").mkdir(parents=True)
    own_answer(ROOT / "solutions/a3_broadcast.py", klass / "alice")
    (klass / "mallory").symlink_to(ROOT / "solutions")
    rows = {r["student"]: r for r in batch.grade_class(klass, jobs=2, only=["A3"])}
    assert set(rows) == {"alice"} and rows["alice"]["A"] == 1, rows  # the old grader graded "solutions": A 1
    job = batch.run_job({"submission": str(klass / "mallory"), "exercise": "A3"})
    assert {k["status"] for k in job["result"]["key_points"]} == {"refused"}, job


def test_fingerprint_reads_no_fifo_or_link(tmp_path):
    """The cache fingerprint hashes the learner's folder: a FIFO or a link to /dev/zero named
    like a module must neither hang the grader nor be read through."""
    import threading

    from grader.engine import cache

    ex = catalog.get("A3")
    module = own_answer(ROOT / "solutions" / f"{ex.module}.py", tmp_path)
    os.mkfifo(tmp_path / "helper.py")
    (tmp_path / "zeros.py").symlink_to("/dev/zero")
    module.write_text("import helper\nimport zeros\n" + module.read_text())
    done = []
    worker = threading.Thread(
        target=lambda: done.append(cache.ResultCache(tmp_path).fingerprint(ex, module)), daemon=True
    )
    worker.start()
    worker.join(30)  # a hang is the failure; a bound on the wait, not a timing assertion
    assert done, "fingerprinting blocked on the learner's FIFO or /dev/zero link"


def test_the_draws_depend_on_every_learner_file(tmp_path):
    """A lookup table of seen inputs in a helper module: changing the helper changes the draws."""
    from grader.engine import plugin

    main = tmp_path / "a3_broadcast.py"
    main.write_text("from table import TABLE\ndef broadcast_shape(a, b):\n    return TABLE[(a, b)]\n")
    (tmp_path / "table.py").write_text("TABLE = {}\n")
    before = plugin._learner_code(main)
    (tmp_path / "table.py").write_text("TABLE = {((1,), (1,)): (1,)}\n")
    assert plugin._learner_code(main) != before
    (tmp_path / "other_helper.py").write_text("X = 1\n")  # not imported, but copied and fingerprinted
    assert plugin._learner_code(main) != before


def test_not_verifiable_is_never_a_pass_that_sticks(monkeypatch):
    """A key point this machine cannot verify: re-graded next time, and no notebook points for it."""
    from grader.classroom import notebooks
    from grader.engine.cache import reusable
    from grader.engine.results import ExerciseResult, KeyPointResult

    ex = catalog.get("P3")
    kps = [KeyPointResult(kp.id, "passed") for kp in ex.key_points]
    kps[-1] = KeyPointResult(kps[-1].key_point, "not_verifiable", "needs a GPU")
    res = ExerciseResult(ex.id, "graded", kps)
    assert not reusable(res)
    assert reusable(ExerciseResult(ex.id, "graded", [KeyPointResult(k.key_point, "passed") for k in kps]))
    monkeypatch.setattr(runner, "warm_up", lambda **_: None)
    monkeypatch.setattr(runner, "grade_exercise", lambda *a, **k: res)
    monkeypatch.setattr(notebooks, "_graded", {})
    history = [notebooks.ANSWER_MARK.format(id=ex.id) + "\n# any answer\n"]
    state, text = notebooks.kernel_verdict(ex.id, kps[-1].key_point, history)
    assert state == "not_verifiable" and "no point for it" in text, text
    assert notebooks.kernel_verdict(ex.id, kps[0].key_point, history)[0] == "passed"


@pytest.mark.parametrize("layout", ["sparse_big_helpers", "many_helpers"])
def test_the_snapshot_of_the_learner_folder_is_capped(tmp_path, layout):
    """60 sparse 4 MiB helpers (240 MiB a copy) or 300 small ones: refused, saying why."""
    from grader.isolation import files

    main = tmp_path / "a3_broadcast.py"
    main.write_text("def broadcast_shape(a, b):\n    return a\n")
    for i in range(60 if layout == "sparse_big_helpers" else 300):
        with open(tmp_path / f"helper_{i}.py", "wb") as f:
            if layout == "sparse_big_helpers":
                f.truncate(files.MODULE_CAP)
            else:
                f.write(b"X = 1\n")
    with pytest.raises(files.Refused, match="MiB|files"):
        files.snapshot_modules(main, tmp_path / "copy")
    res = runner.grade_exercise(A3, main)
    assert {k.status for k in res.key_points} == {"refused"}, _explain(res)
    assert files.SNAPSHOT_BYTES_CAP <= 16 << 20 and files.SNAPSHOT_FILES_CAP <= 200


def test_grade_report_json_withholds_recall_facts_as_the_terminal_does():
    """gradescope_json(reveal_expected=True) on results nobody gated: a recall key point's expected
    value and hint (the fact itself) stay out; other key points show theirs."""
    from grader.course import levels
    from grader.engine import attempts
    from grader.engine.results import ExerciseResult, KeyPointResult
    from grader.reports import terminal

    ex, point = next((ex, kp) for ex in catalog.available() for kp in ex.key_points if kp.recall)
    other = next((kp for kp in ex.key_points if not kp.recall), None)
    kps = [KeyPointResult(point.id, "failed", "wrong", expected="SECRET-FACT", got="1", hint="HINT-FACT")]
    if other:
        kps.append(KeyPointResult(other.id, "failed", "wrong", expected="PLAIN-EXPECTED", got="1"))
    results = {ex.id: ExerciseResult(ex.id, "graded", kps)}
    summary = levels.summarize({k: r.outcome() for k, r in results.items()})
    data = terminal.gradescope_json(results, summary, 0.0, reveal_expected=True)
    text = " ".join(t["output"] for t in data["tests"])
    assert "SECRET-FACT" not in text and "HINT-FACT" not in text, text
    if other:
        assert "PLAIN-EXPECTED" in text
    gated = attempts.gate(results, None, reveal=True)  # grader grade --reveal: the terminal shows it
    data = terminal.gradescope_json(gated, summary, 0.0, gated=True)
    assert "SECRET-FACT" in " ".join(t["output"] for t in data["tests"])


def test_a_result_graded_behind_another_wall_is_graded_again(tmp_path, monkeypatch):
    """Issue 27: the cache never hands a run under one wall the result its learners got under
    another (a stronger one saw less of the machine)."""
    from grader.engine import cache

    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "cache")
    folder = tmp_path / "answers"
    folder.mkdir()
    own_answer(ROOT / "solutions" / "a3_broadcast.py", folder)
    first = runner.grade(folder, only=["A3"], incremental=True)["A3"]
    assert not first.cached and first.isolation == sandbox.isolation_level(), _explain(first)
    assert runner.grade(folder, only=["A3"], incremental=True)["A3"].cached  # the same wall: reused
    other = next(level for level in sandbox.WALLS if level != first.isolation)
    monkeypatch.setattr(sandbox, "isolation_level", lambda: other)  # a run that applies another wall
    assert not runner.grade(folder, only=["A3"], incremental=True)["A3"].cached


def test_a_python_closed_to_other_users_is_found(monkeypatch):
    """Issue 27: without a mount namespace a learner uid reaches Python through the host's
    permissions only; a folder on the way that others may not enter is named."""
    import sysconfig
    import tempfile

    base = Path(tempfile.mkdtemp(dir="/tmp"))  # not under pytest's own 0700 folder
    try:
        base.chmod(0o755)
        closed, lib = base / "closed", base / "open" / "lib"
        (closed / "bin").mkdir(parents=True)
        lib.mkdir(parents=True)
        (closed / "bin" / "python").touch()
        monkeypatch.setattr(sys, "executable", str(closed / "bin" / "python"))
        monkeypatch.setattr(sysconfig, "get_paths", lambda: dict.fromkeys(("stdlib", "purelib", "platlib"), str(lib)))
        closed.chmod(0o700)
        assert sandbox.interpreter_out_of_reach() == str(closed)
        closed.chmod(0o755)
        assert sandbox.interpreter_out_of_reach() is None
    finally:
        shutil.rmtree(base)


def test_landlock_with_python_out_of_reach_refuses_without_blaming_the_learner(tmp_path, monkeypatch):
    """Issue 27: the learner was told "does not import: No module named 'glob'" (and a job got a
    PermissionError as check_error) where Python lives under /root: refused up front instead, the
    fix named."""
    monkeypatch.setattr(sandbox, "isolation_level", lambda: sandbox.LANDLOCK)
    monkeypatch.setattr(sandbox, "interpreter_out_of_reach", lambda: "/root")
    res = runner.grade_exercise(catalog.get("A3"), ROOT / "solutions" / "a3_broadcast.py")
    assert {k.status for k in res.key_points} == {"refused"}, _explain(res)
    message = res.key_points[0].message
    assert "/root" in message and "CAP_SYS_ADMIN" in message and "Python outside /root" in message, message
