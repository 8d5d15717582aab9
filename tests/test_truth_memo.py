"""The check side's memo of expensive ground truth (grader/checks/truth/memo.py): a result is
reused only for the same inputs, code and libraries; an entry the grader did not sign, or a folder
others can write, is never trusted; a learner cannot see either; two processes wait for one run."""

from __future__ import annotations

import json
import os
import threading

import pytest
import torch

from grader.checks.truth import memo, sft as truth
from grader.engine import cache
from grader.isolation import sandbox


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.delenv("GRADER_TRUTH_CACHE", raising=False)
    return tmp_path / "cache" / "truth"


class Counter:
    def __init__(self, value=None):
        self.calls, self.value = 0, value

    def __call__(self):
        self.calls += 1
        return self.value if self.value is not None else {"losses": [1.5, 0.25], "n": self.calls}


def _batches(fill=7, dtype=torch.long):
    return [{"input_ids": torch.full((2, 3), fill, dtype=dtype), "labels": torch.tensor([[-100, 1, 2], [3, 4, 5]])}]


def test_the_same_inputs_reuse_the_result_and_a_changed_input_is_computed_again(store):
    compute = Counter()
    first = memo.memoised("k", {"batches": _batches(fill=0), "seed": 0}, compute)
    assert memo.memoised("k", {"batches": _batches(fill=0), "seed": 0}, compute) == first and compute.calls == 1
    for changed in (
        {"batches": _batches(fill=8), "seed": 0},  # other tokens
        {"batches": _batches(fill=0, dtype=torch.float64), "seed": 0},  # the same bytes, another dtype
        {"batches": _batches(fill=0), "seed": 1},
    ):
        memo.memoised("k", changed, compute)
    assert compute.calls == 4
    memo.memoised("another kind", {"batches": _batches(fill=0), "seed": 0}, compute)
    assert compute.calls == 5


def test_a_hit_and_a_fresh_computation_hand_back_the_same_value(store):
    fresh = memo.memoised("k", 1, Counter({"generated": ((1, 2), (3,)), "loss": 0.1 + 0.2}))
    hit = memo.memoised("k", 1, Counter({"never": "called"}))
    assert fresh == hit == {"generated": [[1, 2], [3]], "loss": 0.1 + 0.2}  # floats exact, tuples as lists


def test_a_changed_computing_module_or_library_is_a_new_key(store, tmp_path, monkeypatch):
    before = memo.key("k", 1)
    monkeypatch.setattr(cache, "_environment", lambda: "torch==99")
    assert memo.key("k", 1) != before
    monkeypatch.undo()
    src = tmp_path / "src"
    (src / "checks" / "truth").mkdir(parents=True)
    (src / "checks" / "truth" / "sft.py").write_text("STEPS = 12\n")
    monkeypatch.setattr(memo, "_GRADER", src)
    monkeypatch.setattr(memo, "SOURCES", ("checks/truth",))
    old = memo.key("k", 1)
    (src / "checks" / "truth" / "sft.py").write_text("STEPS = 13\n")
    assert memo.key("k", 1) != old


def test_a_forged_or_foreign_entry_is_computed_again(store):
    compute = Counter()
    memo.memoised("k", 1, compute)
    (entry,) = store.glob("*.json")
    signed = json.loads(entry.read_text())
    entry.write_text(json.dumps({**signed, "value": {"losses": [0.0], "n": 99}}))  # the learner's wish, old MAC
    assert memo.memoised("k", 1, compute)["n"] == 2
    value = {"losses": [0.0], "n": 99}  # signed under a key that is not the grader's
    entry.write_text(
        json.dumps({"value": value, "mac": memo.files.mac(os.urandom(32), memo._payload("k", memo.key("k", 1), value))})
    )
    assert memo.memoised("k", 1, compute)["n"] == 3
    entry.write_text("{not json")
    assert memo.memoised("k", 1, compute)["n"] == 4 and compute.calls == 4


