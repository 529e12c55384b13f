"""`cuelog replay --db` (or `cuelog ingest`) with one worker (the floor) against two and against the default.

Each round runs the three back to back, each in a fresh process (on the same database; for
ingest, each on a fresh database), and the ratios are taken round by round: on a shared
machine the ratio of runs taken together means more than either time. Prints medians with
their spread, and the load average.

    python benchmarks/workers.py --matches 300            # simulate about 70k strokes, load, measure
    python benchmarks/workers.py --db season.duckdb       # an existing, loaded database
    python benchmarks/workers.py --ingest --matches 300   # ingest of the simulated logs instead
    python benchmarks/workers.py --ingest --logs season/logs   # ingest of a directory of logs
    python benchmarks/workers.py --ingest --logs season/logs --after-busy 45   # each run right
        # after 45 s of one core's other work, as a command run after another finds the machine

With ``--after-busy``, one process keeps a core busy for that long before each run and
stops as the run starts: the cores are idle, but the one-minute load average still says one
was busy (the default chooses its workers by the cores watched now, cuelog/ingest/cores.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The installed `cuelog` script, as users run it: a worker runs the script again as it
# starts, which `python -m cuelog` does not (multiprocessing skips a package's __main__).
_SCRIPT = Path(sys.executable).with_name("cuelog")
CUELOG = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "cuelog"]


def timed(args: list[str], after_busy: float = 0.0) -> float:
    if after_busy:
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        time.sleep(after_busy)
        busy.kill()
        busy.wait()
    start = time.perf_counter()
    subprocess.run([*CUELOG, *args], check=False, capture_output=True)
    return time.perf_counter() - start


def simulate(directory: Path, matches: int) -> Path:
    season = directory / "season"
    subprocess.run(
        [
            *CUELOG,
            *("simulate", "--rules", "snooker/wpbsa-2024", "--matches", str(matches), "--seed", "3"),
            *("--out", str(season), "--errors", "0.02", "--workers", "2"),
        ],
        check=True,
        capture_output=True,
    )
    return season / "logs"


def build(directory: Path, matches: int) -> Path:
    db = directory / "season.duckdb"
    subprocess.run(
        [*CUELOG, "ingest", str(simulate(directory, matches)), "--db", str(db)], check=True, capture_output=True
    )
    return db


def ingest_args(logs: Path, db: Path) -> list[str]:
    """A fresh database for each run: ingest loads a file once."""
    db.unlink(missing_ok=True)
    Path(f"{db}.wal").unlink(missing_ok=True)
    return ["ingest", str(logs), "--db", str(db)]


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, help="a loaded cuelog database (default: simulate one)")
    parser.add_argument("--matches", type=int, default=300, help="matches to simulate without --db")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ingest", action="store_true", help="time `cuelog ingest` of the logs instead")
    parser.add_argument("--logs", type=Path, help="with --ingest: a directory of logs (default: simulate them)")
    parser.add_argument(
        "--after-busy", type=float, default=0.0, help="seconds of one core's other work before each run"
    )
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if opts.ingest:
            logs, db = opts.logs or simulate(Path(tmp), opts.matches), Path(tmp) / "fresh.duckdb"
            size = sum(f.stat().st_size for f in logs.iterdir())
            print(f"{len(list(logs.iterdir()))} logs, {size / (1 << 20):.1f} MB")
            command = lambda: ingest_args(logs, db)  # noqa: E731
        else:
            db = opts.db or build(Path(tmp), opts.matches)
            command = lambda: ["replay", "--db", str(db)]  # noqa: E731
        runs: dict[str, list[float]] = {"1 worker (floor)": [], "2 workers": [], "default": []}
        args = {"1 worker (floor)": ["--workers", "1"], "2 workers": ["--workers", "2"], "default": []}
        timed([*command(), "--workers", "1"])  # warm the file cache
        for _ in range(opts.rounds):
            for name, extra in args.items():
                runs[name].append(timed([*command(), *extra], opts.after_busy))
        floor = runs["1 worker (floor)"]
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {opts.rounds} rounds")
        for name, times in runs.items():
            ratios = [t / f for t, f in zip(times, floor, strict=True)]
            print(f"{name:18} wall s {spread(times):22} / floor {spread(ratios)}")


if __name__ == "__main__":
    main()
