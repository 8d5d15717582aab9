"""Attempts to pass without being right: each ends in a fail or error verdict for that exercise.

The learner's code runs in its own process, as its own user id, with the project read-only,
the hidden checks and solutions out of sight and no network (grader/isolation/sandbox.py); the check
computes its expected values in a process the learner's code never touched.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
import hashlib
import shutil
import subprocess
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from grader.course import catalog
from grader.engine import runner
from grader.isolation import sandbox
from grader.course.catalog import ROOT

A3 = dataclasses.replace(catalog.get("A3"), call_timeout_s=5, import_timeout_s=20, timeout_s=60, memory_gib=2)
WRONG = "return (1,)"  # every attempt answers wrong, then tries to make the check pass anyway

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
                    for kp in ("matches_numpy", "aligns_from_the_right", "raises_on_incompatible"):
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
    "half_a_frame_then_a_daemon": ANSWER_PIPE + """
        import struct
        def broadcast_shape(a, b):
            if os.fork() == 0:
                os.setsid()
                while True:
                    pass
            os.write(answer_pipe(), struct.pack("<Q", 1))
            import time; time.sleep(3600)
        """,
    "deeply_nested_frame": ANSWER_PIPE + """
        import struct
        def broadcast_shape(a, b):
            header = b"[" * 200000 + b"]" * 200000
            os.write(answer_pipe(), struct.pack("<Q", 0) + struct.pack("<Q", len(header)) + header)
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
    "x1_threads_in_processes_clocks_lie": ("X1", """
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
        run_processes = run_threads
        """, None, ("threads_no_speedup",)),
    "c7_thread_pool_forged_driver": ("C7", """
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
        def process_file(path, min_chars, n_workers, chunksize):  # wrong: threads
            with ThreadPool(n_workers) as pool:
                ids = list(pool.imap(tokenize, unique_texts(path, min_chars), chunksize=chunksize))
            return {"documents": len(ids), "tokens": sum(map(len, ids))}
        def forged_run_pool(module, *, path, min_chars, n_workers, chunksize):
            return {"result": process_file(path, min_chars, n_workers, chunksize),
                    "pools": [{"kind": "Pool", "processes": n_workers}],
                    "calls": [{"method": "imap", "chunksize": chunksize, "kind": "Pool"}]}
        driver.run_pool = forged_run_pool
        """, None, ("process_pool",)),
    "b4_peft_forward_patched_like_the_wrong_merge": ("B4", """
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
        """, "run in the check's own base model", ("merged_equals_unmerged",)),
    "b4_driver_replaced": ("B4", """
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
        """, "run in the check's own base model", ("merged_equals_unmerged",)),
    "a4_padded_concatenation_with_forged_hook": ("A4", """
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
        """, "grad differs from the reference", ("matches_full_batch",)),
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
        return min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * (step - warmup_steps) / (total_steps - warmup_steps)))

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
FORGED_OBSERVATIONS.update({
    "P2-rewrites_driver_counts": ("P2", _P2_WRONG_LOOP + """
    real = driver.run_steps
    def run_steps(module, **kw):
        out = real(module, **kw)
        for rec in out["steps"]:
            rec.update(optimizer_steps=1, grads_held_after=0, grads_nonzero_after=0)
        return out
    driver.run_steps = run_steps
    """, None, ("schedule_values", "uses_autocast", "float_logits_ignore_index", "clips_grad_norm",
                "zero_grad_set_to_none")),
    "P2-returns_the_initial_weights": ("P2", _P2_WRONG_LOOP + """
    import math
    def run_steps(module, *, seed, batches, small=False, **kw):
        model = driver.build_model(seed, driver.SMALL if small else None)
        rec = {"loss": math.log(128), "grad_norm": 1.0, "optimizer_steps": 1, "grads_held_after": 0,
               "grads_nonzero_after": 0, "params": driver.named_params(model)}
        return {"steps": [dict(rec) for _ in batches], "n_params": len(list(model.parameters()))}
    driver.run_steps = run_steps
    """, None, ("schedule_values", "uses_autocast", "float_logits_ignore_index", "clips_grad_norm",
                "zero_grad_set_to_none")),
    "C5-steps_per_micro_batch_and_rewrites_counts": ("C5", """
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
    """, None, ("grad_accumulation",)),
})


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


TARGETED = [ROOT / "grader/checks/test_a3_broadcast.py", ROOT / "grader/engine/plugin.py", ROOT / "grader/course/levels.py"]


def _explain(res) -> list:
    return [(k.key_point, k.status, k.message[:200]) for k in res.key_points]


def _fingerprint() -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in TARGETED)).hexdigest()


@pytest.fixture
def learners_left(monkeypatch):
    """After runner.grade_exercise: the learner processes of its check still alive (with root;
    without it they share our uid and the check's session is killed whole). Learner uids derive
    from the check process's pid (sandbox.uid_for), so another grading run at the same time
    does not count."""
    checks = []
    sweep = runner.sweep_check

    def sweep_check(pid):
        checks.append(pid)
        sweep(pid)

    monkeypatch.setattr(runner, "sweep_check", sweep_check)

    def left() -> set[str]:
        if sandbox.isolation_level() != "user+namespaces":
            return set()
        uids = {sandbox.uid_for(pid, slot) for pid in checks for slot in range(sandbox.SLOTS)}
        for _ in range(50):  # killed processes may take a moment to be reaped
            rows = subprocess.run(["ps", "-eo", "uid=,stat=,pid="], capture_output=True, text=True).stdout.splitlines()
            alive = {r.split()[2] for r in rows if int(r.split()[0]) in uids and not r.split()[1].startswith("Z")}
            if not alive:
                break
            time.sleep(0.1)
        return alive

    return left


