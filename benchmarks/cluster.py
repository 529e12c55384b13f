"""The replay on a local Dask cluster against the in-process replay, in the same run.

    python benchmarks/cluster.py [--strokes 100000] [--rounds 3] [--partitions 8,64] [--json]

Simulates a season (70% snooker, 30% English billiards, officiating errors at 2%), loads it
into a DuckDB file and exports it as a Parquet dataset, then times, each ``--rounds`` times
(medians with min-max spread):

- floors, in this process: ``replay --db`` with one worker (the database pipeline), and
  every partition's task run one after the other (the same reading, replay and Parquet
  writing as on the cluster, without Dask);
- ``replay --parquet`` on a local cluster of 1 and of 2 worker processes (one thread each),
  with the cluster already started (its start-up is reported apart);
- the overhead per partition: the 2-worker run at the largest partition count minus the
  run at the smallest, divided by the extra partitions;
- the rule makers' diff under a draft (minimum penalty five): ``cuelog diff --db`` with one
  worker in this process against ``cuelog diff --dataset`` on the 2-worker cluster at the
  smallest partition count (its ratio is to the in-process diff).

Ratios are against the in-process partition floor of the same run. Timings are wall clock
on whatever else the machine is doing: never assert them in tests.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cuelog.diff import diff_db  # noqa: E402
from cuelog.distributed.driver import diff_parquet, replay_parquet  # noqa: E402
from cuelog.distributed.export import export_db  # noqa: E402
from cuelog.distributed.layout import Storage, partitions_present  # noqa: E402
from cuelog.distributed.task import replay_partition  # noqa: E402
from cuelog.ingest.load import ingest_paths  # noqa: E402
from cuelog.pipeline import replay_db  # noqa: E402
from cuelog.replay.derived import Derived  # noqa: E402
from cuelog.simulate import SeasonConfig, simulate_season  # noqa: E402
from cuelog.simulate.writer import write_season  # noqa: E402
from cuelog.store import connect  # noqa: E402

SEED = 2026
DRAFT = Derived("bench-draft", "snooker/wpbsa-2024", (("minimum", 5),))


def spread(times: list[float]) -> dict[str, float]:
    """Median and spread of timings, in seconds."""
    return {
        "median_s": round(statistics.median(times), 4),
        "min_s": round(min(times), 4),
        "max_s": round(max(times), 4),
    }


def build(root: Path, strokes: int, partitions: list[int]) -> tuple[Path, dict[int, str], int]:
    """The season in a database and in one dataset per partition count; the stroke count."""
    for rules, share, per_match in (("snooker/wpbsa-2024", 0.7, 250), ("billiards/wpbsa-2024", 0.3, 190)):
        cfg = SeasonConfig(rules, max(1, int(strokes * share / per_match)), SEED, 0.02)
        write_season(root / rules.split("/")[0], simulate_season(cfg))
    db = root / "season.duckdb"
    con = connect(db)
    try:
        ingest_paths(con, sorted(root.glob("*/logs")))
        datasets = {p: str(root / f"p{p}") for p in partitions}
        for p, url in datasets.items():
            export_db(con, url, p)
        n = int(con.execute("SELECT count(*) FROM strokes").fetchall()[0][0])
    finally:
        con.close()
    return db, datasets, n


def in_process(source: str, out: str) -> None:
    for part in partitions_present(Storage.open(source)):
        assert replay_partition(source, out, part).ok


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def measure(strokes: int, partitions: list[int], n: int) -> dict[str, Any]:
    """Every case once per round, back to back, so a change in the machine's load hits all
    of them alike; ratios are taken within a round, then their median."""
    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory(prefix="cuelog-cluster-bench-") as tmp, contextlib.ExitStack() as stack:
        root = Path(tmp)
        db, datasets, total = build(root, strokes, partitions)
        low, high = min(partitions), max(partitions)

        def db_floor() -> None:
            con = connect(db)
            try:
                replay_db(con, None, 1)
            finally:
                con.close()

        def diff_floor() -> None:
            con = connect(db, read_only=True)
            try:
                diff_db(con, DRAFT, workers=1)
            finally:
                con.close()

        cases: dict[str, Callable[[], Any]] = {
            "replay_db_1_worker": db_floor,
            "in_process_partitions": lambda: in_process(datasets[low], str(root / "out-ip")),
            "diff_db_1_worker": diff_floor,
        }
        startup: dict[int, float] = {}
        for workers in (1, 2):
            t0 = time.perf_counter()
            lc = stack.enter_context(
                LocalCluster(n_workers=workers, processes=True, threads_per_worker=1, dashboard_address=":0")
            )
            c = stack.enter_context(Client(lc))
            startup[workers] = round(time.perf_counter() - t0, 2)
            replay_parquet(c, datasets[low], str(root / f"warm-up-{workers}"))  # imports cuelog in the workers
            for p in partitions:
                out = str(root / f"out-{workers}-{p}")
                cases[f"cluster_{workers}_workers_{p}_partitions"] = lambda c=c, p=p, out=out: replay_parquet(
                    c, datasets[p], out
                )
            if workers == 2:
                cases[f"diff_cluster_2_workers_{low}_partitions"] = lambda c=c: diff_parquet(c, datasets[low], DRAFT)
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(n):
            for name, fn in cases.items():
                times[name].append(timed(fn))
        floor = times["in_process_partitions"]
        doc: dict[str, Any] = {"strokes": total, "partitions": partitions, "rounds": n, "startup_s": startup}
        doc["timings"] = {name: spread(t) for name, t in times.items()}
        doc["ratios_to_in_process"] = {
            name: round(statistics.median(a / b for a, b in zip(t, floor, strict=True)), 2)
            for name, t in times.items()
            if name.startswith("cluster") or name.startswith("replay_db")
        }
        diffs = times["diff_db_1_worker"]
        doc["ratios_to_in_process"] |= {
            name: round(statistics.median(a / b for a, b in zip(t, diffs, strict=True)), 2)
            for name, t in times.items()
            if name.startswith("diff_cluster")
        }
        if high > low:
            lo, hi = times[f"cluster_2_workers_{low}_partitions"], times[f"cluster_2_workers_{high}_partitions"]
            extra = statistics.median(b - a for a, b in zip(lo, hi, strict=True))
            doc["overhead_per_partition_ms"] = round(1000 * extra / (high - low), 1)
        doc["strokes_per_s"] = {name: round(total / statistics.median(t)) for name, t in times.items()}
        return doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--strokes", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--partitions", default="8,64", help="partition counts, comma-separated")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    partitions = sorted({int(p) for p in args.partitions.split(",")})
    doc = measure(args.strokes, partitions, args.rounds)
    doc["machine"] = {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if args.json:
        print(json.dumps(doc, indent=1))
        return
    print(f"{doc['strokes']:,} strokes, {args.rounds} round(s), load average {doc['machine']['load_average']}")
    print(f"cluster start-up: {doc['startup_s']} s (1 and 2 workers)")
    for name, t in doc["timings"].items():
        ratio = doc["ratios_to_in_process"].get(name, 1.0)
        of = "diff_db_1_worker" if name.startswith("diff") else "in_process_partitions"
        print(
            f"{name:<38} {t['median_s']:8.2f} s ({t['min_s']:.2f}-{t['max_s']:.2f})  "
            f"{doc['strokes_per_s'][name]:>8,} strokes/s  {ratio:5.2f}x {of}"
        )
    if "overhead_per_partition_ms" in doc:
        print(f"overhead per partition (2 workers): {doc['overhead_per_partition_ms']} ms")


if __name__ == "__main__":
    main()
