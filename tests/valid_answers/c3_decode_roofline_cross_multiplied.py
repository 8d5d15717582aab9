"""A valid C3 answer: the bound decided by cross-multiplying (FLOPs x bandwidth against peak x
bytes, memory-bound on a tie), not by comparing two float quotients: it differs from the
reference only where the intensity is (nearly) at the ridge, which the contract does not define."""


def roofline(flops, nbytes, peak_flops, bandwidth):
    intensity = flops / nbytes
    return {
        "intensity": intensity,
        "time_s": max(flops / peak_flops, nbytes / bandwidth),
        "bound": "memory" if flops * bandwidth <= peak_flops * nbytes else "compute",
    }
