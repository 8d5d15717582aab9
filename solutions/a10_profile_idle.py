"""A10 — where did the step's time go (part 7, §五.A question 10; part 6, reading the profiler)."""

GEMM_ATTENTION_MARKERS = ("mm", "attention")


def device_time_ms(ops: list[dict]) -> float:
    """Sum of self times: totals would count a nested op's time again in its parent."""
    return float(sum(op["self_ms"] for op in ops))


def idle_fraction(wall_ms: float, device_ms: float) -> float:
    if wall_ms <= 0:
        raise ValueError(f"wall_ms must be > 0, got {wall_ms}")
    return max(0.0, 1.0 - device_ms / wall_ms)


def gemm_attention_share(ops: list[dict]) -> float:
    device = device_time_ms(ops)
    heavy = sum(op["self_ms"] for op in ops if any(m in op["name"].lower() for m in GEMM_ATTENTION_MARKERS))
    return heavy / device if device > 0 else 0.0


def classify_step(summary: dict) -> str:
    ops = summary["ops"]
    if idle_fraction(summary["wall_ms"], device_time_ms(ops)) > 0.5:
        return "input-bound"
    return "compute-bound" if gemm_attention_share(ops) >= 0.5 else "overhead-bound"
