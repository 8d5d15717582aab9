"""X4 — decode time is bytes / bandwidth (part 7 §五.D; part 6)."""


def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth):
    return n_params * bytes_per_param / bandwidth * 1e3


def decode_step_ms(n_params, bytes_per_param, batch, peak_flops, bandwidth):
    return max(2 * n_params * batch / peak_flops, n_params * bytes_per_param / bandwidth) * 1e3
