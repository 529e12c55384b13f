"""``replay --db`` end to end (read, decode, engine, result rows, writes): a base revision
against the working tree, on copies of one loaded database, alternately.

    python benchmarks/replay_db.py --db season.duckdb                  # main vs the working tree
    python benchmarks/replay_db.py --db season.duckdb --base HEAD~2 --workers 1,2 --rounds 3
    python benchmarks/replay_db.py --db season.duckdb --base HEAD~1 --tree HEAD   # one commit

Each measurement runs ``stream_db`` (what ``cuelog replay --db`` runs) in a fresh process,
with the tree to measure first on the import path, on a fresh copy of the database. It
prints strokes per second, CPU seconds of the parent, the peak resident memory of the
parent and of its largest worker, and a digest of every stored replay table and of the
report summaries: the two trees must store the same rows. Ratios are taken round by round
(the working tree over the base run just before it): on a shared machine they mean more
than either rate.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from cuelog.pipeline import stream_db
from cuelog.store import connect

TABLES = ("replay_frames", "replay_strokes", "replay_breaks", "replay_findings", "replay_corrections",
          "replay_stroke_details", "summary_sides", "summary_shots", "summary_push_outs")

def digest(con):
    # Every stored row in a fixed order, lists as stored: the same replay must store the same bytes.
    parts = " || ".join(
        f"coalesce((SELECT string_agg(CAST(t AS VARCHAR), chr(10) ORDER BY CAST(t AS VARCHAR)) FROM {name} t), '')"
        for name in TABLES
    )
    return con.execute(f"SELECT md5({parts})").fetchall()[0][0][:16]

con = connect(sys.argv[2])
c0, t0 = time.process_time(), time.perf_counter()
done = stream_db(con, None, int(sys.argv[3]))
seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
out = {"strokes": done.strokes, "seconds": seconds, "cpu": cpu, "cpu_all": cpu + kids.ru_utime + kids.ru_stime,
       "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
       "worker_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}
out["digest"] = digest(con)
con.close()
print(json.dumps(out))
"""


def export(rev: str, into: Path) -> Path:
    """The tree of ``rev`` (``git archive``), for its ``cuelog`` package to be imported first."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "cuelog"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def measure(tree: Path, db: Path, workers: int, scratch: Path) -> dict[str, Any]:
    copy = scratch / "replay.duckdb"
    shutil.copy(db, copy)
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(tree), str(copy), str(workers)],
            check=False,
            capture_output=True,
            text=True,
        )
    finally:
        copy.unlink(missing_ok=True)
    if done.returncode:
        raise SystemExit(f"{tree}: {done.stderr}")
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def spread(values: list[float], digits: int = 0) -> str:
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}-{max(values):,.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, required=True, help="a loaded cuelog database (it is copied, never changed)")
    parser.add_argument("--base", default="main", help="the revision to compare with (default: main)")
    parser.add_argument("--tree", help="a revision to measure instead of the working tree")
    parser.add_argument("--workers", default="1,2", help="worker counts to measure, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    opts = parser.parse_args()
    counts = [int(w) for w in opts.workers.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        tree = export(opts.tree, scratch / "tree") if opts.tree else ROOT
        trees = {"base": export(opts.base, scratch / "base"), "tree": tree}
        runs: dict[tuple[str, int], list[dict[str, Any]]] = {(t, w): [] for t in trees for w in counts}
        for _ in range(opts.rounds):
            for w in counts:
                for name, tree in trees.items():
                    runs[(name, w)].append(measure(tree, opts.db, w, scratch))
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores, "
              f"{opts.rounds} rounds, base {opts.base}")  # fmt: skip
        for (name, w), rs in runs.items():
            rates = [r["strokes"] / r["seconds"] for r in rs]
            line = (
                f"{name:4} {w} worker(s): {spread(rates)} strokes/s, cpu s parent {spread([r['cpu'] for r in rs], 2)} "
                f"all {spread([r['cpu_all'] for r in rs], 2)}, "
                f"peak MB parent {spread([r['rss_mb'] for r in rs])} worker {spread([r['worker_rss_mb'] for r in rs])}"
            )
            print(line, f"strokes {rs[0]['strokes']} digest {sorted({r['digest'] for r in rs})}")
        for w in counts:
            ratios = [b["seconds"] / t["seconds"] for b, t in zip(runs[("base", w)], runs[("tree", w)], strict=True)]
            cpu = [b["cpu_all"] / t["cpu_all"] for b, t in zip(runs[("base", w)], runs[("tree", w)], strict=True)]
            print(f"speed-up, {w} worker(s), tree over base: wall {spread(ratios, 2)}, cpu {spread(cpu, 2)}")


if __name__ == "__main__":
    main()
