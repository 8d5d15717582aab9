"""由配置搭起来的小型 Llama 式模型，给需要真实模型的检查用。

随机初始化，不下载：用 transformers 自己的 ``LlamaForCausalLM`` 和一个 ``LlamaConfig``。
配置以普通 dict 传到学习者的进程（``config.to_dict()`` 的子集，见 ``plain_config``）。

English
-------

Small Llama-style models built from a config, for checks that need a real model.

Random init, no download: transformers' own ``LlamaForCausalLM`` from a ``LlamaConfig``.
Configs cross to the learner's process as plain dicts (``config.to_dict()`` subsets, see ``plain_config``).
"""

from __future__ import annotations

PLAIN_KEYS = (
    "vocab_size",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "tie_word_embeddings",
    "max_position_embeddings",
)


def plain_config(config) -> dict:
    """transformers 配置中传给学习者的那部分，普通 dict。

    English
    -------

    The plain-dict subset of a transformers config that crosses to the learner.
    """
    d = config.to_dict() if hasattr(config, "to_dict") else dict(config)
    return {k: d[k] for k in PLAIN_KEYS if k in d}


def llama_config(plain: dict):
    from transformers import LlamaConfig

    return LlamaConfig(**plain, attn_implementation="eager")


def build_llama(plain: dict, *, seed: int = 0, device: str = "cpu", dtype=None):
    """一个随机初始化的 ``LlamaForCausalLM``（``device='meta'`` 时不分配内存）。

    English
    -------

    A randomly initialised ``LlamaForCausalLM`` (``device='meta'`` allocates nothing).
    """
    import torch
    from transformers import LlamaForCausalLM

    torch.manual_seed(seed)
    with torch.device(device):
        model = LlamaForCausalLM(llama_config(plain))
    if dtype is not None:
        model = model.to(dtype)
    return model


# 课程用到的真实配置（取自它们的 config.json）；用作固定的第二道检查。
# The real configs the course uses (from their config.json); used as fixed second checks.
QWEN2_5_0_5B = {
    "vocab_size": 151936,
    "hidden_size": 896,
    "intermediate_size": 4864,
    "num_hidden_layers": 24,
    "num_attention_heads": 14,
    "num_key_value_heads": 2,
    "head_dim": 64,
    "tie_word_embeddings": True,
    "max_position_embeddings": 32768,
}
LLAMA3_8B = {
    "vocab_size": 128256,
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "tie_word_embeddings": False,
    "max_position_embeddings": 8192,
}


def state_digest(model) -> str:
    """模型 state dict 的 SHA-256（名字、dtype、形状、字节）：在两个进程里搭出的同一个模型摘要相同。

    English
    -------

    SHA-256 of a model's state dict (names, dtypes, shapes, bytes): the same model built in
    two processes has the same digest.
    """
    import hashlib

    import torch

    h = hashlib.sha256()
    for name, t in sorted(model.state_dict().items()):
        t = t.detach().cpu().contiguous()
        h.update(f"{name}|{t.dtype}|{tuple(t.shape)}|".encode())
        h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes())
    return h.hexdigest()
