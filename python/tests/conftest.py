"""Shared fixtures of the package's tests: the CLI binary to compare with (THRESHER_BIN,
set by tests/python_package.rs to the binary cargo built) and the eval corpora
(THRESHER_EVAL_DIR, default ../shared/eval beside the repository)."""

import gzip
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def thresher_bin():
    """Path of the thresher CLI binary."""
    path = os.environ.get("THRESHER_BIN") or str(ROOT / "target/release/thresher")
    assert os.path.exists(path), f"{path}: no thresher binary (set THRESHER_BIN)"
    return path


@pytest.fixture(scope="session")
def eval_dir():
    """The eval corpora (shared/eval)."""
    path = pathlib.Path(os.environ.get("THRESHER_EVAL_DIR") or ROOT.parent / "shared/eval")
    assert path.is_dir(), f"{path}: eval corpora not found (set THRESHER_EVAL_DIR)"
    return path


@pytest.fixture(scope="session")
def cli(thresher_bin):
    """Run the CLI with arguments; returns the completed process (stdout, stderr as text)."""

    def run(*args, check=True):
        proc = subprocess.run(
            [thresher_bin, *map(str, args)], capture_output=True, text=True
        )
        if check:
            assert proc.returncode in (0, 1), f"thresher {args}: {proc.stderr}"
        return proc

    return run


def read_jsonl(path):
    """The JSON lines of a file."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def read_page(path):
    """A page file's bytes, gunzipped as the CLI reads it."""
    data = pathlib.Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data
