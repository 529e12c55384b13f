"""The worker benchmarks run a store's parts (replay) or a folder's logs (ingest) through two
trees in turn (figures are never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.sim.conftest import ROOT, benchmark, cuelog


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve simulated snooker matches, one a log, with their shot clocks."""
    out = tmp_path_factory.mktemp("worker-scripts") / "season"
    made = cuelog("simulate", "--rules", "snooker/wpbsa-2024", "--matches", "12", "--seed", "3", "--out", str(out))
    assert made.returncode == 0, made.stderr
    return out


def _compared_in_turn(doc: dict[str, Any]) -> None:
    """Both trees timed, each round's ratio taken, and the same tree twice made the same."""
    for tree in ("tree", "base"):
        ns = doc[tree]["ns_per_record"]
        assert 0 < ns["low"] <= ns["median"] <= ns["high"]
    ratio = doc["tree_over_base"]
    assert len(ratio["rounds"]) == 2 and ratio["low"] <= ratio["median"] <= ratio["high"]
    assert doc["same_rows"] is True


def test_the_worker_benchmark_times_the_parts_in_both_trees_and_checks_their_rows(season: Path, tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    loaded = cuelog("ingest", str(season / "logs"), "--clock", str(season / "clocks"), "--db", str(db))
    assert loaded.returncode == 0, loaded.stdout
    doc = benchmark(
        "replay_worker.py", "--db", str(db), "--base", str(ROOT), "--rounds", "2", "--matches", "2",
        "--warmup", "1", "--json",
    )  # fmt: skip
    # Twelve matches in parts of two, the first replayed to warm up and not counted.
    assert doc["parts"] == 5 and doc["records"] > 0 and doc["matches_a_part"] == 2
    _compared_in_turn(doc)  # the same tree twice: the same rows


def test_the_ingest_worker_benchmark_checks_every_log_in_both_trees_and_compares_what_they_found(
    season: Path,
) -> None:
    logs = sorted((season / "logs").glob("*.jsonl"))
    lines = sum(len(p.read_bytes().splitlines()) for p in logs)
    doc = benchmark(
        "ingest_worker.py", "--logs", str(season / "logs"), "--base", str(ROOT), "--rounds", "2",
        "--warmup", "0", "--json",
    )  # fmt: skip
    # Twelve one-match logs, every one checked (a record a line), none left out.
    assert doc["files"] == len(logs) == 12 and doc["records"] == lines and doc["batches"] >= 1
    _compared_in_turn(doc)  # the same tree twice: the same findings and rows


@pytest.mark.parametrize(
    ("script", "option", "said"),
    [("replay_worker.py", "--db", "no store at"), ("ingest_worker.py", "--logs", "no folder of logs at")],
)
def test_a_worker_benchmark_names_its_missing_input(tmp_path: Path, script: str, option: str, said: str) -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), option, str(tmp_path / "none")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode != 0 and said in r.stderr
