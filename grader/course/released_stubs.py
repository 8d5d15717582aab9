"""Each stub's syntax tree as released (exercises/<module>.py without its docstrings), as
grader.engine.stubs.tree_of hashes it: an answer with this tree is the untouched stub, not run.

Written by ``make stubs`` (grader.engine.stubs.write_released), never by hand; tests/test_stubs.py
fails when it is not what the stubs in exercises/ give.
"""

TREES = {
    "a10_profile_idle": "0ca7d9cd473b3d7e1d1603fd2a5565884fafd4eecf551f2e3de12f4ae36dbf09",
    "a1_streaming": "0ad3ae9887f81f9faa9515c02e645029c55f314b70db9540cdce2d2a3d72ceca",
    "a2_nbytes_index": "5f30b70e9d83c8f713f2214ac9a5c56ba98c3e39c16bc29c493ae40c9cea5dde",
    "a3_broadcast": "e4041c8a3ccf1421a692598f963e2d8f9e442b37aa9beb0c21ac693577c06c0f",
    "a4_grad_accum": "d2ce3253e173fa0b43c00393236af2c4dec2d7861a734b6d04ee9c210fc33696",
    "a5_first_loss": "6363bd15d06c69f2dc5e77d497262360abd1233736e5aea256f9f964d45d977e",
    "a6_training_state": "f4897e89a77d62f7151a8657e4f169214b317c38571afce244f9ff0728d3d619",
    "a7_activations": "ec742d573fa0d47b1dfe9fdb9a86252277bcf3a04494118b3e474bd91bbe7448",
    "a8_lora_params": "0df7c1f3f7e020cb925c473283437b54795cb0fccb4dbbceb95f8c9132370da5",
    "a9_kv_cache": "08e1d2bf9592193574978ce3a86245947abded9e5cfe2838d5748906dbc0a672",
    "b1_lora_oom": "37254078cb67f2e2889caceafa1f579d5d0cbef2ed62d81ce5034e8c88f12e9b",
    "b2_is_it_real": "1ce6659b6c377eec223ae60edd62ecacc37ef3a86b26d68a39dd266c239b3a38",
    "b3_never_stops": "434b665e90b09e59046f8533a238f2ffe5805ed2d0d5f6b26cba63b312e66857",
    "b4_merged_decode": "8fd78bfdc0b08a63355d3192b80efaf321f9dba5e8f0db661f90de888d1cc22a",
    "b5_ddp": "2bc78409aff3526beff48e32c01c68d7ad562de3a775d58e1e64a1ff204117b4",
    "c1_70b_plan": "cbe0a8c2d73f978e9b65cd9546240292dd9da57ee367cab7c5c6b3add3541ecd",
    "c2_loss_triage": "7b893fa6fe6a71df8218cfcad3f73468b981ca5a44b724fef7435f03aafa1e89",
    "c3_decode_roofline": "7c455c59e661cf9a45033286ef4be8c2ac31dd3a278bbc11b861b66249ba5553",
    "c4_oom_attribution": "7f590e9ca6e9933a48a8ed02dc1e8a427c50b3948f3bb1343f5073b0661790cc",
    "c5_four_additions": "5539326e106547d8ba9146fa75031a5b4b5ac1008edb45aa62a4eb01a8005248",
    "c6_trustworthy": "e7adbde6b4944aa4aff3ce86be0152dd7364210a0976d0ee5faf58d0b70ca8c1",
    "c7_jsonl_plan": "69dbb7373cfa9d53a3194f1a9035e56cd52a1b7304c398ad4756e54231ae6ca0",
    "p1_causal_attention": "82a7d3544ead138d72908541fa61a67b9086b5d1fadfd9a7e0d7f5ddec728847",
    "p2_training_loop": "70445a46a51876b69ccb858e2339eae54dd1d9fa717bfa444c23dc1d97ca372e",
    "p3_memory_estimate": "02aad743b16ddc67ed807fbd4214acf7d1c74da2f5c40ee33e7b585194d3c3f2",
    "p4_lora_sft": "cf157d71ba0d5b30a31fa5e0888d4306c0f40cd9846d8562cf80bf128cccf532",
    "p5_profile_record": "39cb045424167289b959a3993b34a1e7a61c0d2f65fff59f75d7c0293684f857",
    "r_recall": "82595203232a1d015daeab9d4d173f65b931e827cad10bf9dbd7fb415b122e57",
    "x1_gil": "aa32c3f37921fcc90594651161950857acb1ff4779f6cedfca06572e3047a967",
    "x2_silent_broadcast": "3ab41c191734eee11906299ce791d5c2e6148525ea19b3964d2409e7d3c2daaa",
    "x3_autocast_dtypes": "b80944136a02ce4b6d0de59d12c8d92ab874729c9b1dc6fa6ea575c51aa3c5b7",
    "x4_decode_bytes": "4e303f9787cb2d79766ee988547f6f867de5f915f0152f803c0fca662f76266a",
    "x5_loss_falls_never_stops": "6acfb1d0e56747facdd59aeb68769e972a40eb7290031731d50acf765c4797cd",
}
