"""A command timed from outside as a whole process, several runs, alone or in turn with another.

    python benchmarks/timed.py -n 5 -- cuelog report breaks --db season.duckdb
    python benchmarks/timed.py -n 5 --before 'cp season.duckdb run.duckdb' -- cuelog replay --db run.duckdb
    python benchmarks/timed.py -n 6 --vs 'cuelog replay --db run.duckdb --workers 1' \\
        --before 'cp season.duckdb run.duckdb' -- cuelog replay --db run.duckdb --workers 2

Each run is timed from just before the command starts to just after it is reaped: its
start-up and set-up included. The CPU is user and system time of the command and of every
process it waited for, and the peak the largest resident set among them (both from
``os.wait4``, the operating system's own accounting). ``--before`` runs a shell command
before each run, untimed (a fresh copy of a store, say). ``--warmup`` runs are not counted.
With ``--vs`` the two commands run in turn, A B B A A B ... (the order alternates from pair
to pair), and the ratio A/B is taken pair by pair: the machine's speed drifts, and a ratio of
a pair is steadier than a ratio of medians. Prints min, median and max of each figure; the
median is the one to quote. What the commands print is thrown away. Never assert the
figures in tests.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


@dataclasses.dataclass(frozen=True)
class Run:
    """One run of a command: wall and CPU seconds, the largest process's peak in MiB, its
    exit code and the end of what it wrote on stderr."""

    wall_s: float
    cpu_s: float
    peak_mib: float
    exit: int
    stderr: str


def run_once(argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None) -> Run:
    """``argv`` run once, its output thrown away, timed as a whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env) if env is not None else None,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    with proc.stderr:
        err = proc.stderr.read()
    # os.wait4, not Popen.wait: it gives the command's resource use, the processes it waited
    # for included (ru_maxrss then the largest of them).
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    return Run(
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        peak_mib=usage.ru_maxrss / 1024,
        exit=proc.returncode,
        stderr=err.decode(errors="replace")[-2000:],
    )


FIGURES = ("wall_s", "cpu_s", "peak_mib")


def spread(values: Sequence[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def series(
    commands: Mapping[str, Sequence[str]], runs: int, warmup: int = 1, before: str | None = None
) -> dict[str, list[Run]]:
    """Each command run ``runs`` times after ``warmup`` uncounted runs; two commands in turn,
    the order alternating from pair to pair."""
    names = list(commands)
    out: dict[str, list[Run]] = {name: [] for name in names}
    for i in range(warmup + runs):
        for name in names if i % 2 == 0 else names[::-1]:
            if before:
                subprocess.run(before, shell=True, check=True)
            run = run_once(commands[name])
            if i >= warmup:
                out[name].append(run)
    return out


def summary(runs: Mapping[str, Sequence[Run]]) -> dict[str, Any]:
    """Each command's figures as min, median and max; with two, A/B pair by pair too."""
    doc: dict[str, Any] = {
        name: {key: spread([getattr(r, key) for r in rs]) for key in FIGURES} for name, rs in runs.items()
    }
    if len(runs) == 2:
        a, b = runs.values()
        doc["a_over_b"] = {}
        for key in FIGURES:
            ratios = [getattr(x, key) / getattr(y, key) for x, y in zip(a, b, strict=True)]
            doc["a_over_b"][key] = {**spread(ratios), "pairs": ratios}
    return doc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--runs", type=int, default=5, help="counted runs of each command (default 5)")
    ap.add_argument("--warmup", type=int, default=1, help="uncounted runs first (default 1)")
    ap.add_argument("--vs", help="a second command (B), one string split as a shell splits words")
    ap.add_argument("--before", help="a shell command run before each run, untimed")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command (A), after --")
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or args.runs < 1:
        ap.error("give a command after -- and at least one run")
    commands = {"A": command, **({"B": shlex.split(args.vs)} if args.vs else {})}
    runs = series(commands, args.runs, args.warmup, args.before)
    failed = [(name, r) for name, rs in runs.items() for r in rs if r.exit not in (0, 1)]
    doc = {
        "commands": {name: shlex.join(argv) for name, argv in commands.items()},
        "load_average": os.getloadavg(),
        "runs": {name: [dataclasses.asdict(r) for r in rs] for name, rs in runs.items()},
        "summary": summary(runs),
    }
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        for name, text in doc["commands"].items():
            print(f"{name}: {text}")
            for key in FIGURES:
                s = doc["summary"][name][key]
                print(f"  {key:<9} median {s['median']:9.3f}  (min {s['min']:.3f}, max {s['max']:.3f})")
        if "a_over_b" in doc["summary"]:
            for key in FIGURES:
                s = doc["summary"]["a_over_b"][key]
                print(f"A/B {key:<9} median {s['median']:.3f}  (pairs {', '.join(f'{r:.3f}' for r in s['pairs'])})")
        print(f"load average after: {', '.join(f'{x:.2f}' for x in doc['load_average'])}")
    for name, r in failed:
        print(f"{name} exited with {r.exit}: {r.stderr}", file=sys.stderr)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
