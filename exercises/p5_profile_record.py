"""P5 — profile and record (part 6; part 7, §五 "five things to do").

Read a real ``torch.profiler`` table of a training step, and make a run reproducible: a
DataLoader whose worker processes are seeded, and a run record with the course's seven items
(run id, commit, config, data version, seed, environment, metrics) saved as JSON beside the run.
"""


def summarize_profile(rows: list, k: int = 5) -> dict:
    """Top ops and the backward/forward ratio from a profiler table given as plain rows.

    Args:
        rows: one dict per row of ``prof.key_averages()`` of a real CPU profile of a few training
            steps: ``{"name": str, "self_cpu_time_us": float, "cpu_time_total_us": float,
            "count": int}`` (times in microseconds). The step ran inside
            ``record_function("forward")`` and ``record_function("backward")``, so two rows are
            named ``"forward"`` and ``"backward"``.
        k: how many top ops to return.

    Returns ``{"top_ops": [k names], "backward_forward_ratio": float}``:
        ``top_ops``: names of the rows starting with ``"aten::"`` with the largest SELF cpu
            time (time in the op itself, children excluded), largest first; ties by name;
        ``backward_forward_ratio``: ``cpu_time_total_us`` of ``"backward"`` divided by that of
            ``"forward"`` (part 6: about 2 on a GPU for large matmuls).

    Source: part 6, must-remember "GEMM + attention should dominate the table; backward ~ 2x
    forward; copy_/contiguous or thousands of tiny ops at the top mean layout or launch overhead".
    """
    raise NotImplementedError("P5: summarize_profile")


def make_loader(dataset, seed: int, batch_size: int):
    """A ``torch.utils.data.DataLoader`` over ``dataset`` that is reproducible from ``seed``.

    ``shuffle=True``, ``num_workers=2``, ``batch_size`` as given. Each worker process gets a
    base seed + its id; torch (>= 1.9) then seeds the worker's torch, ``random`` and NumPy RNGs
    from it. The base seed is drawn from the loader's ``generator`` or, without one, from torch's
    global RNG, which nobody seeded: pass ``generator=torch.Generator().manual_seed(seed)``
    (it also drives the shuffling). A ``worker_init_fn`` is optional; if you write one, derive
    each worker's seed from ``torch.initial_seed()`` (per worker), never the same seed in every
    worker (both would then draw the same "random" augmentations).

    The grader reseeds every global RNG from the OS first (like a fresh process); its dataset
    draws noise from ``np.random``, ``random`` and ``torch`` in ``__getitem__``; a tiny model
    trains from your loader. Same seed twice -> identical metric; another seed -> different;
    no two samples with the same noise.

    Source: part 6, must-remember "same seed twice: 3.237898 both times; seed 1 differs by 0.14";
    part 1 (DataLoader workers are processes: globals are copies).
    """
    raise NotImplementedError("P5: make_loader")


def make_run_record(run_id: str, repo_dir: str, config: dict, data_path: str, seed: int, metrics: dict) -> dict:
    """The seven-item run record, as a JSON-able dict with exactly these keys:

        ``"run_id"``: ``run_id`` as given; ``"commit"``: the full sha of HEAD of the git
        repository at ``repo_dir`` (it belongs to another user: ``git -c safe.directory='*' -C
        repo_dir rev-parse HEAD``); ``"config"``: ``config`` as given; ``"data_version"``: the
        sha256 hex digest of the bytes of the file ``data_path``; ``"seed"``: ``seed``;
        ``"environment"``: a pip-freeze-like dict ``{package name: version string}`` of the
        installed distributions (``importlib.metadata``), including ``"torch"``;
        ``"metrics"``: ``metrics`` as given.

    Source: part 6, must-remember "a run record has seven items: run id, commit, config, data
    version, seed, environment, metrics; without one the conclusion is 'it seemed so then'".
    """
    raise NotImplementedError("P5: make_run_record")


def save_run_record(record: dict, run_dir: str) -> str:
    """Write ``record`` as JSON to ``<run_dir>/run_record.json`` and return that path (a str).

    Source: part 6 (the record is saved beside the run); part 1 (asdict(cfg) -> config.json).
    """
    raise NotImplementedError("P5: save_run_record")
