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
  run at the smallest, divided by the extra partitions.

Ratios are against the in-process partition floor of the same run. Timings are wall clock
on whatever else the machine is doing: never assert them in tests.
"""

from __future__ import annotations

import argparse
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

from cuelog.analytics.results import replay_db  # noqa: E402
from cuelog.distributed.driver import replay_parquet  # noqa: E402
from cuelog.distributed.export import export_db  # noqa: E402
from cuelog.distributed.layout import Storage, partitions_present  # noqa: E402
from cuelog.distributed.task import replay_partition  # noqa: E402
from cuelog.ingest.load import ingest_paths  # noqa: E402
from cuelog.simulate import SeasonConfig, simulate_season  # noqa: E402
from cuelog.simulate.writer import write_season  # noqa: E402
from cuelog.store import connect  # noqa: E402

SEED = 2026


def rounds(fn: Callable[[], Any], n: int) -> dict[str, float]:
    """Median and spread of ``n`` timed calls, in seconds."""
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
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


def on_cluster(workers: int, datasets: dict[int, str], out: Path, n: int) -> dict[str, Any]:
    """Time the replay of each dataset on a local cluster of ``workers`` processes, after one
    untimed run that imports cuelog in the workers."""
    from distributed import Client, LocalCluster

    t0 = time.perf_counter()
    with (
        LocalCluster(n_workers=workers, processes=True, threads_per_worker=1, dashboard_address=":0") as lc,
        Client(lc) as c,
    ):
        started = time.perf_counter() - t0
        first = min(datasets)
        replay_parquet(c, datasets[first], str(out / "warm-up"))
        runs = {p: rounds(lambda p=p: replay_parquet(c, datasets[p], str(out / str(p))), n) for p in datasets}
    return {"startup_s": round(started, 2), "by_partitions": runs}


def measure(strokes: int, partitions: list[int], n: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cuelog-cluster-bench-") as tmp:
        root = Path(tmp)
        db, datasets, total = build(root, strokes, partitions)
        low, high = min(partitions), max(partitions)

        def db_floor() -> None:
            con = connect(db)
            try:
                replay_db(con, None, 1)
            finally:
                con.close()

        doc: dict[str, Any] = {"strokes": total, "partitions": partitions, "rounds": n}
        doc["replay_db_1_worker"] = rounds(db_floor, n)
        doc["in_process_partitions"] = rounds(lambda: in_process(datasets[low], str(root / "out-ip")), n)
        for workers in (1, 2):
            doc[f"cluster_{workers}_workers"] = on_cluster(workers, datasets, root / f"out-{workers}", n)
        floor = doc["in_process_partitions"]["median_s"]
        two = doc["cluster_2_workers"]["by_partitions"]
        doc["ratios"] = {
            f"cluster_{w}_workers_vs_in_process": round(
                doc[f"cluster_{w}_workers"]["by_partitions"][low]["median_s"] / floor, 2
            )
            for w in (1, 2)
        }
        if high > low:
            extra = two[high]["median_s"] - two[low]["median_s"]
            doc["overhead_per_partition_ms"] = round(1000 * extra / (high - low), 1)
        doc["strokes_per_s"] = {
            "in_process_partitions": round(total / floor),
            "cluster_1_worker": round(total / doc["cluster_1_workers"]["by_partitions"][low]["median_s"]),
            "cluster_2_workers": round(total / two[low]["median_s"]),
        }
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
    low = min(partitions)
    print(f"{doc['strokes']:,} strokes, {args.rounds} round(s), load average {doc['machine']['load_average']}")
    print(f"replay --db, 1 worker (in process)     {doc['replay_db_1_worker']['median_s']:8.2f} s")
    print(f"partition tasks in process ({low:>3} parts) {doc['in_process_partitions']['median_s']:8.2f} s  (floor)")
    for w in (1, 2):
        c = doc[f"cluster_{w}_workers"]
        for p, r in c["by_partitions"].items():
            spread = f"{r['min_s']:.2f}-{r['max_s']:.2f}"
            print(
                f"cluster, {w} worker(s), {p:>3} parts      {r['median_s']:8.2f} s  ({spread}; start-up {c['startup_s']} s)"
            )
    print("ratios to the floor:", doc["ratios"])
    if "overhead_per_partition_ms" in doc:
        print(f"overhead per partition (2 workers): {doc['overhead_per_partition_ms']} ms")
    print("strokes/s:", doc["strokes_per_s"])


if __name__ == "__main__":
    main()
