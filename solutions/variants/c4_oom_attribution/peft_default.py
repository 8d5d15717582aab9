"""peft's own default on a bf16 model: ``get_peft_model`` upcasts the LoRA adapters to fp32
(``autocast_adapter_dtype=True``, peft >= 0.12), so each adapter parameter is its own fp32 master
copy with an fp32 gradient: weights 2 per frozen + 4 per trainable, grads and state 4 + 4 + 4.

Valid: the real tensors of peft's default setup; the course's 2 + 2 + 4 + 4 + 4 passes too.
"""

from solutions.c4_oom_attribution import *  # noqa: F403

PASSES = ("memory_blocks",)


def memory_blocks(n_frozen, n_trainable, activation_bytes, kv_cache_bytes):
    return {
        "weights": 2 * n_frozen + 4 * n_trainable,
        "grads_and_state": 12 * n_trainable,
        "activations": activation_bytes,
        "kv_cache": kv_cache_bytes,
    }
