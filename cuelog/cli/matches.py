"""``cuelog matches``: list the matches loaded in the store."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import duckdb
import typer
from rich.console import Console

from cuelog.cli.common import EXIT_OK, fail, folded_table
from cuelog.store import DEFAULT_DB
from cuelog.store.reads import loaded_summaries


def matches(
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help="The DuckDB file."),
    as_json: bool = typer.Option(False, "--json", help="Print the list as JSON on stdout."),
) -> None:
    """List the loaded matches: id, rules, sides, event, frames, strokes, strokes with a shot time.

    Examples:

      cuelog matches

      cuelog matches --db season.duckdb --json
    """
    if not db.is_file():
        fail(f"no database at {db} (load logs first: cuelog ingest PATH --db {db})")
    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.Error as exc:
        fail(f"cannot open database {db}: {str(exc).splitlines()[0]}")
    try:
        rows = loaded_summaries(con)
    except duckdb.CatalogException:
        fail(f"{db} is not a cuelog database (no matches table)")
    finally:
        con.close()
    if as_json:
        sys.stdout.write(json.dumps({"db": str(db), "matches": rows}, indent=1) + "\n")
    else:
        t = folded_table(
            "match",
            "rules",
            "sides",
            "event",
            "frames",
            "strokes",
            "clocked",
            title=f"matches in {db}",
            whole=("match", "frames", "strokes", "clocked"),
        )
        for r in rows:
            t.add_row(
                r["match"],
                r["rules"],
                f"{r['sides']['A']} v {r['sides']['B']}",
                r["event"] or "",
                str(r["frames"]),
                str(r["strokes"]),
                str(r["clocked"]),
            )
        Console().print(t)
    raise typer.Exit(EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(matches)
