"""B5 — DDP on 8 GPUs. Ground truth: the bytes of a real replica's training state
(``truth/training_state.py``: a small model with peft LoRA in the bf16 + AdamW convention), the full-batch
gradient of a real model versus the ranks' shard gradients computed with autograd, and torch's
own torchrun argument parser (part 4, DDP; part 1, the GIL; part 7 §五.B question 5)."""

import shlex

import torch
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, as_str, expect_close, expect_equal, fail
from grader.checks.support.strategies import llama_configs
from grader.checks.truth.training_state import real_state
from grader.i18n import _

GB = 10**9


@settings(max_examples=3)
@given(llama_configs(max_layers=2), st.integers(1, 16), strategies.activation_sizes, strategies.gpu_counts)
def test_per_gpu_memory(learner, config, r, act, n_gpus):
    real = real_state(tuple(sorted(config.items())), r, "all-linear", 0)
    replica = sum(real["parts"].values())
    for s, a, n in ((int(16.7 * GB), 20 * GB, 8), (replica, act, n_gpus)):
        what = f"ddp_per_gpu_bytes({s}, {a}, {n})"
        expect_equal(
            as_int(learner.ddp_per_gpu_bytes(s, a, n), what),
            s + a,
            what + (_(": against a real LoRA replica") if s == replica else ""),
            hint=_("DDP keeps a full replica on every GPU: the GPU count does not divide it"),
        )


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

    ranks = [grad(x[i * shard : (i + 1) * shard], y[i * shard : (i + 1) * shard]) for i in range(n_ranks)]
    return ranks, grad(x, y)


@given(
    st.integers(1, 64),
    st.integers(1, 64),
    st.integers(1, 64),
    st.integers(1, 8),
    st.integers(1, 6),
    st.integers(0, 2**31 - 1),
)
def test_effective_batch(learner, b, n, k, shard, d, seed):
    for args in ((4, 8, 1), (b, n, k)):  # the course's 4 per GPU x 8 GPUs first
        what = f"effective_batch{args}"
        expect_equal(
            as_int(learner.effective_batch(*args), what),
            args[0] * args[1] * args[2],
            what,
            hint=_("per-GPU batch x GPUs x accumulation steps"),
        )
    ranks, full = _shard_grads(min(n, 8), shard, d, seed)
    expect_close(
        learner.allreduce_grads(ranks),
        full,
        _(
            "allreduce_grads of {ranks} ranks' gradients (shards of {shard}) vs the full-batch gradient",
            ranks=len(ranks),
            shard=shard,
        ),
        atol=1e-10,
        rtol=1e-10,
        hint=_("all-reduce averages: DDP is mathematically one n_gpus-times larger batch"),
    )


@given(st.integers(1, 64), st.sampled_from(["train.py", "sft.py", "scripts/run_sft.py"]))
def test_launch_command(learner, n, script):
    from torch.distributed.run import get_args_parser

    for gpus in (8, n):
        cmd = as_str(learner.launch_command(gpus, script), f"launch_command({gpus}, {script!r})")
        argv = shlex.split(cmd)
        if not argv or argv[0] != "torchrun":
            fail(
                _("launch_command({gpus}, {script}) must start torchrun", gpus=gpus, script=repr(script)),
                "torchrun ...",
                cmd,
            )
        try:
            args = get_args_parser().parse_args(argv[1:])
        except SystemExit:
            fail(_("torchrun's own argument parser refuses {cmd}", cmd=repr(cmd)), _("a valid torchrun command"), cmd)
        if (str(args.nproc_per_node), args.training_script) != (str(gpus), script):
            fail(
                _("launch_command({gpus}, {script}) as torchrun parses it", gpus=gpus, script=repr(script)),
                _("nproc_per_node={gpus}, script {script}", gpus=gpus, script=script),
                _("nproc_per_node={gpus}, script {script}", gpus=args.nproc_per_node, script=args.training_script),
                hint=_("torchrun --nproc_per_node=N SCRIPT starts N processes, one per GPU"),
            )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support.mistakes import close, mistake  # noqa: E402

