"""Peak memory of ingesting a season of one-match logs (no shot clocks) at several sizes, for two revisions.

(`ingest_memory.py` measures one large file instead.)

    python benchmarks/ingest_season_memory.py --sizes 100000,1000000 --base main

A season of one-match files (``cuelog.simulate``: snooker and billiards, officiating
errors at 2%) is simulated once and copied under new match ids up to each size (records,
not strokes). Each measurement runs ``ingest_paths`` over the logs (no shot clocks) in a
fresh process on a fresh database and reports its peak resident set, the resident set
before the first file (Python, DuckDB, pyarrow imported), CPU seconds, and what DuckDB
holds at the end by its own count (``duckdb_memory()``, by tag). ``--memory-limit`` sets
DuckDB's ``memory_limit`` first, to tell DuckDB's buffer pool from the rest.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import ROOT, export, make_logs

CHILD = """
import json, os, resource, sys, time
sys.path.insert(0, sys.argv[1])
from cuelog.ingest.load import ingest_paths
from cuelog.store import connect

con = connect(sys.argv[3])
if sys.argv[4]:
    con.execute(f"SET memory_limit = '{sys.argv[4]}'")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
c0 = time.process_time()
files = ingest_paths(con, [sys.argv[2]])
cpu = time.process_time() - c0
assert all(f.status == "loaded" for f in files)
duckdb = dict(con.execute(
    "SELECT tag, memory_usage_bytes / 2^20 FROM duckdb_memory() WHERE memory_usage_bytes > 0"
).fetchall())
print(json.dumps({"records": sum(f.records for f in files), "cpu": cpu, "before_mb": before,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "duckdb_mb": duckdb}))
"""


def copies(logs: Path, dest: Path, size: int) -> int:
    """Copies of the one-match logs under new match ids until ``size`` records; the count."""
    dest.mkdir()
    total, copy = 0, 0
    files = sorted(logs.glob("*.jsonl"))
    while total < size:
        for f in files:
            if total >= size:
                break
            text = f.read_text(encoding="utf-8")
            if copy:
                text = re.sub(r'"match":"([^"]+)"', rf'"match":"\1-c{copy:03d}"', text)
            (dest / f"{copy:03d}-{f.name}").write_text(text, encoding="utf-8")
            total += sum(1 for line in text.splitlines() if line.strip())
        copy += 1
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100000,1000000", help="records, comma-separated")
    ap.add_argument("--base", action="append", default=[], help="git revision to measure too (repeatable)")
    ap.add_argument("--memory-limit", default="", help="DuckDB memory_limit for the load, e.g. 64MB")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuelog-ingest-memory-") as tmp:
        work = Path(tmp)
        trees = {rev: export(rev, work / f"base{i}") for i, rev in enumerate(args.base)}
        trees["working tree"] = ROOT
        make_logs(work, 100, 50, 1)
        script = work / "child.py"
        script.write_text(CHILD, encoding="utf-8")
        for size in (int(s) for s in args.sizes.split(",")):
            logs = work / f"logs-{size}"
            copies(work / "logs", logs, size)
            for name, tree in trees.items():
                db = work / f"{size}-{len(name)}.duckdb"
                cmd = [sys.executable, str(script), str(tree), str(logs), str(db), args.memory_limit]
                out = subprocess.run(cmd, capture_output=True, text=True, cwd=tree)
                if out.returncode != 0:
                    sys.exit(f"{name}: {out.stderr}")
                r = json.loads(out.stdout.strip().splitlines()[-1])
                tags = ", ".join(f"{k} {v:.0f}" for k, v in sorted(r["duckdb_mb"].items()))
                print(
                    f"{r['records']:>9,} records  {name[:12]:<12}  peak {r['peak_mb']:4.0f} MB"
                    f" (before the first file {r['before_mb']:.0f})  {r['records'] / r['cpu']:>8,.0f} records/CPU s"
                    f"  DuckDB at the end: {tags} MB"
                )
                db.unlink(missing_ok=True)
                Path(str(db) + ".wal").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