def test_a_folder_others_can_write_is_never_used(store):
    compute = Counter()
    store.mkdir(parents=True, mode=0o700)
    os.chmod(store, 0o777)
    memo.memoised("k", 1, compute)
    memo.memoised("k", 1, compute)
    assert compute.calls == 2 and not list(store.glob("*.json"))


def test_turned_off_it_always_computes(store, monkeypatch):
    monkeypatch.setenv("GRADER_TRUTH_CACHE", "0")
    compute = Counter()
    memo.memoised("k", 1, compute)
    memo.memoised("k", 1, compute)
    assert compute.calls == 2 and not store.exists()


def test_a_second_caller_waits_for_the_first_and_reuses_its_result(store, monkeypatch):
    """While one grading computes a key (holding its lock), another asking for it computes nothing."""
    import fcntl

    first = Counter()
    memo.memoised("warm-up", 0, first)  # creates the folder and key
    lock = os.open(store / f"{memo.key('k', 1)}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)  # another open file: flock conflicts as another process's would
    second, got = Counter(), []
    waiter = threading.Thread(target=lambda: got.append(memo.memoised("k", 1, second)))
    waiter.start()
    waiter.join(0.6)
    assert waiter.is_alive() and not got  # waiting, not computing
    try:  # the first caller finishes: its entry written (past the lock), its lock released
        monkeypatch.setattr(memo, "LOCK_WAIT_S", 0.0)
        memo.memoised("k", 1, Counter({"losses": [4.9], "by": "first"}))
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)
    waiter.join(10)
    assert got == [{"losses": [4.9], "by": "first"}] and second.calls == 0


def test_the_learner_sees_neither_the_memo_nor_its_module():
    assert cache.CACHE_DIR in memo.folder().parents  # under the grader's cache
    hidden = sandbox.Sandbox(1 << 30)._blocklist_hidden()
    assert cache.CACHE_DIR in hidden
    assert any(h in sandbox.Path(memo.__file__).resolve().parents for h in hidden)  # grader/checks


def test_the_sft_run_is_memoised_by_batches_lora_and_model(store, tmp_path, monkeypatch):
    model = tmp_path / "model"
    model.mkdir()
    (model / "manifest.json").write_text(json.dumps({"source": "x", "files": {"model.safetensors": "aa"}}))
    compute = Counter()
    monkeypatch.setattr(truth, "_train_and_answer", lambda *a, **k: compute())

    def run(batches, lora):
        return truth.train_and_answer(batches, lora, cache=model, steps=12, seed=0, max_new_tokens=8)

    run(_batches(), truth.lora_settings())
    run(_batches(), truth.lora_settings())
    assert compute.calls == 1
    run(_batches(fill=0), truth.lora_settings())  # EOS (id 0) where another token was
    run(_batches(), {**truth.lora_settings(), "r": 8})
    (model / "manifest.json").write_text(json.dumps({"source": "x", "files": {"model.safetensors": "bb"}}))
    run(_batches(), truth.lora_settings())
    assert compute.calls == 4


def test_the_quiz_measures_a_layer_once_for_every_process(store, monkeypatch):
    """A7/B1's Llama-3-8B layer: a second process (here: an empty per-process memo) reuses the
    signed measurement; another config is measured; the quiz's own code is part of the key."""
    from grader.quiz import truth as quiz_truth

    compute = Counter(1000.0)
    monkeypatch.setattr(quiz_truth, "_activation_per_token_layer", lambda *a: compute())
    monkeypatch.setattr(quiz_truth, "_memo", {})
    cfg = {"hidden_size": 8, "num_hidden_layers": 2}
    assert quiz_truth.activation_bytes(cfg, 1, 4) == 1000.0 * 4 * 2
    monkeypatch.setattr(quiz_truth, "_memo", {})  # a new process
    quiz_truth.activation_bytes(cfg, 1, 4)
    assert compute.calls == 1
    quiz_truth.activation_bytes({**cfg, "hidden_size": 16}, 1, 4)
    assert compute.calls == 2
    assert memo.key("k", 1, sources=("quiz/truth.py",)) != memo.key("k", 1)
