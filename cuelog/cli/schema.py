"""``cuelog schema``: print the cuelog/1 JSON Schema."""

from __future__ import annotations

import sys

import typer

from cuelog.schemas import schema_text


def schema() -> None:
    """Print the cuelog/1 JSON Schema (draft 2020-12) for every record type.

    The schema checks the JSON types of each line on its own; `cuelog validate` also
    checks what the records mean together (rules, ball names, order, stroke numbers).

    Example: cuelog schema > cuelog-1.schema.json
    """
    sys.stdout.write(schema_text())


def register(app: typer.Typer) -> None:
    app.command()(schema)
