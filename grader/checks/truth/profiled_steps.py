"""Real torch.profiler runs of training steps whose setup is known, and how each setup shows in
them (A10's ground truth, the quiz's): a small Transformer (GEMM and attention), the same with a
data loader that sleeps (input stall), and a model that mostly reshuffles memory (copies). On
CPU the "device" time of an op is its self CPU time (part 6, the profiler)."""

from __future__ import annotations

import time
from functools import cache

import torch
import torch.nn as nn
import torch.nn.functional as F

from grader.i18n import _

LABELS = ("input-bound", "compute-bound", "overhead-bound")
MARKERS = ("mm", "attention")  # GEMM and attention ops, as the stub defines them


class Block(nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.up, self.down = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, T, D)
        x = x + self.proj(a)
        return x + self.down(F.gelu(self.up(self.ln2(x))))


class TinyLM(nn.Module):
    """A 2-layer Transformer: its step is GEMM and attention."""

    def __init__(self, vocab: int = 512, d: int = 256, heads: int = 4, layers: int = 2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.head = nn.Linear(d, vocab)

    def forward(self, x):
        x = self.emb(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


class Reshuffler(nn.Module):
    """Mostly shape conversions: transpose/permute + contiguous copies, one tiny GEMM."""

    def __init__(self, vocab: int = 512, d: int = 256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, x):
        x = self.emb(x)
        for _layer in range(6):
            x = x.transpose(0, 1).contiguous().transpose(0, 1).contiguous() * 1.0001
            x = x.permute(2, 0, 1).contiguous().permute(1, 2, 0).contiguous()
        return self.head(x[:, :4])


class Batches(torch.utils.data.Dataset):
    """One (inputs, targets) batch per item; ``stall_s`` of sleep per item is slow data loading."""

    def __init__(self, x, y, n: int, stall_s: float):
        self.x, self.y, self.n, self.stall_s = x, y, n, stall_s

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.stall_s:
            time.sleep(self.stall_s)
        return self.x.clone(), self.y.clone()


def train_step(model, opt, x, y):
    opt.zero_grad(set_to_none=True)
    logits = model(x)
    n = logits.shape[1]
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y[:, :n].reshape(-1))
    loss.backward()
    opt.step()


def reference_view(ops, wall_ms):
    """What the setup is designed to show: (idle fraction, GEMM/attention share)."""
    device = sum(op["self_ms"] for op in ops)
    heavy = sum(op["self_ms"] for op in ops if any(m in op["name"].lower() for m in MARKERS))
    return 1 - device / wall_ms, heavy / device


class SetupUnclear(RuntimeError):
    """Three runs in a row did not show their setup clearly: a loaded machine, not the learner."""


EXACT_GEMM_NAMES = {"aten::mm", "aten::bmm", "aten::matmul"}


def clearly(kind, idle, share, ops=(), frozen=False) -> bool:
    """The measurement shows its setup with a wide margin from the stub's 0.5 thresholds. A frozen
    base also shows its GEMMs under other names than aten::mm/bmm/matmul (nn.Linear's addmm, the
    attention kernels): by design, not by the machine's timing, a rule of exact names misreads it."""
    if kind == "input-bound":
        return idle >= 0.7
    if kind == "compute-bound":
        device = sum(op["self_ms"] for op in ops) or 1.0
        exact = sum(op["self_ms"] for op in ops if op["name"] in EXACT_GEMM_NAMES) / device
        return idle <= 0.3 and share >= 0.65 and (not frozen or exact <= 0.25)
    return idle <= 0.3 and share <= 0.2


@cache
def profile_step(
    kind: str, batch: int, seq: int, seed: int, steps: int = 2, clear: bool = True, frozen: bool = False
) -> dict:
    """Profile ``steps`` real training steps of the given kind; plain data for the learner.
    ``clear=False``: any real profile will do (summing self times needs no clear label), so a
    loaded machine that blurs the setup does not make that key point a check error.
    ``frozen``: a compute-bound step that trains only the output head on a frozen base (its forward
    GEMMs are addmm and attention kernels, almost no aten::mm)."""
    from torch.profiler import ProfilerActivity, profile

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # one thread: a shared 2-core machine stays predictable
    try:
        for attempt in range(3):  # a noisy machine can blur one run; the setup decides the label
            torch.manual_seed(seed + attempt)
            if kind == "overhead-bound":  # large activations, so that the copies dominate
                model, shape = Reshuffler(), (8 * batch, 2 * seq)
            else:  # twice the tokens: GEMM time grows with them, the optimizer's does not
                model, shape = TinyLM(), (2 * batch, seq)
                if frozen:
                    for p in (*model.emb.parameters(), *model.blocks.parameters()):
                        p.requires_grad_(False)
            # fused: one optimizer op, not six per parameter, so a busy step is mostly GEMM
            opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3, fused=True)
            x, y = torch.randint(0, 512, shape), torch.randint(0, 512, shape)
            t0 = time.perf_counter()
            train_step(model, opt, x, y)  # warm-up, and the compute time of one step
            step_s = time.perf_counter() - t0
            stall = max(0.05, 4 * step_s) if kind == "input-bound" else 0.0
            loader = torch.utils.data.DataLoader(Batches(x, y, steps, stall), batch_size=None)
            with profile(activities=[ProfilerActivity.CPU]) as prof:
                t0 = time.perf_counter()
                for xb, yb in loader:
                    train_step(model, opt, xb, yb)
                wall_ms = (time.perf_counter() - t0) * 1e3
            ops = [
                {
                    "name": e.key,
                    "count": int(e.count),
                    "self_ms": e.self_cpu_time_total / 1e3,
                    "total_ms": e.cpu_time_total / 1e3,
                }
                for e in prof.key_averages()
                if e.key.startswith("aten::")
            ]  # operators, not annotations
            idle, share = reference_view(ops, wall_ms)
            if clearly(kind, idle, share, ops, frozen) or not clear:
                return {"wall_ms": wall_ms, "ops": ops}
        raise SetupUnclear(
            _(
                "the {kind} setup did not show clearly on this machine (idle {idle:.2f}, "
                "GEMM/attention share {share:.2f}): rerun the check",
                kind=kind,
                idle=idle,
                share=share,
            )
        )
    finally:
        torch.set_num_threads(threads)
