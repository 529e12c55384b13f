"""``records.body``: VARCHAR compressed with zstd in a new store, JSON or VARCHAR compressed
as DuckDB chose in a store made before; all load and read alike.

A new store keeps each line as VARCHAR (a JSON column would parse every line again on
insert), compressed with zstd (ddl.sql). A store made with the column of before keeps it:
the same logs, loaded into each, must give the same stored lines and the same replay,
reports and export.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from cuelog.store import connect, ddl
from tests.conftest import EXAMPLES
from tests.ingest.conftest import cli

_NEW_BODY = "body        VARCHAR USING COMPRESSION zstd NOT NULL"
_OLD_BODIES = {"JSON": "body        JSON NOT NULL", "VARCHAR": "body        VARCHAR NOT NULL"}
"""The ``records.body`` column of stores made before, by its type."""


def _old_store(path: Path, body: str) -> None:
    """A store whose ``records.body`` is the column ``body``, as stores were made before."""
    text = ddl()
    assert _NEW_BODY in text
    con = duckdb.connect(str(path))
    con.execute(text.replace(_NEW_BODY, body))
    con.close()


def _body_type(db: Path) -> str:
    con = connect(db)
    try:
        row = con.execute(
            "SELECT data_type FROM duckdb_columns() WHERE table_name = 'records' AND column_name = 'body'"
        ).fetchone()
    finally:
        con.close()
    assert row is not None
    return str(row[0])


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("logs")
    for rules, seed in (("snooker/wpbsa-2024", 3), ("nineball/wpa", 4)):
        out = root / rules.split("/")[0]
        assert cli("simulate", "--rules", rules, "--matches", 2, "--seed", seed, "--out", out).exit_code == 0
    logs = root / "logs"
    logs.mkdir()
    for path in [*sorted(root.glob("*/logs/*.jsonl")), *sorted(EXAMPLES.glob("*.jsonl"))]:
        if not path.name.endswith(".corrections.jsonl"):
            (logs / path.name).write_bytes(path.read_bytes())
    return logs


def _outputs(db: Path, logs: Path, out: Path) -> dict[str, object]:
    """What a user sees of a store: the stored lines, the replay, every report, the export."""
    ingest = cli("ingest", logs, "--db", db, "--json")
    assert ingest.exit_code == 0, ingest.stdout
    seen: dict[str, object] = {
        "ingest": [(f["path"], f["status"], f["records"]) for f in json.loads(ingest.stdout)["files"]]
    }
    con = connect(db)
    try:
        seen["records"] = con.execute(
            "SELECT match_id, seq, line, CAST(body AS VARCHAR) FROM records ORDER BY ALL"
        ).fetchall()
    finally:
        con.close()
    replay = cli("replay", "--db", db, "--workers", "1", "--json")
    assert replay.exit_code in (0, 1), replay.stdout
    seen["replay"] = replay.stdout
    for kind in ("breaks", "misses", "nineball"):
        report = cli("report", kind, "--db", db, "--json")
        assert report.exit_code == 0, report.stdout
        seen[kind] = report.stdout
    assert cli("export", "--db", db, "--parquet", out).exit_code == 0
    seen["export"] = sorted(
        (str(p.relative_to(out)), pq.read_table(p).to_pylist()) for p in out.rglob("*.parquet") if "records" in str(p)
    )
    return seen


def test_a_new_store_keeps_each_line_as_varchar_compressed_with_zstd(tmp_path: Path, logs: Path) -> None:
    db = tmp_path / "new.duckdb"
    assert cli("ingest", logs, "--db", db).exit_code == 0
    assert _body_type(db) == "VARCHAR"
    con = connect(db)
    try:
        con.execute("CHECKPOINT")
        methods = {
            row[0]
            for row in con.execute(
                "SELECT DISTINCT compression FROM pragma_storage_info('records') WHERE column_name = 'body'"
            ).fetchall()
        }
    finally:
        con.close()
    assert "ZSTD" in methods and not methods & {"DICT_FSST", "FSST", "Dictionary"}


@pytest.mark.parametrize("before", sorted(_OLD_BODIES))
def test_a_store_made_before_loads_and_reads_as_a_new_one(tmp_path: Path, logs: Path, before: str) -> None:
    old, new = tmp_path / "old.duckdb", tmp_path / "new.duckdb"
    _old_store(old, _OLD_BODIES[before])
    from_old = _outputs(old, logs, tmp_path / "old-export")
    from_new = _outputs(new, logs, tmp_path / "new-export")
    assert _body_type(old) == before and _body_type(new) == "VARCHAR"
    assert from_old["records"] and from_old["export"]
    assert '"push_outs"' in str(from_old["nineball"])
    assert from_old == from_new
