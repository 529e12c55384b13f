"""The cuelog/1 contract: record structs, the published JSON Schema and the DuckDB DDL."""

from __future__ import annotations

from importlib import resources

SCHEMA_FILE = "cuelog-1.schema.json"


def schema_text() -> str:
    """The cuelog/1 JSON Schema as shipped with the package (``cuelog schema`` prints it)."""
    return resources.files("cuelog.schemas").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
