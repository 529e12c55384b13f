"""A replay worker's own work, as ``cuelog replay --db`` has its workers do it, in one process.

    python benchmarks/replay_worker.py --db season.duckdb                      # the working tree
    python benchmarks/replay_worker.py --db season.duckdb --base HEAD~1 --rounds 4
    taskset -c 1 python benchmarks/replay_worker.py --db season.duckdb --matches 32 --every 2 --json

The parts a replay hands its workers (``--matches`` matches each) are read from the store
first, untimed; then ``pipeline._replay_chunk`` takes every ``--every``-th one as a worker
does (the records decoded, the engines, the result rows and the report summaries' side
rows, the outcomes dropped) and its tables are packed as Arrow IPC, as a worker sends them
back. The first ``--warmup`` parts are not counted; the rest is timed by the process's CPU
time, as nanoseconds a record. Each measurement is a fresh process with the tree to measure
first on the import path.

With ``--base`` (a git revision or a directory) the two trees take turns, a fresh process
each, round by round, and each round's ratio tree / base is printed with their median and
spread (below 1: the tree is quicker): on a shared machine the ratio of runs taken back to
back means more than either figure. Both trees get the same parts, so only the worker's
code is compared; a digest of every part's tables says whether both gave the same rows.
The store is only read. The command's own process (reading the store, writing the
results) is not in it: ``benchmarks/timed.py`` times the command as a whole.

Timings are never asserted in tests.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from turns import add_options, in_turn, report, run_child

# Run in a child process, with the tree to measure first on sys.path.
CHILD = r"""
import gc, hashlib, json, sys, time
tree, db, matches, every, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, tree)
import duckdb
from cuelog import pipeline
from cuelog.store.arrow import packed
from cuelog.store.reads import listed_matches, stored_chunks

assert pipeline.__file__.startswith(tree), pipeline.__file__
con = duckdb.connect(db, read_only=True)
try:
    parts = list(stored_chunks(con, listed_matches(con, None), chunk=matches))[::every]
finally:
    con.close()
digest = hashlib.sha256()
for part in parts[:warmup]:
    pipeline._replay_chunk(part, None, True, True, None)
timed = parts[warmup:]
records = sum(part.records for part in timed)
outputs = []
start = time.process_time()
for part in timed:
    _, tables, strokes = pipeline._replay_chunk(part, None, True, True, None)
    outputs.append(packed(tables) if tables is not None else {})
cpu = time.process_time() - start
for out in outputs:
    for name in sorted(out):
        digest.update(name.encode())
        digest.update(out[name])
print(json.dumps({"parts": len(timed), "records": records, "cpu_s": cpu, "digest": digest.hexdigest()}))
"""


def measure(tree: Path, db: Path, matches: int, every: int, warmup: int) -> dict[str, Any]:
    return run_child(CHILD, tree, db, matches, every, warmup)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, required=True, help="a store ingest has loaded (only read)")
    ap.add_argument("--matches", type=int, default=32, help="matches a part, as a replay's workers get them")
    ap.add_argument("--every", type=int, default=1, help="take every n-th part of the store")
    ap.add_argument("--warmup", type=int, default=10, help="parts replayed first and not counted")
    add_options(ap)
    args = ap.parse_args()
    if not args.db.exists():
        sys.exit(f"error: no store at {args.db}")
    db = args.db.resolve()
    runs = in_turn(
        args.tree, args.base, args.rounds, lambda tree: measure(tree, db, args.matches, args.every, args.warmup)
    )
    first = runs["tree"][0]
    head = {"db": str(args.db), "matches_a_part": args.matches, "parts": first["parts"], "records": first["records"]}
    title = "{records:,} records in {parts} parts of {matches_a_part} matches, {rounds} rounds (CPU time)"
    report(head, runs, args, title)


if __name__ == "__main__":
    main()
