"""LoRA on q_proj and v_proj only (peft's old default for Llama) instead of all-linear: far
fewer trainable parameters than r=16 all-linear."""

from solutions.p4_lora_sft import *  # noqa: F401,F403

KILLED_BY = ("trainable_params_match_peft",)


def add_lora(model):
    from peft import LoraConfig, get_peft_model

    return get_peft_model(
        model,
        LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"),
    )
