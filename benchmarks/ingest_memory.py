"""Time and peak memory of `ingest_file` on generated logs of growing size.

Each size runs in a fresh process (peak RSS is per process), on a fresh database:

    python benchmarks/ingest_memory.py                 # 10, 50 and 100 MB
    python benchmarks/ingest_memory.py --mb 5 20

What it shows: the Python side holds one batch at a time, so a file twice the size
should cost about twice the time but not twice the memory.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(mb: int, workdir: Path) -> dict[str, float]:
    sys.path.insert(0, str(ROOT))
    from cuelog.ingest.load import ingest_file
    from cuelog.store import connect
    from tests.ingest.bigfile import write_big_log

    log = workdir / f"log-{mb}.jsonl"
    write_big_log(log, mb * 1_000_000)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    con = connect(workdir / f"db-{mb}.duckdb")
    start = time.perf_counter()
    result = ingest_file(con, log)
    seconds = time.perf_counter() - start
    assert result.status == "loaded", result.problems
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"mb": mb, "records": result.records, "seconds": seconds, "base_rss_mb": base, "peak_rss_mb": peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, nargs="*", default=[10, 50, 100], help="log sizes in MB")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one, args.dir)))
        return
    print(f"{'MB':>5}{'records':>10}{'seconds':>9}{'records/s':>11}{'RSS before':>12}{'RSS peak':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for mb in args.mb:
            out = subprocess.run(
                [sys.executable, __file__, "--one", str(mb), "--dir", tmp],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
            r = json.loads(out.stdout)
            print(
                f"{r['mb']:>5}{r['records']:>10,}{r['seconds']:>9.1f}{r['records'] / r['seconds']:>11,.0f}"
                f"{r['base_rss_mb']:>10.0f}MB{r['peak_rss_mb']:>8.0f}MB"
            )


if __name__ == "__main__":
    main()
