"""The commands as a user runs them, on a base revision and on the working tree, in one run.

    python benchmarks/then_now.py                                        # against 451d013, a simulated season
    python benchmarks/then_now.py --logs LOGS --clocks CLOCKS --rounds 2 # a season of your own
    python benchmarks/then_now.py --base HEAD~3 --snooker 600 --billiards 300 --rounds 3 --json

Issue 16 asks for ingest at 10 times and ``replay --db`` at 5 times the speed it measured,
in the same run. The base (by default 451d013, the revision that issue measured) is exported
with ``git archive`` and its bytecode compiled before anything is timed. Each round runs,
for each tree in turn (ABBA: the order alternates from round to round), ``cuelog ingest
LOGS --clock CSV... --db NEW`` (the tree's default workers) and then ``cuelog replay --db
NEW --workers W``, each in a fresh process with the tree first on the import path. Each
command is timed from outside: wall clock, CPU (user and system, of the command and every
worker it waited for) and the largest resident set among them (``os.wait4``). Then both
stores are counted (records, strokes, shot-clock rows, replayed strokes): the two trees
must have loaded and replayed the same. Prints each command's figures, the base's time
over the tree's round by round and their medians. Never assert the figures in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import duckdb
from compare import export, make_logs
from timed import run_once

ROOT = Path(__file__).resolve().parent.parent
COUNTS = {
    "records": "SELECT count(*) FROM records",
    "strokes": "SELECT count(*) FROM strokes",
    "shot_clock": "SELECT count(*) FROM shot_clock",
    "replayed": "SELECT count(*) FROM replay_strokes",
}


def timed(tree: Path, args: list[str]) -> dict[str, float]:
    """One ``cuelog`` command run in ``tree``: wall s, CPU s, peak MiB; exit 0 or 1 (findings)."""
    run = run_once([sys.executable, "-m", "cuelog", *args], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)})
    if run.exit not in (0, 1):
        sys.exit(f"{tree}: cuelog {' '.join(args[:1])} exited with {run.exit}: {run.stderr}")
    return {"wall_s": run.wall_s, "cpu_s": run.cpu_s, "peak_mib": run.peak_mib}


def counted(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {name: int(con.execute(sql).fetchall()[0][0]) for name, sql in COUNTS.items()}
    finally:
        con.close()


def run_round(tree: Path, db: Path, logs: Path, clocks: list[Path], workers: int) -> dict[str, Any]:
    if db.exists():
        db.unlink()
    ingest = timed(tree, ["ingest", str(logs), *(a for c in clocks for a in ("--clock", str(c))), "--db", str(db)])
    replay = timed(tree, ["replay", "--db", str(db), "--workers", str(workers)])
    return {"ingest": ingest, "replay_db": replay, "counts": counted(db)}


def summary(runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Per command and figure: each tree's median, and the base's over the tree's per round."""
    out: dict[str, Any] = {}
    for command in ("ingest", "replay_db"):
        for key in ("wall_s", "cpu_s", "peak_mib"):
            base = [r[command][key] for r in runs["base"]]
            tree = [r[command][key] for r in runs["tree"]]
            ratios = [b / t for b, t in zip(base, tree, strict=True)]
            out[f"{command}.{key}"] = {
                "base": statistics.median(base),
                "tree": statistics.median(tree),
                "base_over_tree": statistics.median(ratios),
                "rounds": ratios,
            }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--base", default="451d013", help="git revision to measure against (default: the one issue 16 measured)"
    )
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--logs", type=Path, help="a folder of logs (default: a simulated season of one-match files)")
    ap.add_argument("--clocks", type=Path, help="with --logs: the folder of its shot-clock CSVs")
    ap.add_argument("--snooker", type=int, default=600, help="snooker matches to simulate (without --logs)")
    ap.add_argument("--billiards", type=int, default=300, help="billiards matches to simulate (without --logs)")
    ap.add_argument("--workers", type=int, default=2, help="replay --db workers")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuelog-then-now-") as tmp:
        work = Path(tmp)
        base = export(args.base, work / "base")
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(base / "cuelog")], check=True)
        if args.logs is None:
            make_logs(work, args.snooker, args.billiards, 1)
            logs, clock_dir = work / "logs", work / "clocks"
        else:
            logs, clock_dir = args.logs, args.clocks
        clocks = sorted(clock_dir.glob("*.csv")) if clock_dir is not None else []
        trees = {"base": base, "tree": ROOT}
        runs: dict[str, list[dict[str, Any]]] = {"base": [], "tree": []}
        for i in range(args.rounds):
            for name in ("base", "tree") if i % 2 == 0 else ("tree", "base"):
                runs[name].append(run_round(trees[name], work / f"{name}.duckdb", logs, clocks, args.workers))
        counts = {name: [r["counts"] for r in rs] for name, rs in runs.items()}
        same = all(c == counts["base"][0] for rs in counts.values() for c in rs)
        doc = {
            "base": args.base,
            "files": sum(1 for p in logs.rglob("*") if p.is_file()),
            "clock_logs": len(clocks),
            "counts": counts["tree"][0],
            "same_counts": same,
            "rounds": args.rounds,
            "workers": args.workers,
            "load_average": os.getloadavg(),
            "runs": runs,
            "summary": summary(runs),
        }
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        print(
            f"{doc['counts']['records']:,} records in {doc['files']} files, {len(clocks)} clock logs; "
            f"{args.rounds} rounds; load average after: {', '.join(f'{x:.1f}' for x in doc['load_average'])}"
        )
        print("both trees loaded and replayed the same" if same else f"COUNTS DIFFER: {counts}")
        print(f"{'':22}{args.base[:12]:>12}{'working tree':>14}{'base / tree':>12}")
        for key, s in doc["summary"].items():
            print(
                f"{key:<22}{s['base']:>12.2f}{s['tree']:>14.2f}{s['base_over_tree']:>11.2f}x"
                f"  (rounds: {', '.join(f'{r:.2f}' for r in s['rounds'])})"
            )
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
