"""Helpers for the ingest tests: log builders, the real CLI, and whole-database snapshots."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner, Result

from cuelog.cli import app

MATCH: dict[str, Any] = {
    "type": "match",
    "format": "cuelog/1",
    "match": "t-1",
    "rules": "snooker/wpbsa-2024",
    "sides": {"A": "Alice", "B": "Bea"},
    "table": "1",
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "large: builds a ~50 MB input in tmp_path (runs in CI; a few seconds)")


def match(**fields: Any) -> dict[str, Any]:
    return {**MATCH, **fields}


def frame(number: int = 1, **fields: Any) -> dict[str, Any]:
    return {"type": "frame", "frame": number, "breaker": "A", **fields}


def stroke(n: int, frame: int = 1, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "type": "stroke",
        "frame": frame,
        "n": n,
        "striker": "A",
        "first": ["red"],
        "potted": [],
        "call": None,
        "score": [0, 0],
    }
    return {**base, **fields}


def lines(records: Iterable[dict[str, Any] | str]) -> str:
    """JSON Lines text; a str item is written as it is (for deliberately broken lines)."""
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def write(path: Path, records: Iterable[dict[str, Any] | str]) -> Path:
    path.write_text(lines(records), encoding="utf-8")
    return path


def cli(*args: str | Path) -> Result:
    """Run the real ``cuelog`` command (Typer app) and return its result (stdout/stderr apart)."""
    return CliRunner().invoke(app, [str(a) for a in args])


def snapshot(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, as text, sorted: two equal snapshots mean an unchanged database."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY table_name").fetchall()]
        return {t: con.execute(f"SELECT CAST(COLUMNS(*) AS VARCHAR) FROM {t} ORDER BY ALL").fetchall() for t in tables}
    finally:
        con.close()


def counts(db: Path) -> dict[str, int]:
    return {table: len(rows) for table, rows in snapshot(db).items()}
