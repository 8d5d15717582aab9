"""B5 — DDP on 8 GPUs. Ground truth: the bytes of a real replica's training state
(``truth/training_state.py``: a small model with peft LoRA in the bf16 + AdamW convention), the full-batch
gradient of a real model versus the ranks' shard gradients computed with autograd, and torch's
own torchrun argument parser (part 4, DDP; part 1, the GIL; part 7 §五.B question 5)."""

import shlex

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, as_str, expect_close, expect_equal, fail
from grader.checks.truth.training_state import real_state
from grader.checks.support.strategies import llama_configs

GB = 10**9


@settings(max_examples=3)
@given(llama_configs(max_layers=2), st.integers(1, 16), strategies.activation_sizes, strategies.gpu_counts)
def test_per_gpu_memory(learner, config, r, act, n_gpus):
    real = real_state(tuple(sorted(config.items())), r, "all-linear", 0)
    replica = sum(real["parts"].values())
    for s, a, n in ((int(16.7 * GB), 20 * GB, 8), (replica, act, n_gpus)):
        what = f"ddp_per_gpu_bytes({s}, {a}, {n})"
        expect_equal(as_int(learner.ddp_per_gpu_bytes(s, a, n), what), s + a,
                     what + (": against a real LoRA replica" if s == replica else ""),
                     hint="DDP keeps a full replica on every GPU: the GPU count does not divide it")


def _shard_grads(n_ranks: int, shard: int, d: int, seed: int):
    """Per-rank gradients of the mean loss of a real linear model on each rank's shard, and the
    full-batch gradient (float64)."""
    g = torch.Generator().manual_seed(seed)
    w0 = torch.randn(d, 1, generator=g, dtype=torch.float64)
    x = torch.randn(n_ranks * shard, d, generator=g, dtype=torch.float64)
    y = torch.randn(n_ranks * shard, 1, generator=g, dtype=torch.float64)

    def grad(xs, ys):
        w = w0.clone().requires_grad_(True)
        torch.nn.functional.mse_loss(xs @ w, ys).backward()
        return w.grad

    ranks = [grad(x[i * shard:(i + 1) * shard], y[i * shard:(i + 1) * shard]) for i in range(n_ranks)]
    return ranks, grad(x, y)


@given(st.integers(1, 64), st.integers(1, 64), st.integers(1, 64), st.integers(1, 8), st.integers(1, 6),
       st.integers(0, 2**31 - 1))
def test_effective_batch(learner, b, n, k, shard, d, seed):
    for args in ((4, 8, 1), (b, n, k)):  # the course's 4 per GPU x 8 GPUs first
        what = f"effective_batch{args}"
        expect_equal(as_int(learner.effective_batch(*args), what), args[0] * args[1] * args[2], what,
                     hint="per-GPU batch x GPUs x accumulation steps")
    ranks, full = _shard_grads(min(n, 8), shard, d, seed)
    expect_close(learner.allreduce_grads(ranks), full,
                 f"allreduce_grads of {len(ranks)} ranks' gradients (shards of {shard}) vs the full-batch gradient",
                 atol=1e-10, rtol=1e-10, hint="all-reduce averages: DDP is mathematically one n_gpus-times larger batch")


@given(st.integers(1, 64), st.sampled_from(["train.py", "sft.py", "scripts/run_sft.py"]))
def test_launch_command(learner, n, script):
    from torch.distributed.run import get_args_parser

    for gpus in (8, n):
        cmd = as_str(learner.launch_command(gpus, script), f"launch_command({gpus}, {script!r})")
        argv = shlex.split(cmd)
        if not argv or argv[0] != "torchrun":
            fail(f"launch_command({gpus}, {script!r}) must start torchrun", "torchrun ...", cmd)
        try:
            args = get_args_parser().parse_args(argv[1:])
        except SystemExit:
            fail(f"torchrun's own argument parser refuses {cmd!r}", "a valid torchrun command", cmd)
        if (str(args.nproc_per_node), args.training_script) != (str(gpus), script):
            fail(f"launch_command({gpus}, {script!r}) as torchrun parses it", f"nproc_per_node={gpus}, script {script}",
                 f"nproc_per_node={args.nproc_per_node}, script {args.training_script}",
                 hint="torchrun --nproc_per_node=N SCRIPT starts N processes, one per GPU")
