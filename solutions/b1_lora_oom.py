"""B1 — LoRA OOM at max_length 8192 x batch 4 (part 7 §五.B q1; parts 3, 4, 5)."""


def diagnose(state_bytes, activation_bytes, gpu_bytes):
    if state_bytes > gpu_bytes:
        return "parameters_and_state"
    return "activations" if state_bytes + activation_bytes > gpu_bytes else "fits"


def scale_activations(measured_bytes, measured_batch, measured_seq_len, batch, seq_len):
    return round(measured_bytes * (batch * seq_len) / (measured_batch * measured_seq_len))


def activations_after_fix(config, batch, seq_len, bytes_per_element):
    return batch * seq_len * config["hidden_size"] * config["num_hidden_layers"] * bytes_per_element


def batch_plan(batch, max_per_pass):
    micro = max(d for d in range(1, min(batch, max_per_pass) + 1) if batch % d == 0)
    return micro, batch // micro


def fit_limit(state_bytes, activation_bytes_per_token, batch, gpu_bytes):
    return max(0, (gpu_bytes - state_bytes) // (activation_bytes_per_token * batch))
