"""Helpers for the simulator tests: the command line run in-process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def cuelog(*args: str) -> Ran:
    """Run the real Typer command line in this process."""
    from cuelog.cli import app

    r = CliRunner().invoke(app, list(args))
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return Ran(r.exit_code, r.stdout, r.stderr)


def cuelog_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a subprocess (``python -m cuelog``)."""
    return subprocess.run(
        [sys.executable, "-m", "cuelog", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )


def benchmark(script: str, *args: str) -> dict[str, Any]:
    """Run ``benchmarks/<script>`` with ``args`` (``--json`` among them) in a subprocess, as
    a user runs it; its JSON document (the test fails with its stderr when it fails)."""
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert r.returncode == 0, r.stderr
    return dict(json.loads(r.stdout))


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by relative path, with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
