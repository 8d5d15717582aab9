"""B4 — decode floor after merge_and_unload (reference answer)."""


def decode_floor_ms(n_params, bytes_per_param, peak_tflops, bandwidth_tb_s):
    return n_params * bytes_per_param / (bandwidth_tb_s * 1e12) * 1e3


def merge_lora(peft_model):
    return peft_model.merge_and_unload()
