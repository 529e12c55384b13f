"""The whole-process timer the benchmarks quote runs commands as given (figures never asserted)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from tests.sim.conftest import ROOT, benchmark


def test_two_commands_run_in_turn_each_counted_with_a_ratio_per_pair(tmp_path: Path) -> None:
    log = tmp_path / "order.txt"
    a = f"import pathlib; p = pathlib.Path({str(log)!r}); p.write_text(p.read_text() + 'A') if p.exists() else p.write_text('A')"
    b = a.replace("'A'", "'B'")
    doc = benchmark(
        "timed.py", "-n", "3", "--warmup", "1", "--json", "--vs", shlex.join([sys.executable, "-c", b]), "--",
        sys.executable, "-c", a,
    )  # fmt: skip
    # One warm-up pair, then three counted pairs, the order alternating pair by pair.
    assert log.read_text() == "AB" + "BA" + "AB" + "BA"
    assert [len(doc["runs"][name]) for name in ("A", "B")] == [3, 3]
    for run in doc["runs"]["A"] + doc["runs"]["B"]:
        assert run["exit"] == 0 and run["wall_s"] > 0 and run["peak_mib"] > 1
    ratios = doc["summary"]["a_over_b"]["wall_s"]
    assert len(ratios["pairs"]) == 3 and ratios["min"] <= ratios["median"] <= ratios["max"]


def test_the_before_command_runs_before_each_run_and_a_cuelog_command_is_timed(tmp_path: Path) -> None:
    marks = tmp_path / "marks.txt"
    doc = benchmark(
        "timed.py", "-n", "2", "--warmup", "0", "--json", "--before", f"echo x >> {shlex.quote(str(marks))}", "--",
        sys.executable, "-m", "cuelog", "validate", str(ROOT / "examples"),
    )  # fmt: skip
    assert marks.read_text().split() == ["x", "x"]
    assert [r["exit"] for r in doc["runs"]["A"]] == [0, 0]
    assert doc["summary"]["A"]["cpu_s"]["median"] > 0 and "a_over_b" not in doc["summary"]


def test_a_command_that_fails_is_reported_with_its_error_and_exit_1() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "timed.py"), "-n", "1", "--warmup", "0", "--",
         sys.executable, "-c", "import sys; print('broken on purpose', file=sys.stderr); sys.exit(3)"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 1
    assert "A exited with 3" in r.stderr and "broken on purpose" in r.stderr
