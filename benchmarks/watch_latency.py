"""Latency of `cuelog watch`: from a line appended to the log to its finding printed.

Run: ``python benchmarks/watch_latency.py [--rounds 3] [--pause 0.03] [--json]``.

A simulated snooker match with officiating errors (10% of strokes) is appended to a log
line by line, ``--pause`` seconds apart, while a subprocess follows it. The time of each
append and of each output line's arrival are both read in this process (one monotonic
clock), so a latency includes the poll, the replay, the print and the pipe. Two subjects,
alternately, in the same run:

* **floor**: the follower alone (``cuelog.live.follow.Follower`` at the watch's poll
  interval) printing each line's number: the least any live watch could cost;
* **watch**: ``cuelog watch LOG --json --due``: every stroke's due call, and each finding.

Prints the median, the 95th percentile and the largest latency per subject and round,
and the ratio of the watch's p95 to the floor's. The goal is a p95 under 50 ms for
findings. Never asserted in tests: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

FLOOR = """
import sys, time
from cuelog.live.follow import Follower, Line
from cuelog.live.run import POLL_S
f = Follower(sys.argv[1])
while True:
    items = f.poll()
    for i in items:
        event = "line" if isinstance(i, Line) else "notice"
        sys.stdout.write('{"event": "%s", "line": %d}\\n' % (event, getattr(i, "number", 0)))
        sys.stdout.flush()
    if not items:
        time.sleep(POLL_S)
"""


def simulate(root: Path, seed: int, best_of: int) -> Path:
    subprocess.run(
        [
            *(sys.executable, "-m", "cuelog", "simulate", "--rules", "snooker/wpbsa-2024", "--matches", "1"),
            *("--seed", str(seed), "--out", str(root), "--errors", "0.1", "--best-of", str(best_of), "--reds", "15"),
        ],
        check=True,
        capture_output=True,
        env=ENV,
    )
    return next((root / "logs").glob("*.jsonl"))


def measure(command: list[str], lines: list[bytes], log: Path, pause: float) -> dict[str, list[float]]:
    """Append ``lines`` to ``log`` while ``command`` follows it; latency (ms) per output event kind."""
    log.unlink(missing_ok=True)
    proc = subprocess.Popen([*command, str(log)], stdout=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdout is not None
    appended: dict[int, float] = {}
    arrivals: list[tuple[float, dict[str, Any]]] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            arrivals.append((time.monotonic(), json.loads(raw)))
            ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # The subprocess's start-up is not what is measured: it says the log is missing once it polls.
    if not ready.wait(timeout=120):
        raise RuntimeError(f"{command} printed nothing")
    time.sleep(0.2)
    with log.open("ab", buffering=0) as fh:
        for number, line in enumerate(lines, start=1):
            fh.write(line)
            appended[number] = time.monotonic()
            time.sleep(pause)
    time.sleep(0.5)
    proc.terminate()
    proc.wait(timeout=30)
    reader.join(timeout=10)
    out: dict[str, list[float]] = {}
    seen: set[tuple[str, int]] = set()
    for at, event in arrivals:
        kind, line = event.get("event", ""), event.get("line")
        if not isinstance(line, int) or line not in appended or (kind, line) in seen:
            continue
        seen.add((kind, line))
        out.setdefault(kind, []).append((at - appended[line]) * 1000)
    return out


def figures(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return {
        "n": len(ms),
        "p50_ms": round(statistics.median(ms), 2),
        "p95_ms": round(p95, 2),
        "max_ms": round(ms[-1], 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pause", type=float, default=0.03, help="seconds between two appended lines")
    ap.add_argument("--best-of", type=int, default=7, help="frames in the simulated match")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = simulate(Path(tmp) / "sim", args.seed, args.best_of)
        lines = source.read_bytes().splitlines(keepends=True)
        subjects = {
            "floor": [sys.executable, "-c", FLOOR],
            "watch": [sys.executable, "-m", "cuelog", "watch", "--json", "--due"],
        }
        rounds: list[dict[str, dict[str, dict[str, float]]]] = []
        pooled: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            row: dict[str, dict[str, dict[str, float]]] = {}
            for name, command in subjects.items():
                got = measure(command, lines, Path(tmp) / f"{name}.jsonl", args.pause)
                row[name] = {kind: figures(ms) for kind, ms in sorted(got.items())}
                for kind, ms in got.items():
                    pooled.setdefault(f"{name} {kind}", []).extend(ms)
            rounds.append(row)
    report = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()[0]},
        "lines": len(lines),
        "pause_s": args.pause,
        "rounds": rounds,
        "pooled": {key: figures(ms) for key, ms in sorted(pooled.items())},
        "finding_p95_ms": [r["watch"].get("finding", {}).get("p95_ms") for r in rounds],
        "ratio_p95_due_to_floor": [
            round(r["watch"]["due"]["p95_ms"] / max(r["floor"]["line"]["p95_ms"], 1e-3), 2) for r in rounds
        ],
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(
        f"{len(lines)} lines appended {args.pause * 1000:.0f} ms apart; {os.cpu_count()} cores, load {report['machine']['load']:.1f}"
    )
    for i, r in enumerate(rounds, start=1):
        for name, kinds in r.items():
            for kind, f in kinds.items():
                print(
                    f"round {i}  {name:5} {kind:8} n={f['n']:4}  p50 {f['p50_ms']:6.1f} ms  p95 {f['p95_ms']:6.1f} ms  max {f['max_ms']:6.1f} ms"
                )
    for key, f in report["pooled"].items():
        print(
            f"all rounds {key:16} n={f['n']:4}  p50 {f['p50_ms']:6.1f} ms  p95 {f['p95_ms']:6.1f} ms  max {f['max_ms']:6.1f} ms"
        )
    print(f"finding p95 per round (ms): {report['finding_p95_ms']}")
    print(f"watch due p95 / floor p95 per round: {report['ratio_p95_due_to_floor']}")


if __name__ == "__main__":
    main()
