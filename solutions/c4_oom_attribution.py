"""C4 — OOM attribution to the four blocks (part 7, §五.C question 4; parts 4 and 6)."""

BLOCKS = ("weights", "grads_and_state", "activations", "kv_cache")
REMEDIES = (
    "bf16",
    "quantize",
    "more_gpus",
    "lora",
    "fsdp",
    "8bit_optimizer",
    "gradient_checkpointing",
    "smaller_batch_with_accumulation",
    "shorter_sequences",
    "fewer_concurrent_requests",
    "no_grad",
)
BF16, GRAD, MASTER, ADAM = 2, 2, 4, 8
CURES = {
    "weights": ["bf16", "quantize", "more_gpus"],
    "grads_and_state": ["lora", "fsdp", "8bit_optimizer"],
    "activations": ["gradient_checkpointing", "smaller_batch_with_accumulation", "shorter_sequences"],
    "kv_cache": ["fewer_concurrent_requests", "shorter_sequences"],
}


def memory_blocks(n_frozen, n_trainable, activation_bytes, kv_cache_bytes):
    return {
        "weights": BF16 * (n_frozen + n_trainable),
        "grads_and_state": (GRAD + MASTER + ADAM) * n_trainable,
        "activations": activation_bytes,
        "kv_cache": kv_cache_bytes,
    }


def attribute_oom(event):
    when = event["when"]
    if when == "load":
        return "weights"
    if when == "first_backward":
        return "activations" if event["lora"] else "grads_and_state"
    if when == "longer_sequence":
        return "activations" if event["training"] else "kv_cache"
    if when == "generation":
        return "kv_cache" if event["no_grad"] else "activations"
    raise ValueError(f"unknown event {when!r}")


def remedies(block):
    if block not in CURES:
        raise ValueError(f"unknown block {block!r}")
    return list(CURES[block])


def max_batch_that_fits(fixed_bytes, activation_bytes_per_sample, gpu_bytes):
    return max(0, (gpu_bytes - fixed_bytes) // activation_bytes_per_sample)


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    d_head = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    return (
        2
        * config["num_hidden_layers"]
        * config["num_key_value_heads"]
        * d_head
        * batch_size
        * seq_len
        * bytes_per_element
    )


def activation_bytes_estimate(config, batch_size, seq_len, bytes_per_element):
    per_token_layer = 6 * config["hidden_size"] + 3 * config["intermediate_size"]
    return batch_size * seq_len * config["num_hidden_layers"] * per_token_layer * bytes_per_element
