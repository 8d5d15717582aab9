"""Counts only the d-wide vectors per layer (6 d), leaving out the MLP's 3 d_ff-wide ones."""

from solutions.c4_oom_attribution import *  # noqa: F403

KILLED_BY = ("activation_estimate",)


def activation_bytes_estimate(config, batch_size, seq_len, bytes_per_element):
    return batch_size * seq_len * config["num_hidden_layers"] * 6 * config["hidden_size"] * bytes_per_element
