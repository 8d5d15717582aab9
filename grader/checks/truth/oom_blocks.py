"""The four memory blocks, what shrinks each and when each overflows: the course's table (C4,
B1, the quiz's)."""

from __future__ import annotations

BLOCKS = ("weights", "grads_and_state", "activations", "kv_cache")

# Which block each remedy shrinks (part 7 §五.C q4, key point 4; A9: quantize the KV cache).
SHRINKS = {
    "bf16": {"weights"},
    "quantize": {"weights", "kv_cache"},
    "more_gpus": {"weights", "grads_and_state"},
    "lora": {"grads_and_state"},
    "fsdp": {"weights", "grads_and_state"},
    "8bit_optimizer": {"grads_and_state"},
    "gradient_checkpointing": {"activations"},
    "smaller_batch_with_accumulation": {"activations"},
    "shorter_sequences": {"activations", "kv_cache"},
    "fewer_concurrent_requests": {"kv_cache"},
    "no_grad": {"activations"},
}


# Part 4's must-remember (part 7 §二): "OOM 按爆的时机归因：加载就爆是权重；第一步 backward 爆是梯度与状态；
# 序列变长爆是激活；加了 LoRA 还爆看激活；生成时爆是忘了 no_grad 或 KV cache"; part 6 adds the KV
# cache as the fourth block. Rows: when, the event's flag that decides, the block.
COURSE_TABLE = [
    ("load", {}, "weights"),
    ("first_backward", {"lora": False}, "grads_and_state"),
    ("first_backward", {"lora": True}, "activations"),  # LoRA leaves the 14 B/param on the adapters only
    ("longer_sequence", {"training": True}, "activations"),
    ("longer_sequence", {"training": False}, "kv_cache"),
    ("generation", {"no_grad": False}, "activations"),  # kept for a backward that never comes
    ("generation", {"no_grad": True}, "kv_cache"),
]


def course_block(event: dict) -> str:
    """The block of the table's row that matches the event."""
    return next(
        block
        for when, flags, block in COURSE_TABLE
        if event["when"] == when and all(event[k] == v for k, v in flags.items())
    )
