"""Takes gradient checkpointing for "half the activations": against the course's 「gradient checkpointing
只存每层输入、反向重算，多约 30% 计算」 (part 7, 二)."""

from solutions.a7_activations import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A7", ("checkpointed_bytes",), "takes checkpointing for halving"


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    d, d_ff, layers = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"]
    full = batch * seq_len * layers * (6 * d + 3 * d_ff) * bytes_per_elem
    return full // 2 if checkpointing else full
