"""Activation memory, measured (A7, B1): the bytes autograd saves for backward inside the decoder
layers of a real ``LlamaForCausalLM`` (SDPA attention, training mode) during one training
forward, read with ``torch.autograd.graph.saved_tensors_hooks`` (parameters excluded, each
storage counted once), with or without transformers' own gradient checkpointing (part 4)."""

from __future__ import annotations

import warnings

import torch

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


def measured_bytes(plain: dict, batch: int, seq_len: int, dtype: str, checkpointing: bool = False) -> int:
    """Saved-for-backward bytes inside the decoder layers during one training forward of a model
    built from the plain Llama config ``plain`` in ``dtype`` ("float32" or "bfloat16").

    Parameters and the rotary cos/sin tables (shared by all layers and sequences) are not counted."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(**plain, attn_implementation="sdpa", use_cache=False))
    model = model.to(DTYPES[dtype]).train()
    if checkpointing:
        with warnings.catch_warnings():  # transformers 5 renames it activation_checkpointing_enable
            warnings.simplefilter("ignore", FutureWarning)
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    skip = {p.untyped_storage().data_ptr() for p in model.parameters()}
    inside, seen, alive = [False], {}, []
    # the rotary cos/sin tables: computed once per forward, shared by every layer and sequence
    model.model.rotary_emb.register_forward_hook(
        lambda m, a, out: skip.update(t.untyped_storage().data_ptr() for t in out)
    )

    def pack(t):
        if inside[0]:
            storage = t.untyped_storage()
            alive.append(storage)  # no address is reused while we count
            if storage.data_ptr() not in skip:
                seen.setdefault(storage.data_ptr(), storage.nbytes())
        return t

    for layer in model.model.layers:
        layer.register_forward_pre_hook(lambda *_: inside.__setitem__(0, True))
        layer.register_forward_hook(lambda *_: inside.__setitem__(0, False))
    ids = torch.randint(0, plain["vocab_size"], (batch, seq_len))
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        model(input_ids=ids, labels=ids)
    return sum(seen.values())
