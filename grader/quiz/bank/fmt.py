"""Numbers as the question text shows them (premises, never answers)."""

from __future__ import annotations

from grader.quiz import course_text
from grader.quiz.units import fmt_number


def g(x: float, sig: int = 3) -> str:
    """3 significant digits, no trailing zeros: 16.7, 0.67, 128.5 -> '128' ... use sig=4 for that."""
    return f"{float(f'{x:.{sig}g}'):g}"


def gb(nbytes: float, sig: int = 3) -> str:
    return f"{g(nbytes / 1e9, sig)} GB"


def gib(nbytes: float, sig: int = 3) -> str:
    return f"{g(nbytes / 2**30, sig)} GiB"


def mb(nbytes: float, sig: int = 3) -> str:
    return f"{g(nbytes / 1e6, sig)} MB"


def millions(n: float) -> str:
    return f"{n / 1e6:.2f}M"


def ctx(tokens: int) -> str:
    """4096 -> '4K', 6144 -> '6K', 5000 -> '5000'."""
    return f"{tokens // 1024}K" if tokens % 1024 == 0 else str(tokens)


def num(x: float) -> str:
    return fmt_number(x)


def mr(part: int, index: int) -> str:
    """A must-remember line of part ``part`` (§二), verbatim."""
    return course_text.MUST_REMEMBER[part][index]


def activations_how(batch: int, seq: int, measured: float) -> tuple[str, str]:
    """(en, zh) how an activations value comes out: the measurement, and the course's rule of thumb
    beside it with why they differ (both are accepted: the tolerance band holds the course's rule)."""
    from grader.quiz import truth as T

    rule = T.course_activation_rule(batch, seq)
    return (
        f"measured: saved-for-backward bytes of a real transformers Llama-3-8B decoder layer "
        f"(saved_tensors_hooks) x B x T x 32 layers = {gib(measured)}; the course's rule of thumb "
        f"(16.5 GiB at B = 1, T = 4096, x B x T) gives {gib(rule)}, {rule / measured:.2f}x of it, and is "
        f"accepted too: the rule counts about 6 d-wide and 3 d_ff-wide bf16 values per token and layer, "
        f"the measurement every tensor the real layer saves for backward (RMSNorm computes in fp32, "
        f"attention and the MLP keep more than the rule counts)",
        f"实测：真实 transformers Llama-3-8B 解码层用 saved_tensors_hooks 测反向要保存的字节 × B × T × 32 层 = "
        f"{gib(measured)}；课程的经验估算（B = 1、T = 4096 约 16.5 GiB，× B × T）得 {gib(rule)}，是实测的 "
        f"{rule / measured:.2f} 倍，同样算对：经验估算每 token 每层约数 6 份 d 维 + 3 份 d_ff 维 bf16，"
        f"实测数的是真实层为反向保存的全部张量（RMSNorm 在 fp32 上算，attention 与 MLP 存的比估算多）",
    )
