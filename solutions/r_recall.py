"""R — recall: the must-remember facts of the six parts (part 7, §一 and §二)."""

import math

TOPICS_TO_PART = {  # the stub's TOPICS, each with its part
    "streaming a JSONL file with generators": 1,
    "threads vs processes for CPU-bound preprocessing": 1,
    "__getitem__, __call__ and other Python protocols": 1,
    "@dataclass experiment configs": 1,
    "broadcasting rules": 2,
    "einsum for attention": 2,
    "Pandas groupby error analysis": 2,
    "the confidence interval of an accuracy": 2,
    "multi-seed mean and shaded band plots": 2,
    "the twenty-line training loop": 3,
    "what backward() does to .grad": 3,
    "gradient clipping and the learning-rate schedule": 3,
    "the first-step loss as an init check": 3,
    "bytes per trainable parameter": 4,
    "activation memory and gradient checkpointing": 4,
    "DDP vs FSDP": 4,
    "master weights and bf16 vs fp16": 4,
    "LoRA with peft": 5,
    "chat templates and tokenizer.json": 5,
    "the SFT loss mask": 5,
    "SFTTrainer and compute_loss": 5,
    "roofline and the ridge point": 6,
    "the decode floor": 6,
    "KV cache bytes per token": 6,
    "reading a torch.profiler table": 6,
    "the minimal run record": 6,
}


def bytes_per_param_parts() -> dict[str, int]:
    # bf16 weights + bf16 grads + fp32 master weights + AdamW's two fp32 moments = 16
    return {"weights": 2, "grads": 2, "master": 4, "adam_m": 4, "adam_v": 4}


def ridge_point(peak_flops: float, bandwidth_bytes_per_s: float) -> float:
    return peak_flops / bandwidth_bytes_per_s


def decode_floor_ms(n_params: float, bytes_per_param: float, bandwidth_bytes_per_s: float) -> float:
    # every weight is read once per token; batch 1 does ~1 FLOP per byte, far below the ridge
    return n_params * bytes_per_param / bandwidth_bytes_per_s * 1e3


def kv_cache_bytes_per_token(n_layers: int, n_heads: int, n_kv_heads: int, head_dim: int,
                             bytes_per_element: int) -> int:
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
    return TOPICS_TO_PART[topic]


def run_record_items() -> list[str]:
    return ["run id", "commit", "config", "data version", "seed", "environment", "metrics"]
