"""P5 — profile and record (part 6). Reference answer."""

import hashlib
import json
import os
import platform
import random
import subprocess
from importlib import metadata

import numpy as np
import torch


def summarize_profile(rows, k=5):
    ops = sorted((r for r in rows if r["name"].startswith("aten::")), key=lambda r: (-r["self_cpu_time_us"], r["name"]))
    by_name = {r["name"]: r for r in rows}
    ratio = by_name["backward"]["cpu_time_total_us"] / by_name["forward"]["cpu_time_total_us"]
    return {"top_ops": [r["name"] for r in ops[:k]], "backward_forward_ratio": ratio}


def _seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32  # DataLoader gives each worker base_seed + id
    np.random.seed(worker_seed)
    random.seed(worker_seed)


def make_loader(dataset, seed, batch_size):
    g = torch.Generator()
    g.manual_seed(seed)
    return torch.utils.data.DataLoader(
        dataset, batch_size=batch_size, shuffle=True, num_workers=2, worker_init_fn=_seed_worker, generator=g
    )


def make_run_record(run):
    commit = subprocess.run(
        ["git", "-c", "safe.directory=*", "-C", run["repo_dir"], "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    h = hashlib.sha256()
    with open(run["data_path"], "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    env = {d.metadata["Name"]: d.version for d in metadata.distributions() if d.metadata["Name"]}
    env["python"] = platform.python_version()
    return {
        "run_id": run["id"],
        "commit": commit,
        "config": dict(run["config"]),
        "data_version": h.hexdigest(),
        "seed": run["seed"],
        "environment": env,
        "metrics": dict(run["metrics"]),
    }


def save_run_record(record, run_dir):
    path = os.path.join(run_dir, "run_record.json")
    with open(path, "w") as f:
        json.dump(record, f, indent=2, sort_keys=True)
    return path
