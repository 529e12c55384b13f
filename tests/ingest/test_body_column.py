"""``records.body``: VARCHAR in a new store, JSON in a store made before; both load and read alike.

A new store keeps each line as VARCHAR (a JSON column would parse every line again on
insert). A store made with the JSON column keeps it: the same logs, loaded into both, must
give the same stored lines and the same replay, reports and export.
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

_NEW_BODY = "body        VARCHAR NOT NULL"
_OLD_BODY = "body        JSON NOT NULL"


def _old_store(path: Path) -> None:
    """A store whose ``records.body`` is JSON, as stores were made before."""
    text = ddl()
    assert _NEW_BODY in text
    con = duckdb.connect(str(path))
    con.execute(text.replace(_NEW_BODY, _OLD_BODY))
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


def test_a_new_store_keeps_each_line_as_varchar(tmp_path: Path) -> None:
    connect(tmp_path / "new.duckdb").close()
    assert _body_type(tmp_path / "new.duckdb") == "VARCHAR"


def test_a_store_with_a_json_body_loads_and_reads_as_a_new_one(tmp_path: Path, logs: Path) -> None:
    old, new = tmp_path / "old.duckdb", tmp_path / "new.duckdb"
    _old_store(old)
    from_old = _outputs(old, logs, tmp_path / "old-export")
    from_new = _outputs(new, logs, tmp_path / "new-export")
    assert _body_type(old) == "JSON" and _body_type(new) == "VARCHAR"
    assert from_old["records"] and from_old["export"]
    assert '"push_outs"' in str(from_old["nineball"])
    assert from_old == from_new
