"""Masks only the LAST position (when it is EOS): an example with EOS anywhere else (a packed
example, an EOS inside the text) keeps those EOS labels, though the stub asks for every position
whose input token is EOS.

axolotl-ai-cloud/axolotl PR #1847 (its ``train_on_eos`` treated only the last EOS one way and the
others another: "make the train_on_eos default to turn so all eos tokens are treated the same");
mosaicml/llm-foundry PR #878 (masking decided by "the input token is EOS Token", at every position).
"""

from solutions.x5_loss_falls_never_stops import *  # noqa: F401,F403

KILLED_BY = ("loss_curve", "generations")
MISCONCEPTION = "mask only the last token: every position whose input token is EOS gets label -100"


def mask_eos(example, eos_id):
    labels = list(example["labels"])
    if example["input_ids"] and example["input_ids"][-1] == eos_id:
        labels[-1] = -100
    return {"input_ids": list(example["input_ids"]), "labels": labels}
