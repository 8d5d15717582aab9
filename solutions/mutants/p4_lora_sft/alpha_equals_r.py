"""lora_alpha=16 with r=16: the same trainable count, but a scaling alpha/r of 1.0, not 2.0."""

from solutions.p4_lora_sft import *  # noqa: F401,F403

KILLED_BY = ("trainable_params_match_peft",)


def add_lora(model):
    from peft import LoraConfig, get_peft_model

    return get_peft_model(
        model, LoraConfig(r=16, lora_alpha=16, lora_dropout=0.0, target_modules="all-linear", task_type="CAUSAL_LM")
    )
