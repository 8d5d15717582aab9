"""C1 — a 70B fine-tuning plan: full or LoRA, how many 80 GB GPUs? (part 7, §五.C question 1; part 4).

"Fine-tune a 70B model: full or LoRA, and how many 80 GB GPUs? Show me the account." The answer
is arithmetic, so here it is code: bytes per trainable parameter, the training state of each
method, the number of GPUs, the DDP-vs-FSDP choice and the bytes on each GPU.

Conventions (part 4): bf16 mixed precision with AdamW. All sizes are in bytes (ints), never GB.
"Trainable" parameters carry the whole training state; frozen ones only their stored weights.
Activations are NOT part of the training state: they are passed in separately where needed.
"""


def bytes_per_trainable_param() -> dict[str, int]:
    """The bytes one trainable parameter costs in the training state, by part.

    Returns:
        A dict with exactly the keys ``"weights"`` (the bf16 copy used by forward/backward),
        ``"grads"``, ``"master"`` (the fp32 master weight), ``"adam_m"`` and ``"adam_v"``
        (AdamW's two moments), each an int number of bytes. Checked against the bytes of real
        tensors of a small model after one optimizer step.

    Source: part 4, must-remember "16 bytes per trainable parameter = 2 + 2 + 4 + 4 + 4".
    """
    raise NotImplementedError("C1: bytes_per_trainable_param")


def state_bytes(n_base: int, n_adapter: int, method: str) -> int:
    """Training-state bytes (weights, grads, master weights, optimizer state; no activations).

    Args:
        n_base: parameters of the base model (e.g. 70 * 10**9).
        n_adapter: LoRA adapter parameters (0 for ``"full"``).
        method: ``"full"`` (every base parameter trains), ``"lora"`` (the base is frozen in bf16,
            the adapters train) or ``"qlora"`` (the frozen base is stored in 4 bits, i.e. half a
            byte per parameter, rounded up to whole bytes; the adapters train as in LoRA).

    Returns:
        An int number of bytes, e.g. 70B full -> 1,120,000,000,000; 70B LoRA with 1.3% adapters
        -> about 155 GB.

    Raises:
        ValueError: an unknown method.

    Source: part 4 (16 bytes; LoRA keeps one bf16 copy of the base; QLoRA ~0.5 bytes/param);
    part 7 §五.C question 1 and its follow-up "how much does QLoRA save".
    """
    raise NotImplementedError("C1: state_bytes")


def inference_bytes(n_params: int) -> int:
    """Bytes of the weights for bf16 inference (no grads, no master, no optimizer state).

    Returns an int; the follow-up "why does inference need only 1/8" (2 of the 16 bytes).
    Source: part 4 and part 7 §五.C question 1, follow-up directions.
    """
    raise NotImplementedError("C1: inference_bytes")


def gpus_needed(total_bytes: int, gpu_bytes: int) -> int:
    """The fewest GPUs of ``gpu_bytes`` each whose memory together holds ``total_bytes``.

    E.g. 1120 GB on 80 GB cards -> 14 (so one 8-GPU node, 640 GB, is not enough).
    Source: part 7 §五.C question 1, key point 2.
    """
    raise NotImplementedError("C1: gpus_needed")


def choose_strategy(replica_bytes: int, gpu_bytes: int) -> str:
    """``"DDP"`` if one full replica (state + activations of one GPU) fits one GPU, else ``"FSDP"``.

    Both arguments in bytes. Source: part 4, "DDP keeps a full model per GPU, so it needs the
    model to fit one GPU; FSDP shards parameters / grads / state across GPUs".
    """
    raise NotImplementedError("C1: choose_strategy")


def per_gpu_bytes(state_bytes: int, activation_bytes: int, strategy: str, n_gpus: int) -> int:
    """Bytes on each GPU: the share of the training state plus this GPU's activations.

    Args:
        state_bytes: the whole training state (see ``state_bytes``).
        activation_bytes: activations of the micro-batch one GPU processes (they are outside
            the 16-byte account and are not sharded: each GPU has its own micro-batch).
        strategy: ``"DDP"`` (a full replica of the state per GPU) or ``"FSDP"`` (the state is
            split evenly over ``n_gpus``, rounded up to whole bytes).
        n_gpus: number of GPUs (>= 1).

    Returns an int number of bytes. Raises ValueError for an unknown strategy.
    Source: part 4 (DDP vs FSDP; activations outside the account).
    """
    raise NotImplementedError("C1: per_gpu_bytes")
