"""Ingest and ``replay --db`` speed of two revisions, measured back to back on the same logs.

    python benchmarks/compare.py                      # the working tree against main
    python benchmarks/compare.py --base HEAD~3 --rounds 5 --snooker 100 --billiards 50

On a shared machine absolute rates drift with the load from minute to minute; a ratio of
runs taken alternately on the same logs does not. The base revision is exported with
``git archive`` into a temporary directory; each measurement runs in a fresh process with
that tree first on the import path, on a fresh database. The logs are simulated once
(``cuelog.simulate``, officiating errors at 2%) and written ``--matches-per-file`` matches
to a log file, as ``benchmarks/run.py`` does.
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

ROOT = Path(__file__).resolve().parent.parent

# Run in a child process, with the tree to measure first on sys.path.
CHILD = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
try:
    from cuelog.pipeline import replay_db
except ImportError:  # a revision from before the pipeline left cuelog.analytics
    from cuelog.analytics.results import replay_db
from cuelog.ingest.load import ingest_paths
from cuelog.store import connect

def main():
    if os.path.exists(sys.argv[4]):
        os.remove(sys.argv[4])
    con = connect(sys.argv[4])
    t0 = time.perf_counter()
    files = ingest_paths(con, [sys.argv[2]])
    t1 = time.perf_counter()
    assert all(f.status == "loaded" for f in files), [f.problems[:3] for f in files]
    results = replay_db(con, None, int(sys.argv[3]))
    t2 = time.perf_counter()
    strokes = sum(len(fr.outcomes) for m in results for fr in m.frames)
    print(json.dumps({"rows": sum(f.records for f in files), "ingest_s": t1 - t0,
                      "strokes": strokes, "replay_db_s": t2 - t1}))

if __name__ == "__main__":
    main()
"""


def make_logs(dest: Path, snooker: int, billiards: int, per_file: int) -> None:
    sys.path.insert(0, str(ROOT))
    from cuelog.simulate import SeasonConfig, simulate_season
    from cuelog.simulate.writer import write_season

    season = dest / "season"
    for cfg, name in (
        (SeasonConfig("snooker/wpbsa-2024", snooker, 2026, 0.02), "snooker"),
        (SeasonConfig("billiards/wpbsa-2024", billiards, 2026, 0.02), "billiards"),
    ):
        write_season(season / name, simulate_season(cfg, workers=os.cpu_count() or 1))
    logs = dest / "logs"
    logs.mkdir()
    files = sorted(season.glob("*/logs/*.jsonl"))
    for i in range(0, len(files), per_file):
        text = "".join(f.read_text(encoding="utf-8") for f in files[i : i + per_file])
        (logs / f"{i // per_file:05d}.jsonl").write_text(text, encoding="utf-8")


def measure(tree: Path, script: Path, logs: Path, workers: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, str(script), str(tree), str(logs), str(workers), str(script.parent / "bench.duckdb")],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="main", help="git revision to compare against (default main)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--snooker", type=int, default=100, help="snooker matches to simulate")
    ap.add_argument("--billiards", type=int, default=50, help="billiards matches to simulate")
    ap.add_argument("--matches-per-file", type=int, default=20)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="replay --db workers")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuelog-compare-") as tmp:
        work = Path(tmp)
        base = work / "base"
        base.mkdir()
        archive = subprocess.run(["git", "archive", args.base], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        make_logs(work, args.snooker, args.billiards, args.matches_per_file)
        script = work / "child.py"
        script.write_text(CHILD, encoding="utf-8")
        runs: dict[str, list[dict[str, float]]] = {"base": [], "tree": []}
        for _ in range(args.rounds):
            for name, tree in (("base", base), ("tree", ROOT)):
                runs[name].append(measure(tree, script, work / "logs", args.workers))
        first = runs["base"][0]
        print(f"{first['rows']:,} records ({first['strokes']:,} strokes), {args.rounds} rounds, load {os.getloadavg()}")
        print(f"{'':28}{args.base:>12}{'working tree':>14}{'speed-up':>10}")
        for key, unit, count in (("ingest_s", "rows/s", "rows"), ("replay_db_s", "strokes/s", "strokes")):
            b = statistics.median(r[key] for r in runs["base"])
            t = statistics.median(r[key] for r in runs["tree"])
            ratios = [rb[key] / rt[key] for rb, rt in zip(runs["base"], runs["tree"], strict=True)]
            label = f"ingest ({unit})" if key == "ingest_s" else f"replay --db, {args.workers} w ({unit})"
            print(
                f"{label:<28}{first[count] / b:>12,.0f}{first[count] / t:>14,.0f}"
                f"{b / t:>9.2f}x  (rounds: {', '.join(f'{r:.2f}' for r in ratios)})"
            )


if __name__ == "__main__":
    main()
