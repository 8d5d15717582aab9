"""A6 — full fine-tuning vs LoRA: the memory of the training state (part 7, §五.A question 6;
part 4, the byte account of training).

A 3B model, full fine-tuning with bf16 mixed precision and AdamW: how much GPU memory do the
parameters, gradients and optimizer state take (activations not counted)? Does a 24 GB card
suffice? And with LoRA training 1% as many parameters?

The convention (bf16 mixed precision + AdamW), per parameter:

    trainable parameter: bf16 weight 2 + bf16 gradient 2 + fp32 master weight 4
                         + AdamW first moment m (fp32) 4 + second moment v (fp32) 4  = 16 bytes
    frozen parameter (the LoRA base): its bf16 weight only                            =  2 bytes

AdamW's per-tensor ``step`` counter (one 4-byte scalar per parameter *tensor*, not per
parameter) is negligible and is not part of the account. All results are bytes as plain ints
(not GB, not GiB): ``48 * 10**9`` bytes is "48 GB".

The checks build a small Llama-style model, set this convention up for real (a bf16 model, an
fp32 master copy, AdamW after one step; and the same with peft LoRA adapters) and compare your
numbers with the bytes of the real tensors.
"""


def full_finetune_bytes(n_params: int) -> int:
    """Bytes of weights + gradients + optimizer state when all ``n_params`` parameters train.

    Args:
        n_params: number of parameters of the model (all trainable), an int >= 0 (3B: ``3 * 10**9``).

    Returns:
        Bytes as a plain int, under the convention of the module docstring (16 bytes per
        trainable parameter). E.g. ``full_finetune_bytes(3 * 10**9) == 48 * 10**9``: 48 GB,
        which does not fit a 24 GB card even before activations.

    Source: part 4, must-remember "16 bytes per trainable parameter = 2 + 2 + 4 + 4 + 4";
    part 7 §五.A question 6.
    """
    raise NotImplementedError("A6: full_finetune_bytes")


def lora_bytes(n_base: int, n_trainable: int) -> int:
    """Bytes of the training state under LoRA: a frozen base plus trainable adapters.

    Args:
        n_base: parameters of the frozen base model (all of them: embeddings, norms, linears), >= 0.
        n_trainable: parameters of the LoRA adapters (the A and B matrices), which are *added*
            to the base and are the only ones that train, >= 0.

    Returns:
        Bytes as a plain int: the frozen base keeps only its bf16 weights (2 bytes/param, no
        gradient, no optimizer state); every adapter parameter costs the full 16 bytes.
        E.g. 3B base with adapters of 1% of it: ``lora_bytes(3 * 10**9, 3 * 10**7)`` is
        6.48 * 10**9 (about 6.5 GB): it fits a 24 GB card, the rest is left for activations.

    Source: part 4, "LoRA freezes the base and keeps one bf16 copy; 16 bytes only for the
    trainable parameters"; part 7 §五.A question 6.
    """
    raise NotImplementedError("A6: lora_bytes")


def state_breakdown(n_frozen: int, n_trainable: int) -> dict[str, int]:
    """The training state split into its parts, in bytes.

    Args:
        n_frozen: frozen parameters (0 for full fine-tuning; the base model's count under LoRA).
        n_trainable: trainable parameters (all of them for full fine-tuning; the adapters' count
            under LoRA).

    Returns:
        A dict with exactly these six keys, each a plain int of bytes:
            ``"frozen_weights"``: bf16 weights of the frozen parameters,
            ``"weights"``: bf16 weights of the trainable parameters (the copy the forward uses),
            ``"grads"``: their bf16 gradients,
            ``"master"``: their fp32 master weights (what the optimizer updates),
            ``"adam_m"``: AdamW's first moment, fp32,
            ``"adam_v"``: AdamW's second moment, fp32.
        The values add up to :func:`lora_bytes` (and, with ``n_frozen == 0``, to
        :func:`full_finetune_bytes`). E.g. ``state_breakdown(0, 1)`` ->
        ``{"frozen_weights": 0, "weights": 2, "grads": 2, "master": 4, "adam_m": 4, "adam_v": 4}``.

    Source: part 4, must-remember "16 bytes = 2 + 2 + 4 + 4 + 4"; why the master weights and the
    moments must be fp32 (bf16 has 7 mantissa bits: 1.0 + 1e-5 is 1.0 in bf16).
    """
    raise NotImplementedError("A6: state_breakdown")
