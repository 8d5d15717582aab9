"""KV-cache bytes, from a real transformers ``DynamicCache`` after a forward with
``use_cache=True`` (A9, C4, R): of a tiny random Llama on CPU, or of any config on the meta
device, where a [128, 4096] batch allocates nothing but its cache tensors still know their
nbytes (part 6, KV cache)."""

from __future__ import annotations

import warnings
from functools import cache, lru_cache

import torch

from grader.given.tiny_models import build_llama, llama_config


def cache_bytes(cache) -> int:
    """nbytes of every key and value tensor a transformers cache holds."""
    if hasattr(cache, "layers"):  # transformers >= 4.56: one DynamicLayer per decoder layer
        tensors = [t for layer in cache.layers for t in (layer.keys, layer.values)]
    else:  # older transformers
        tensors = list(cache.key_cache) + list(cache.value_cache)
    return sum(t.nbytes for t in tensors)


def _forward_cache(model, input_ids) -> int:
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = model(input_ids=input_ids, use_cache=True, logits_to_keep=1)
    cache = out.get("cache") if out.get("cache") is not None else out.past_key_values
    return cache_bytes(cache)


def real_cache_bytes(config: dict, batch: int, seq: int, dtype, seed: int = 0) -> int:
    """A real forward of a tiny random model on CPU."""
    model = build_llama(config, seed=seed, dtype=dtype).eval()
    ids = torch.randint(0, config["vocab_size"], (batch, seq), generator=torch.Generator().manual_seed(seed))
    return _forward_cache(model, ids)


def meta_cache_bytes(config: dict, batch: int, seq: int, dtype) -> int:
    """A forward on the meta device: no memory, no compute, real cache tensors' shapes and dtypes."""
    return _meta_cache_bytes(tuple(sorted(config.items())), batch, seq, dtype)


@cache
def _meta_model(config_items):
    from transformers import LlamaForCausalLM

    try:  # transformers 5
        from transformers.initialization import no_init_weights
    except ImportError:  # transformers 4
        from transformers.modeling_utils import no_init_weights

    with no_init_weights(), torch.device("meta"):
        return LlamaForCausalLM(llama_config(dict(config_items))).eval()


@lru_cache(maxsize=256)
def _meta_cache_bytes(config_items, batch, seq, dtype) -> int:
    model = _meta_model(config_items).to(dtype)
    return _forward_cache(model, torch.zeros((batch, seq), dtype=torch.long, device="meta"))
