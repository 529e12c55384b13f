"""A simulated season loaded into a database, and one local Dask cluster per test module.

The cluster is two worker processes, one thread each (started once: a cluster start costs
seconds). Tests reach it through its scheduler address, like a real cluster.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuelog.cli import app
from cuelog.distributed.layout import Storage, part_name, partition_of
from cuelog.ingest.corrections import Located
from cuelog.pipeline import replay_all
from cuelog.replay.derived import Derived
from cuelog.store import connect
from cuelog.store.reads import loaded_matches, select_matches
from cuelog.store.results import result_tables
from tests.conftest import EXAMPLES


@dataclass(frozen=True)
class Ran:
    exit_code: int
    stdout: str
    stderr: str


def cuelog(*args: str) -> Ran:
    """The real Typer command line, in this process."""
    r = CliRunner().invoke(app, list(args))
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return Ran(r.exit_code, r.stdout, r.stderr)


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding 12 snooker and 4 billiards matches with officiating errors and shot
    clocks, and the bundled examples; replayed in process (``replay --db``)."""
    root = tmp_path_factory.mktemp("season")
    args: list[str] = []
    for rules, n in (("snooker/wpbsa-2024", "12"), ("billiards/wpbsa-2024", "4")):
        out = root / rules.split("/")[0]
        ran = cuelog(
            "simulate", "--rules", rules, "--matches", n, "--seed", "11", "--out", str(out), "--errors", "0.05"
        )
        assert ran.exit_code == 0, ran.stderr
        args += [str(out / "logs"), *(a for c in sorted((out / "clocks").glob("*.csv")) for a in ("--clock", str(c)))]
    db = root / "season.duckdb"
    ran = cuelog("ingest", *args, str(EXAMPLES), "--db", str(db))
    assert ran.exit_code == 0, ran.stdout + ran.stderr
    ran = cuelog("replay", "--db", str(db), "--workers", "1")
    assert ran.exit_code == 1, ran.stderr
    return db


def in_process_results(
    db: Path, dest: Path, partitions: int, corrections: tuple[Located, ...] = (), rules: str | Derived | None = None
) -> Path:
    """The in-process replay of every loaded match (the ``replay --db`` pipeline, under ``rules``
    when given, as ``replay --db --rules``), its rows split by partition and written in the
    results layout: what the cluster must reproduce."""
    con = connect(db, read_only=True)
    try:
        loaded = (
            replace(lm, corrections=tuple(c for c in corrections if c[2].match == lm.match_id))
            for lm in loaded_matches(con, select_matches(con, None))
        )
        results = replay_all(loaded, workers=1, rules=rules)
    finally:
        con.close()
    storage = Storage.open(str(dest))
    by_part: dict[int, list] = {}
    for r in results:
        by_part.setdefault(partition_of(r.match, partitions), []).append(r)
    for part, chunk in by_part.items():
        for name, table in result_tables(chunk).items():
            storage.write_table(table, name, part_name(part), "data.parquet")
    return dest


def tree(root: Path, tables: tuple[str, ...]) -> dict[str, bytes]:
    """Every file of these tables under a dataset root, by relative path, with its bytes."""
    return {
        str(p.relative_to(root)): p.read_bytes() for t in tables for p in sorted((root / t).rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def cluster() -> Iterator[object]:
    """A local cluster of two worker processes, one thread each, and a client to it."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0") as lc,
        Client(lc) as client,
    ):
        yield client


def worker_pids(client: object) -> dict[str, int]:
    return client.run(os.getpid)  # type: ignore[attr-defined,no-any-return]
