"""Dask is an optional extra: the command line loads without it, and the cluster replay
without it is a clear exit 2, not a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.distributed.conftest import cuelog

# Hides Dask from the interpreter, as in an install without the [distributed] extra.
WITHOUT_DASK = "import sys; sys.modules['distributed'] = None; sys.modules['dask'] = None\n"


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WITHOUT_DASK + code], capture_output=True, text=True, timeout=120)


def test_the_command_line_imports_no_dask() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", "import sys, cuelog.cli; print('distributed' in sys.modules, 'dask' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.stdout.split() == ["False", "False"], ran.stderr


def test_replay_on_a_cluster_without_dask_exits_2_naming_the_extra(tmp_path: Path, examples_dir: Path) -> None:
    data = tmp_path / "archive"
    ran = cuelog("ingest", str(examples_dir), "--parquet", str(data), "--partitions", "2")
    assert ran.exit_code == 0, ran.stderr
    argv = ["cuelog", "replay", "--parquet", str(data), "--scheduler", "local:1", "--out", str(tmp_path / "out")]
    done = run(f"sys.argv = {argv!r}\nfrom cuelog.cli import main\nmain()")
    assert done.returncode == 2, done.stderr
    assert "pip install 'cuelog[distributed]'" in done.stderr.replace("\n", "")
    assert "Traceback" not in done.stderr


def test_the_cluster_benchmark_runs_end_to_end() -> None:
    root = Path(__file__).resolve().parents[2]
    args = ["--strokes", "1500", "--rounds", "1", "--partitions", "1,3", "--json"]
    ran = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "cluster.py"), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    doc = json.loads(ran.stdout)
    assert doc["strokes"] > 0
    assert set(doc["timings"]) == {
        "replay_db_1_worker",
        "in_process_partitions",
        *(f"cluster_{w}_workers_{p}_partitions" for w in (1, 2) for p in (1, 3)),
        "diff_db_1_worker",
        "diff_cluster_2_workers_1_partitions",
    }
    assert doc["ratios_to_in_process"]["diff_cluster_2_workers_1_partitions"] > 0
    assert all(t["median_s"] > 0 for t in doc["timings"].values())
    assert "overhead_per_partition_ms" in doc and doc["ratios_to_in_process"]["cluster_2_workers_1_partitions"] > 0
