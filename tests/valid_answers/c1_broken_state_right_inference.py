"""A C1 answer whose state_bytes is wrong (12 bytes per parameter: the fp32 master copy forgotten)
and whose inference_bytes is right: inference_bytes must pass, since a key point blames only the
function it checks and takes its inputs from ground truth, never from the learner's other
functions (issue 29: a correct inference_bytes was reported wrong because of state_bytes)."""


def state_bytes(n_base, n_adapter, method):
    if method == "full":
        return 12 * n_base
    if method == "lora":
        return 2 * n_base + 12 * n_adapter
    if method == "qlora":
        return (n_base + 1) // 2 + 12 * n_adapter
    raise ValueError(method)