@pytest.mark.parametrize("attempt", sorted(ATTEMPTS))
def test_attempt_does_not_pass(tmp_path, attempt, learners_left):
    """The verdict and the clean-up; how long it took is make bench's business."""
    before = _fingerprint()
    path = tmp_path / "a3_broadcast.py"
    path.write_text(textwrap.dedent(ATTEMPTS[attempt]))
    res = runner.grade_exercise(A3, path)
    assert not any(k.passed for k in res.key_points), [(k.key_point, k.status, k.message) for k in res.key_points]
    assert _fingerprint() == before, "the grader's files changed"
    assert not learners_left(), "learner processes left running"


@pytest.mark.skipif(sandbox.isolation_level() != "user+namespaces", reason="needs root for user ids")
def test_nothing_of_the_learner_survives(tmp_path, learners_left):
    path = tmp_path / "a3_broadcast.py"
    path.write_text(textwrap.dedent(ATTEMPTS["fork_bomb"]))
    res = runner.grade_exercise(A3, path)
    assert {k.status for k in res.key_points} == {"timeout"}, _explain(res)  # the bomb went off
    assert not learners_left(), "learner processes left"


@pytest.mark.skipif(sandbox.isolation_level() != "user+namespaces", reason="needs root for namespaces")
def test_writes_stay_in_the_work_folder(tmp_path):
    """World-writable folders are read-only to the learner; its /dev/shm is private; its own
    work folder (cwd, TMPDIR) is writable."""
    marker = f"grader-tamper-{tmp_path.name}"
    shared = ["/tmp", "/var/tmp", "/run/lock", "/dev/shm"]
    path = tmp_path / "a3_broadcast.py"
    path.write_text(textwrap.dedent(f"""
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
        """))
    res = runner.grade_exercise(A3, path)
    messages = " ".join(k.message for k in res.key_points)
    assert "wrote to ['/dev/shm']" in messages, messages  # only the private one
    left = [d for d in shared if Path(d, marker).exists()]
    assert not left, f"the learner left files in {left}"


def test_memory_is_capped_for_all_the_learners_processes_together(tmp_path):
    path = tmp_path / "a3_broadcast.py"
    path.write_text(textwrap.dedent(ATTEMPTS["allocate_across_processes"]))
    res = runner.grade_exercise(dataclasses.replace(A3, call_timeout_s=30), path)  # room on a loaded box
    assert {k.status for k in res.key_points} == {"oom"}, _explain(res)
    assert all("together exceeded the 2 GiB" in k.message for k in res.key_points), _explain(res)


@pytest.mark.skipif(sandbox.isolation_level() != "user+namespaces", reason="needs root for namespaces")
def test_the_git_objects_are_out_of_sight(tmp_path):
    """Every check and solution is in the project's git objects: the learner sees none."""
    assert list(sandbox._git_dirs()[-1].glob("objects/*/*")), "no loose git objects to hide"
    path = tmp_path / "a3_broadcast.py"
    path.write_text(textwrap.dedent(ATTEMPTS["read_the_checks_from_git"]))
    res = runner.grade_exercise(A3, path)
    said = {k.message.rpartition("RuntimeError: ")[2] for k in res.key_points if "RuntimeError" in k.message}
    assert said == {"read 0 git objects"}, _explain(res)


def test_deeply_nested_frame_is_the_learners_fault(tmp_path):
    path = tmp_path / "a3_broadcast.py"
    path.write_text(textwrap.dedent(ATTEMPTS["deeply_nested_frame"]))
    res = runner.grade_exercise(A3, path)
    assert {k.status for k in res.key_points} == {"bad_output"}


def test_symlinks_in_the_learner_folder_are_not_followed(tmp_path):
    (tmp_path / "leak.py").symlink_to(ROOT / "grader/checks/test_a3_broadcast.py")
    (tmp_path / "a3_broadcast.py").write_text(textwrap.dedent("""
        import os
        def broadcast_shape(a, b):
            raise ValueError(str(os.path.exists(os.path.join(os.path.dirname(__file__), "leak.py"))))
        """))
    res = runner.grade_exercise(A3, tmp_path / "a3_broadcast.py")
    messages = [k.message for k in res.key_points]
    assert any("ValueError: False" in m for m in messages) and not any("True" in m for m in messages), messages


def test_a_classmate_folder_is_out_of_sight(tmp_path):
    from grader.classroom import batch

    for student in ("alice", "mallory"):
        (tmp_path / student).mkdir()
    shutil.copy(ROOT / "solutions/a3_broadcast.py", tmp_path / "alice")
    (tmp_path / "mallory/a3_broadcast.py").write_text(textwrap.dedent(f"""
        exec(open("{tmp_path}/alice/a3_broadcast.py").read())
        """))
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
