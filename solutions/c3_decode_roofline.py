"""C3 — decode roofline (part 7, §五.C question 3; part 6)."""


def ridge_point(peak_flops, bandwidth):
    return peak_flops / bandwidth


def decode_cost(n_params, batch, bytes_per_param):
    return 2.0 * n_params * batch, float(n_params * bytes_per_param)  # weights read once, shared


def roofline(flops, nbytes, peak_flops, bandwidth):
    intensity = flops / nbytes
    return {
        "intensity": intensity,
        "time_s": max(flops / peak_flops, nbytes / bandwidth),
        "bound": "memory" if intensity < ridge_point(peak_flops, bandwidth) else "compute",
    }


def quantization_speedup(n_params, tokens_per_step, bytes_before, bytes_after, peak_flops, bandwidth):
    before = roofline(*decode_cost(n_params, tokens_per_step, bytes_before), peak_flops, bandwidth)
    after = roofline(*decode_cost(n_params, tokens_per_step, bytes_after), peak_flops, bandwidth)
    return before["time_s"] / after["time_s"]


def moe_decode_cost(total_params, active_params, batch, bytes_per_param):
    return 2.0 * active_params * batch, float(min(total_params, batch * active_params) * bytes_per_param)
