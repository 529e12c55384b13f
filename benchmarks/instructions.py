"""The instructions a command costs, counted by valgrind's callgrind, against a revision.

    python benchmarks/instructions.py --base HEAD~1                      # replay --db, 100k strokes
    python benchmarks/instructions.py --base HEAD~1 --command ingest --strokes 50000
    python benchmarks/instructions.py --command replay-logs --workers 1 --json

Timed runs on a shared machine drift by a fifth within the hour, and pairs of them cannot
show a change of a few percent. A count of the instructions the processes ran comes out the
same to within a fraction of a percent run after run, so a change that saves work shows as
a ratio however busy the machine is. It is not a time: a cache miss, a page fault or a
wait counts nothing, and under valgrind a command runs some fifty times slower. So it
tells how much less work a change does; the timed benchmarks tell what a user waits.

Each tree (the working tree; with ``--base`` a revision exported beside it) runs the
command as a user runs it on the same simulated season (the benchmark's mix, one match a
file): ``cuelog replay --db`` on a copy of a store the working tree loaded once,
``cuelog replay LOGS``, or ``cuelog ingest LOGS`` into a new store. Every process (the
command's, the fork server, the workers) and every thread is counted
(``--trace-children=yes``). Prints each run's instructions by process and in all, and with
``--base`` the ratio tree / base of each round. Needs valgrind (Debian: ``apt install
valgrind``). Never assert the figures in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine import checkout, make_logs

ROOT = Path(__file__).resolve().parent.parent

COLLECTED = re.compile(r"^==(\d+)== Collected : (\d+)$", re.MULTILINE)
"""callgrind's last line for each process it followed: its pid and the instructions it ran."""


def command(kind: str, logs: Path, store: Path, work: Path, workers: int) -> list[str]:
    """The command line of ``kind`` as a user runs it, in ``work``."""
    cuelog = [sys.executable, "-m", "cuelog"]
    if kind == "replay-db":
        copy = work / "replayed.duckdb"
        shutil.copyfile(store, copy)
        return [*cuelog, "replay", "--db", str(copy), "--workers", str(workers)]
    if kind == "replay-logs":
        return [*cuelog, "replay", str(logs), "--workers", str(workers), "--json"]
    return [*cuelog, "ingest", str(logs), "--db", str(work / "ingested.duckdb"), "--workers", str(workers)]


def count(kind: str, tree: Path, logs: Path, store: Path, workers: int) -> dict[str, Any]:
    """One run of the command under callgrind: the instructions of each process, in pid
    order (usually the command's own first: pids can wrap), and their sum."""
    with tempfile.TemporaryDirectory(prefix="cuelog-instr-") as tmp:
        work = Path(tmp)
        argv = command(kind, logs, store, work, workers)
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--trace-children=yes",
                f"--callgrind-out-file={work}/callgrind.%p",
                *argv,
            ],
            cwd=work,
            env={**os.environ, "PYTHONPATH": str(tree)},  # the tree measured first on the path
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    # 1: the replay found something to report (a finding), as a user's season has.
    if run.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} under valgrind ended with {run.returncode}:\n{run.stderr[-2000:]}")
    processes = sorted((int(pid), int(n)) for pid, n in COLLECTED.findall(run.stderr))
    if not processes:
        raise SystemExit("valgrind reported no process (is it callgrind's output?):\n" + run.stderr[-2000:])
    by_process = [n for _, n in processes]
    return {"processes": by_process, "instructions": sum(by_process)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--command", choices=("replay-db", "replay-logs", "ingest"), default="replay-db")
    parser.add_argument("--strokes", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--base", help="a git revision (or a directory) to count against the working tree")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tree, in turn")
    parser.add_argument("--logs", type=Path, help="a folder of logs to use instead of a simulated season")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("benchmarks/instructions.py needs valgrind (Debian: apt install valgrind)", file=sys.stderr)
        raise SystemExit(2)
    with tempfile.TemporaryDirectory(prefix="cuelog-instr-") as tmp:
        place = Path(tmp)
        logs = args.logs
        if logs is None:
            make_logs(place, args.strokes, per_file=1)
            logs = place / "logs"
        store = place / "season.duckdb"
        if args.command == "replay-db":
            subprocess.run(
                [sys.executable, "-m", "cuelog", "ingest", str(logs), "--db", str(store)],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                check=True,
            )
        trees = {"tree": ROOT}
        if args.base:
            trees = {"base": checkout(args.base, place / "base"), **trees}
        for tree in trees.values():
            # Each tree's modules as bytecode: with PYTHONDONTWRITEBYTECODE set, a tree without
            # its __pycache__ would compile them at every start, counted against it.
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "cuelog")], check=True)
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
        for _ in range(args.rounds):
            for name, tree in trees.items():
                runs[name].append(count(args.command, tree, logs, store, args.workers))
    doc: dict[str, Any] = {"command": args.command, "logs": str(args.logs or "simulated"), "workers": args.workers}
    doc["strokes"] = args.strokes if args.logs is None else None
    doc["runs"] = runs
    if args.base:
        ratios = [t["instructions"] / b["instructions"] for b, t in zip(runs["base"], runs["tree"], strict=True)]
        doc["tree_over_base"] = {"median": statistics.median(ratios), "rounds": ratios}
    if args.json:
        print(json.dumps(doc, indent=1))
        return
    print(f"cuelog {args.command}, {args.workers} worker(s), {doc['logs']}; instructions (callgrind), every process")
    for name, done in runs.items():
        for run in done:
            parts = ", ".join(f"{n / 1e9:.3f}" for n in run["processes"])
            print(f"  {name:5} {run['instructions'] / 1e9:8.3f} G   by process (pid order): {parts}")
    if args.base:
        r = doc["tree_over_base"]
        print(f"  tree / base: {r['median']:.3f}x (rounds: {', '.join(f'{x:.3f}' for x in r['rounds'])})")


if __name__ == "__main__":
    main()
