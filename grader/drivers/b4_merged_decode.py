"""B4 driver: a tiny random Llama with LoRA (r=16, alpha=32, all-linear, non-zero A and B: peft's
``init_lora_weights=False``), its logits on random tokens before and after the learner's
``merge_lora``. Runs in the learner's process; returns plain data for the check."""

from __future__ import annotations

import torch


def run(learner_module, *, config: dict, seed: int, batch: int, seq_len: int) -> dict:
    from peft import LoraConfig, get_peft_model

    from grader import sft
    from grader.tiny_models import build_llama

    torch.manual_seed(seed)
    model = build_llama(config, seed=seed)
    lora = LoraConfig(r=sft.LORA_R, lora_alpha=sft.LORA_ALPHA, target_modules="all-linear",
                      init_lora_weights=False)
    peft_model = get_peft_model(model, lora).eval()
    g = torch.Generator().manual_seed(seed + 1)
    ids = torch.randint(0, config["vocab_size"], (batch, seq_len), generator=g)
    with torch.no_grad():
        unmerged = peft_model(input_ids=ids).logits.clone()
        base = None
        with peft_model.disable_adapter():
            base = peft_model(input_ids=ids).logits.clone()
    merged_model = learner_module.merge_lora(peft_model)
    if not isinstance(merged_model, torch.nn.Module):
        return {"error": f"merge_lora returned {type(merged_model).__name__}, expected a torch model"}
    with torch.no_grad():
        out = merged_model(input_ids=ids)
    logits = out.logits if hasattr(out, "logits") else out
    names = [n for n, _ in merged_model.named_parameters()]
    return {"unmerged": unmerged, "base": base, "merged": logits.detach().clone(),
            "n_params": sum(p.numel() for p in merged_model.parameters()),
            "lora_names": [n for n in names if "lora_" in n][:5]}
