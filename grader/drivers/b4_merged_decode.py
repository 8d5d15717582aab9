"""B4 driver: the learner's ``merge_lora`` on a tiny random Llama wrapped in LoRA with the settings
the check sends (non-zero A and B: peft's ``init_lora_weights=False``).

Runs in the learner's process, so it returns only what the learner's code produced: the merged
model's state dict, its logits on the drawn tokens, its parameter count and any LoRA parameter
names left in it, plus a digest of the peft model taken just before ``merge_lora`` (so the check
can see that the model handed over is the one it built itself). The ground truth (unmerged and
base logits) is computed in the check process from ``build_peft_model`` and ``input_ids`` below.
"""

from __future__ import annotations

import torch


def build_peft_model(config: dict, seed: int, lora: dict):
    """The tiny Llama (``grader.given.tiny_models.build_llama``, seeded) wrapped in peft LoRA with
    the check's ``lora`` settings, in eval mode; deterministic from its arguments."""
    from grader.given import sft
    from grader.given.tiny_models import build_llama

    return sft.add_lora(build_llama(config, seed=seed), lora).eval()


def input_ids(config: dict, seed: int, batch: int, seq_len: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed + 1)
    return torch.randint(0, config["vocab_size"], (batch, seq_len), generator=g)


def run(learner_module, *, config: dict, seed: int, lora: dict, batch: int, seq_len: int) -> dict:
    from grader.given.tiny_models import state_digest

    peft_model = build_peft_model(config, seed, lora)
    ids = input_ids(config, seed, batch, seq_len)
    digest = state_digest(peft_model)
    merged_model = learner_module.merge_lora(peft_model)
    if not isinstance(merged_model, torch.nn.Module):
        return {"error": f"merge_lora returned {type(merged_model).__name__}, expected a torch model"}
    with torch.no_grad():
        out = merged_model(input_ids=ids)
    logits = out.logits if hasattr(out, "logits") else out
    names = [n for n, _ in merged_model.named_parameters()]
    return {
        "digest_before": digest,
        "merged": logits.detach().clone(),
        "state": {k: v.detach().clone() for k, v in merged_model.state_dict().items()},
        "n_params": sum(p.numel() for p in merged_model.parameters()),
        "lora_names": [n for n in names if "lora_" in n][:5],
    }
