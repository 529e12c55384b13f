"""How long a ``cuelog`` command takes to start: each command's ``--help`` and a small run,
in the working tree and in another revision, taken alternately.

    python benchmarks/startup.py                    # the working tree against main
    python benchmarks/startup.py --base HEAD~2 --rounds 7

Each measurement is a fresh ``python -m cuelog ...`` process with the tree to measure first
on the import path (the other revision is exported with ``git archive``), timed from start
to exit: wall clock and the CPU time of the process (user and system, children included).
The small runs are the bundled examples: ``validate examples/``, ``replay`` of one log,
``ingest`` of the examples into a fresh database, ``rules list``, ``schema``. Printed: the
median of ``--rounds`` with its range, for each tree, and the ratio of the medians. Wall
clock on a shared machine drifts with the load; read the load average printed beside it,
and prefer the CPU times. Never asserted in tests (``tests/test_command_startup.py``
checks which modules a command imports instead).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def commands(work: Path) -> list[tuple[str, list[str]]]:
    """(label, arguments) of every measured command; ``work`` holds each run's database."""
    return [
        ("--help", ["--help"]),
        ("validate --help", ["validate", "--help"]),
        ("replay --help", ["replay", "--help"]),
        ("ingest --help", ["ingest", "--help"]),
        ("report --help", ["report", "--help"]),
        ("validate examples/", ["validate", str(EXAMPLES)]),
        ("replay one log", ["replay", str(EXAMPLES / "snooker-officiating.jsonl")]),
        ("ingest examples/", ["ingest", str(EXAMPLES), "--clock", str(EXAMPLES / "clocks.csv"), "--db", str(work)]),
        ("rules list", ["rules", "list"]),
        ("schema", ["schema"]),
    ]


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def timed(tree: Path, args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of ``python -m cuelog ARGS`` with ``tree`` first on the path (run
    in ``cwd``, outside any tree: ``-m`` puts the working directory first)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cuelog", *args], env=env, cwd=cwd, capture_output=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"cuelog {' '.join(args)} ({tree}) exited {done.returncode}: {done.stderr[-1000:]!r}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def export(rev: str, dest: Path) -> Path:
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    dest.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    # Compiled once here, as the working tree's modules already are, not in the first round.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(dest / "cuelog")], check=True)
    return dest


def summary(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "low": round(min(values), 3), "high": round(max(values), 3)}


def measure(trees: dict[str, Path], rounds: int, scratch: Path) -> dict[str, Any]:
    times: dict[str, dict[str, dict[str, list[float]]]] = {}
    for r in range(rounds):
        for name, tree in trees.items():
            db = scratch / f"{name}-{r}.duckdb"
            for label, args in commands(db):
                wall, cpu = timed(tree, args, scratch)
                entry = times.setdefault(label, {}).setdefault(name, {"wall": [], "cpu": []})
                entry["wall"].append(wall)
                entry["cpu"].append(cpu)
            db.unlink(missing_ok=True)
    return {
        label: {name: {k: summary(v) for k, v in entry.items()} for name, entry in per.items()}
        for label, per in times.items()
    }


def human(doc: dict[str, Any]) -> str:
    lines = [
        f"cuelog start-up, median of {doc['rounds']} (load average {doc['load_before']} before, {doc['load_after']} after)"
    ]
    lines.append(f"  {'command':<22} {'tree wall':>18} {'base wall':>18} {'ratio':>6} {'tree cpu':>8} {'base cpu':>8}")
    for label, per in doc["commands"].items():
        tree, base = per["tree"], per["base"]

        def cell(s: dict[str, float]) -> str:
            return f"{s['median']:.2f} ({s['low']:.2f}-{s['high']:.2f})"

        ratio = base["wall"]["median"] / tree["wall"]["median"]
        lines.append(
            f"  {label:<22} {cell(tree['wall']):>18} {cell(base['wall']):>18} {ratio:>5.2f}x"
            f" {tree['cpu']['median']:>8.2f} {base['cpu']['median']:>8.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="main", help="the revision to compare with (default: main)")
    ap.add_argument("--rounds", type=int, default=3, help="measurements of each command in each tree")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="cuelog-startup-"))
    try:
        trees = {"tree": ROOT, "base": export(args.base, scratch / "base")}
        load_before = load_average()
        figures = measure(trees, args.rounds, scratch)
        doc = {
            "base": args.base,
            "rounds": args.rounds,
            "load_before": load_before,
            "load_after": load_average(),
            "commands": figures,
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    sys.stdout.write((json.dumps(doc, indent=1) if args.json else human(doc)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
