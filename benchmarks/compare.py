"""Ingest and ``replay --db`` speed of two revisions, measured back to back on the same logs.

    python benchmarks/compare.py                      # the working tree against main
    python benchmarks/compare.py --base HEAD~3 --rounds 5 --snooker 100 --billiards 50

On a shared machine absolute rates drift with the load from minute to minute; a ratio of
runs taken alternately on the same logs does not. The base revision is exported with
``git archive`` into a temporary directory; each measurement runs in a fresh process with
that tree first on the import path, on a fresh database. The logs are simulated once
(``cuelog.simulate``, officiating errors at 2%) and written ``--matches-per-file`` matches
to a log file, as ``benchmarks/run.py`` does. Ingest is timed as a user runs it: the logs,
then the season's shot-clock device logs (``cuelog ingest LOGS --clock CSV...``); the two
parts are shown apart as well. ``--base`` may be given more than once: every revision is
measured in each round, and the working tree's speed-up over each is shown.
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

ROOT = Path(__file__).resolve().parent.parent

# Run in a child process, with the tree to measure first on sys.path.
CHILD = """
import glob, json, os, sys, time
sys.path.insert(0, sys.argv[1])
try:
    from cuelog.pipeline import replay_db
except ImportError:  # a revision from before the pipeline left cuelog.analytics
    from cuelog.analytics.results import replay_db
from cuelog.ingest.load import ingest_paths
from cuelog.store import connect
try:
    from cuelog.ingest.clock import ingest_clocks
except ImportError:  # a revision from before the stroke times were read once a run
    from cuelog.ingest.clock import ingest_clock

    def ingest_clocks(con, paths):
        return [ingest_clock(con, p) for p in paths]

def tables_digest(con):
    # The loaded records and strokes, in key order: the same logs must give the same tables.
    return con.execute(
        "SELECT md5((SELECT string_agg(CAST(r AS VARCHAR), chr(10) ORDER BY match_id, seq) FROM records r)"
        " || (SELECT string_agg(CAST(s AS VARCHAR), chr(10) ORDER BY match_id, frame, n) FROM strokes s))"
    ).fetchall()[0][0][:16]

def main():
    if os.path.exists(sys.argv[4]):
        os.remove(sys.argv[4])
    con = connect(sys.argv[4])
    c0, t0 = time.process_time(), time.perf_counter()
    files = ingest_paths(con, [sys.argv[2]])
    c1, t1 = time.process_time(), time.perf_counter()
    clocks = ingest_clocks(con, sorted(glob.glob(os.path.join(sys.argv[5], "*.csv"))))
    c2, t2 = time.process_time(), time.perf_counter()
    assert all(f.status == "loaded" for f in files), [f.problems[:3] for f in files]
    assert all(c.status == "loaded" for c in clocks), [c.problems[:3] for c in clocks]
    out = {"rows": sum(f.records for f in files), "ingest_s": t2 - t0, "logs_s": t1 - t0, "clocks_s": t2 - t1,
           "ingest_cpu": c2 - c0, "logs_cpu": c1 - c0, "clocks_cpu": c2 - c1, "aligned": sum(c.aligned for c in clocks)}
    out["tables"] = tables_digest(con)
    if sys.argv[6] == "replay":
        results = replay_db(con, None, int(sys.argv[3]))
        out["replay_db_s"] = time.perf_counter() - t2
        out["strokes"] = sum(len(fr.outcomes) for m in results for fr in m.frames)
    print(json.dumps(out))

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
    clocks = dest / "clocks"
    clocks.mkdir()
    for csv in sorted(season.glob("*/clocks/*.csv")):
        (clocks / csv.name).write_bytes(csv.read_bytes())
    logs = dest / "logs"
    logs.mkdir()
    files = sorted(season.glob("*/logs/*.jsonl"))
    for i in range(0, len(files), per_file):
        text = "".join(f.read_text(encoding="utf-8") for f in files[i : i + per_file])
        (logs / f"{i // per_file:05d}.jsonl").write_text(text, encoding="utf-8")


def measure(tree: Path, script: Path, logs: Path, workers: int, replay: bool) -> dict[str, Any]:
    db, clocks = script.parent / "bench.duckdb", logs.parent / "clocks"
    args = [str(tree), str(logs), str(workers), str(db), str(clocks), "replay" if replay else "-"]
    out = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, cwd=tree)
    if out.returncode != 0:
        sys.exit(f"{tree}: {out.stderr}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def export(rev: str, dest: Path) -> Path:
    """A revision's tree, exported with ``git archive``."""
    dest.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


LABELS = {
    "ingest_s": "ingest, clocks incl. (rows/s)",
    "logs_s": "  the logs (rows/s)",
    "clocks_s": "  the clocks (rows/s)",
    "ingest_cpu": "ingest per CPU second (rows)",
    "logs_cpu": "  the logs (rows/CPU s)",
    "clocks_cpu": "  the clocks (rows/CPU s)",
}
"""Wall time as a user waits for it; CPU time (the process's, every thread) moves less with
the load of a shared machine, and per CPU second is what one core gives."""


def report(runs: dict[str, list[dict[str, Any]]], args: argparse.Namespace, files: int) -> None:
    """Rates (medians of the rounds) and the working tree's speed-up over each base, round by round."""
    tree = runs["working tree"]
    first = tree[0]
    print(f"{first['rows']:,} records in {files} files, {first['aligned']:,} shots aligned, {args.rounds} rounds")
    print(f"load average after the runs: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    digests = {name: {r["tables"] for r in rs} for name, rs in runs.items()}
    print("records and strokes loaded:", ", ".join(f"{name[:12]} {' '.join(sorted(d))}" for name, d in digests.items()))
    keys = [(key, "rows") for key in LABELS]
    if not args.no_replay:
        keys.append(("replay_db_s", "strokes"))
    for base in (name for name in runs if name != "working tree"):
        print(f"{'':32}{base[:12]:>12}{'working tree':>14}{'speed-up':>10}")
        for key, count in keys:
            b = statistics.median(r[key] for r in runs[base])
            t = statistics.median(r[key] for r in tree)
            ratios = [rb[key] / rt[key] for rb, rt in zip(runs[base], tree, strict=True)]
            label = LABELS.get(key, f"replay --db, {args.workers} w (strokes/s)")
            print(
                f"{label:<32}{first[count] / b:>12,.0f}{first[count] / t:>14,.0f}"
                f"{b / t:>9.2f}x  (rounds: {', '.join(f'{r:.2f}' for r in ratios)})"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", action="append", help="git revision to compare against (default main; repeatable)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--snooker", type=int, default=100, help="snooker matches to simulate")
    ap.add_argument("--billiards", type=int, default=50, help="billiards matches to simulate")
    ap.add_argument("--matches-per-file", type=int, default=20)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="replay --db workers")
    ap.add_argument("--no-replay", action="store_true", help="measure ingest only")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuelog-compare-") as tmp:
        work = Path(tmp)
        trees = {rev: export(rev, work / f"base{i}") for i, rev in enumerate(args.base or ["main"])}
        trees["working tree"] = ROOT
        make_logs(work, args.snooker, args.billiards, args.matches_per_file)
        script = work / "child.py"
        script.write_text(CHILD, encoding="utf-8")
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
        for _ in range(args.rounds):
            for name, tree in trees.items():
                runs[name].append(measure(tree, script, work / "logs", args.workers, not args.no_replay))
        report(runs, args, len(list((work / "logs").iterdir())))


if __name__ == "__main__":
    main()