_S, _A, _N = 10**12 + 7, 3 * 10**9 + 1, 8  # state, activations: neither a multiple of 8 GPUs, nor equal
mistake(
    "per_gpu_memory",
    function="ddp_per_gpu_bytes",
    probe=((_S, _A, _N), {}),
    zh="把副本的训练状态按 GPU 数分了（那是 FSDP / ZeRO）：DDP 每张卡都有一份完整的副本",
    en="divides the replica's training state over the GPUs (that is FSDP / ZeRO): DDP keeps a full replica on "
    "every "
    "GPU",
)(lambda got, s, a, n: n > 1 and any(close(got, v) for v in (-(-s // n) + a, s // n + a, s / n + a)))
mistake(
    "per_gpu_memory",
    function="ddp_per_gpu_bytes",
    probe=((_S, _A, _N), {}),
    zh="把状态和激活一起按 GPU 数分了：DDP 不分片，每张卡有完整的副本和自己的激活",
    en="divides the state and the activations together by the GPU count: DDP shards nothing, every GPU "
    "holds a full replica and its own activations",
)(lambda got, s, a, n: n > 1 and a > 0 and any(close(got, v) for v in (-(-(s + a) // n), (s + a) // n, (s + a) / n)))
mistake(
    "per_gpu_memory",
    function="ddp_per_gpu_bytes",
    probe=((_S, _A, _N), {}),
    zh="把所有 GPU 的副本加在一起了：题目问的是每张卡",
    en="adds up the replicas of all the GPUs: the question asks for one GPU",
)(lambda got, s, a, n: n > 1 and any(close(got, v) for v in (n * s + a, n * (s + a))))
mistake(
    "per_gpu_memory",
    function="ddp_per_gpu_bytes",
    probe=((_S, _A, _N), {}),
    zh="漏掉了激活：每张卡除了副本还有自己的激活",
    en="leaves out the activations: every GPU holds its own on top of the replica",
)(lambda got, s, a, n: a > 0 and close(got, s))

for _wrong, _zh, _en in [
    (
        lambda b, n, k: b * k,
        "有效 batch 里漏掉了 GPU 数：每张卡各算自己那份 per-GPU batch",
        "leaves the GPU count out of the effective batch: every GPU adds its own per-GPU batch",
    ),
    (
        lambda b, n, k: b * n,
        "有效 batch 里漏掉了梯度累积步数",
        "leaves the accumulation steps out of the effective batch",
    ),
    (
        lambda b, n, k: b,
        "只算了一张卡一个 micro-batch：有效 batch 要乘上 GPU 数和累积步数",
        "counts one GPU's one micro-batch: the effective batch multiplies in the GPUs and the accumulation steps",
    ),
]:
    mistake("effective_batch", function="effective_batch", probe=((4, 8, 3), {}), zh=_zh, en=_en)(
        lambda got, b, n, k, _w=_wrong: got == _w(b, n, k) != b * n * k
    )

_RANKS = [torch.arange(6, dtype=torch.float64).reshape(2, 3) * (i + 1) - i for i in range(3)]  # 3 ranks, all different


def _ranks_mean(grads):
    return torch.stack(list(grads)).mean(dim=0)


for _wrong, _zh, _en in [
    (
        lambda g: torch.stack(list(g)).sum(dim=0),
        "all-reduce 只求了和没有除以 rank 数：梯度大了 world_size 倍",
        "sums the ranks' gradients without dividing: the gradient comes out world_size times too large",
    ),
    (
        lambda g: _ranks_mean(g) / len(list(g)),
        "在 all-reduce 的平均之上又除了一次 rank 数：梯度小了 world_size 倍",
        "divides by the number of ranks on top of the all-reduce mean: the gradient comes out world_size times too "
        "small",
    ),
    (
        lambda g: list(g)[0],
        "没有做 all-reduce：返回的是 rank 0 自己的梯度，各卡的梯度要取平均",
        "does no all-reduce: returns rank 0's own gradient; the ranks' gradients are averaged",
    ),
    (
        lambda g: list(g)[-1],
        "没有做 all-reduce：返回的是最后一个 rank 自己的梯度，各卡的梯度要取平均",
        "does no all-reduce: returns the last rank's own gradient; the ranks' gradients are averaged",
    ),
]:
    mistake("effective_batch", function="allreduce_grads", probe=((_RANKS,), {}), zh=_zh, en=_en)(
        lambda got, g, _w=_wrong: len(list(g)) > 1 and close(got, _w(g)) and not close(_w(g), _ranks_mean(g))
    )
