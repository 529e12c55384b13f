"""An ingest worker's own work, as ``cuelog ingest`` has its workers do it, in one process.

    python benchmarks/ingest_worker.py --logs LOGS --files 2000                 # the working tree
    python benchmarks/ingest_worker.py --logs LOGS --files 2000 --base HEAD~1 --rounds 4
    taskset -c 1 python benchmarks/ingest_worker.py --logs LOGS --json

The first ``--files`` small logs of a folder (by name) are read first, untimed, and cut into
the batches a run hands its workers (``cuelog.ingest.parallel.BATCH_BYTES`` of logs each,
in order). Then each batch goes through ``parallel.check_batch`` as a worker takes it (each
log read, checked and decoded, its rows made Arrow columns) and its result is pickled as a
worker sends it back (the tables as Arrow IPC). The first ``--warmup`` batches are not
counted; the rest is timed by the process's CPU time, as nanoseconds a record. Each
measurement is a fresh process with the tree to measure first on the import path.

With ``--base`` (a git revision or a directory) the two trees take turns, a fresh process
each, round by round, and each round's ratio tree / base is printed with their median and
spread (below 1: the tree is quicker): on a shared machine the ratio of runs taken back to
back means more than either figure. Both trees get the same batches, so only the worker's
code is compared; a digest of every batch's rows (each table's content, however a tree cuts
it into chunks) and of each log's counts and problems says whether both found the same.
The loading process (hashing, deciding, publishing, the shot clocks) is not in it:
``benchmarks/timed.py`` times the command as a whole, and ``benchmarks/ingest_check.py``
times a worker's steps one by one.

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
import hashlib, json, pickle, sys, time
from pathlib import Path
tree, logs, files, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, tree)
import pyarrow as pa
from cuelog.ingest import parallel

assert parallel.__file__.startswith(tree), parallel.__file__
paths = sorted(p for p in Path(logs).iterdir() if p.name.endswith(".jsonl"))[:files]
batches, batch, held = [], [], 0
for p in paths:  # cut as the loading process cuts them (Checker.submit)
    data = p.read_bytes()
    batch.append((str(p), data))
    held += len(data)
    if held >= parallel.BATCH_BYTES:
        batches.append(batch)
        batch, held = [], 0
if batch:
    batches.append(batch)
for b in batches[:warmup]:
    pickle.dumps(parallel.check_batch(b))
timed = batches[warmup:]
sent = []
start = time.process_time()
for b in timed:
    sent.append(pickle.dumps(parallel.check_batch(b)))
cpu = time.process_time() - start
digest, records = hashlib.sha256(), 0
for b, data in zip(timed, sent, strict=True):
    checked = pickle.loads(data)
    for (name, _), (read, counts) in zip(b, checked.reads, strict=True):
        records += counts["records"]
        found = [Path(name).name, read.records, sorted(counts.items()), [m.match for m, _ in read.matches]]
        digest.update(json.dumps([*found, [str(p) for p in read.problems]]).encode())
    for name in sorted(checked.tables):
        table = checked.tables[name].combine_chunks()
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
        digest.update(name.encode())
        digest.update(sink.getvalue().to_pybytes())
print(json.dumps({"batches": len(timed), "files": sum(len(b) for b in timed), "records": records,
                  "cpu_s": cpu, "digest": digest.hexdigest()}))
"""


def measure(tree: Path, logs: Path, files: int, warmup: int) -> dict[str, Any]:
    return run_child(CHILD, tree, logs, files, warmup)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", type=Path, required=True, help="a folder of small logs (one match a file, as simulated)")
    ap.add_argument("--files", type=int, default=2000, help="the first N logs of the folder, by name")
    ap.add_argument("--warmup", type=int, default=2, help="batches checked first and not counted")
    add_options(ap)
    args = ap.parse_args()
    if not args.logs.is_dir():
        sys.exit(f"error: no folder of logs at {args.logs}")
    logs = args.logs.resolve()
    runs = in_turn(args.tree, args.base, args.rounds, lambda tree: measure(tree, logs, args.files, args.warmup))
    first = runs["tree"][0]
    head = {"logs": str(args.logs), **{k: first[k] for k in ("batches", "files", "records")}}
    report(head, runs, args, "{records:,} records in {files:,} logs, {batches} batches, {rounds} rounds (CPU time)")


if __name__ == "__main__":
    main()
