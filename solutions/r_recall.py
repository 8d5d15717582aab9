"""R — recall: the must-remember facts of the six parts (part 7, §一 and §二)."""

import math

from grader.given import recall_topics as t

PART_OF_TOPIC = {  # part 7, §一: what each of the six parts teaches
    t.STREAMING_JSONL: 1,
    t.THREADS_VS_PROCESSES: 1,
    t.PROTOCOLS: 1,
    t.DATACLASS_CONFIGS: 1,
    t.BROADCASTING: 2,
    t.EINSUM_ATTENTION: 2,
    t.PANDAS_GROUPBY: 2,
    t.CI95: 2,
    t.SEED_BANDS: 2,
    t.TRAINING_LOOP: 3,
    t.BACKWARD_AND_GRAD: 3,
    t.CLIPPING_AND_SCHEDULE: 3,
    t.FIRST_STEP_LOSS: 3,
    t.PARAM_BYTES: 4,
    t.ACTIVATION_MEMORY: 4,
    t.DDP_VS_FSDP: 4,
    t.MIXED_PRECISION: 4,
    t.LORA_PEFT: 5,
    t.CHAT_TEMPLATES: 5,
    t.SFT_LOSS_MASK: 5,
    t.SFT_TRAINER: 5,
    t.ROOFLINE: 6,
    t.DECODE_FLOOR: 6,
    t.KV_CACHE: 6,
    t.PROFILER_TABLE: 6,
    t.RUN_RECORD: 6,
}


def bytes_per_param_parts() -> dict[str, int]:
    # bf16 weights + bf16 grads + fp32 master weights + AdamW's two fp32 moments = 16
    return {"weights": 2, "grads": 2, "master": 4, "adam_m": 4, "adam_v": 4}


def ridge_point(peak_flops: float, bandwidth_bytes_per_s: float) -> float:
    return peak_flops / bandwidth_bytes_per_s


def decode_floor_ms(n_params: float, bytes_per_param: float, peak_flops: float, bandwidth_bytes_per_s: float) -> float:
    # every weight is read once per token; batch 1 does ~1 FLOP per byte, far below the ridge
    return n_params * bytes_per_param / bandwidth_bytes_per_s * 1e3


def kv_cache_bytes_per_token(
    n_layers: int, n_heads: int, n_kv_heads: int, head_dim: int, bytes_per_element: int
) -> int:
    # K and V, per layer, per kv head (not per query head: GQA shares them)
    return 2 * n_layers * n_kv_heads * head_dim * bytes_per_element


def first_step_loss(vocab_size: int) -> float:
    return math.log(vocab_size)


def ignore_index() -> int:
    return -100


def einsum_qk(with_heads: bool = False) -> str:
    return "bhtd,bhsd->bhts" if with_heads else "btd,bsd->bts"


def einsum_pv(with_heads: bool = False) -> str:
    return "bhts,bhsd->bhtd" if with_heads else "bts,bsd->btd"


def ci95_half_width(p: float, n: int) -> float:
    return 1.96 * math.sqrt(p * (1 - p) / n)


def thread_speedup(n_threads: int, n_cores: int) -> float:
    return 1.0  # the GIL: one thread runs Python bytecode at a time


def part_of_topic(topic: str) -> int:
    return PART_OF_TOPIC[topic]


def run_record_items() -> list[str]:
    return ["run id", "commit", "config", "data version", "seed", "environment", "metrics"]
