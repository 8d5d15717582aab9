"""What each exercise's stub forbids ("do not call X"): the one table of rules, read by the engine.

One entry per exercise whose stub forbids a call; ``says`` quotes the stub (a rule without a
sentence in the stub behind it would be unfair: when a stub stops forbidding, its rule goes).
The engine reads it through the catalog (``catalog.get(id).do_not_call``): the learner fixture
(:mod:`grader.engine.plugin`) gives the rule to :class:`grader.isolation.learner.Learner`, which
scans the learner's source before starting it (:mod:`grader.isolation.scan`) and has its process
watched while it answers (:mod:`grader.inside.watch`, the rule passed in the environment):
either finding fails every key point with status ``forbidden_call`` and a message naming the
call. ``tests/test_feedback.py`` checks that every "do not call" / "don't call" in
``exercises/`` has a rule. Check side: no learner process sees this table.

A rule is plain data, every key optional::

    {"exercise": "P1", "says": "do not call that function ... yourself",
     "torch_functions": ["scaled_dot_product_attention"],   # __torch_function__ names (TorchFunctionMode)
     "aten_ops": ["_scaled_dot_product"],                     # aten op name parts (profiler, all threads)
     "python_names": ["scaled_dot_product"],                  # parts of library function names (profile hook)
     "callables": ["torch.nn.functional.scaled_dot_product_attention"],  # replaced by a logging wrapper
     "libraries": ["numpy", "torch"],                         # whole libraries the answer may not use
     "libraries_when": "always",                              # ... nor the module at import (default: answering)
     "optimizer_step": False,                                 # a global optimizer step pre-hook
     "forward_via_call": ["grader.given.char_model:GPT"],     # model.forward(x) instead of model(x)
     "source_names": ["scaled_dot_product_attention"],        # names the source scan looks for
     "source_modules": ["numpy"],                             # modules it may not import
     "source_calls_without_args": ["read"],                   # f.read(): the whole file at once
     "processes": False}                                      # its answer runs in one process

``processes: False`` is enforced from outside the learner's process: the kernel refuses it a new
process or program (a seccomp filter, :func:`grader.isolation.sandbox.one_process_filter`) and the
check sees its user id's processes; every other key is observed inside it, on trust
(docs/security.md). Every rule here has it: a process of its own would answer unwatched.
"""

from __future__ import annotations

RULES: dict[str, dict] = {
    "P1": {
        "says": "Do not call F.scaled_dot_product_attention or torch.nn.MultiheadAttention yourself.",
        "processes": False,
        "torch_functions": ["scaled_dot_product_attention", "multi_head_attention_forward"],
        "aten_ops": [
            "_scaled_dot_product",
            "scaled_dot_product_attention",
            "_native_multi_head_attention",
            "_flash_attention",
            "_efficient_attention",
            "_cudnn_attention",
            "_fused_sdp_choice",
        ],
        # torch's own functions by name, Python or builtin, whatever the path (torch._decomp's too)
        "python_names": ["scaled_dot_product", "multi_head_attention", "_flash_attention", "_efficient_attention"],
        "callables": [
            "torch.nn.functional.scaled_dot_product_attention",
            "torch._C._nn.scaled_dot_product_attention",
            "torch.nn.functional.multi_head_attention_forward",
            "torch.nn.MultiheadAttention.forward",
        ],
        "source_names": [
            "scaled_dot_product_attention",
            "MultiheadAttention",
            "multi_head_attention_forward",
            "_scaled_dot_product_attention_math",
            "_scaled_dot_product_flash_attention_for_cpu",
            "_native_multi_head_attention",
            "scaled_dot_product_flash_attention_for_cpu",
        ],
    },
    "A3": {
        "says": "Answer it for any two shapes, by the rules: do not call NumPy or torch to do it.",
        "processes": False,
        "libraries": ["numpy", "torch"],  # while answering: importing them (a self-test) is fine
        "callables": [
            "numpy.broadcast_shapes",
            "numpy.broadcast_to",
            "numpy.broadcast_arrays",
            "torch.broadcast_shapes",
            "torch.broadcast_tensors",
            "torch.broadcast_to",
            "torch.functional.broadcast_shapes",
        ],
        "source_names": [
            "broadcast_shapes",
            "broadcast",
            "broadcast_to",
            "broadcast_arrays",
            "broadcast_tensors",
            "_broadcast_shapes",
            "_infer_size",
            "infer_size",
        ],
    },
    "A2": {
        "says": "by arithmetic: do not create tensors or arrays here (no torch, no numpy)",
        "processes": False,
        "libraries": ["numpy", "torch"],
        "libraries_when": "always",  # "here": the module, its import included
        "source_modules": ["torch", "numpy"],
    },
    "A4": {
        "says": "do not call an optimizer, return nothing",
        "processes": False,
        "optimizer_step": True,
    },
}


def rule_for(exercise_id: str) -> dict | None:
    rule = RULES.get(exercise_id)
    return None if rule is None else {"exercise": exercise_id, **rule}
