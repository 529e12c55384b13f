"""``cuelog matches``: list the matches loaded in the store."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from cuelog.analytics import plain
from cuelog.cli.common import EXIT_OK, fail, json_errors, out_console
from cuelog.store import DEFAULT_DB, connect


def matches(
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help="The DuckDB file."),
    as_json: bool = typer.Option(False, "--json", help="Print the list as JSON on stdout."),
) -> None:
    """List the loaded matches: id, rules, sides, event, frames, strokes, strokes with a shot time.

    Examples:

      cuelog matches

      cuelog matches --db season.duckdb --json
    """
    import duckdb  # here, not at the top: `cuelog matches --help` needs neither DuckDB nor pyarrow

    from cuelog.store.reads import loaded_summaries

    json_errors(as_json)
    if not db.is_file():
        fail(f"no database at {db} (load logs first: cuelog ingest PATH --db {db})", "no_database")
    try:
        con = connect(db, read_only=True)
    except duckdb.Error as exc:
        fail(f"cannot open database {db}: {str(exc).splitlines()[0]}", "bad_database")
    try:
        rows = loaded_summaries(con)
    except duckdb.CatalogException:
        fail(f"{db} is not a cuelog database (no matches table)", "bad_database")
    finally:
        con.close()
    if as_json:
        sys.stdout.write(json.dumps({"db": str(db), "matches": rows}, indent=1) + "\n")
    else:
        # Plain text in one pass (cuelog.analytics.plain): a rich table of a season's 47,000 matches
        # took 49 s to lay out; every cell is escaped for the terminal, never read as markup.
        lines = (
            (r["match"], r["rules"], f"{r['sides']['A']} v {r['sides']['B']}", r["event"] or "", r["frames"],
             r["strokes"], r["clocked"])
            for r in rows
        )  # fmt: skip
        columns = ("match", "rules", "sides", "event", "frames", "strokes", "clocked")
        justify: tuple[plain.Justify, ...] = ("left", "left", "left", "left", "right", "right", "right")
        out_console().file.write(plain.table(columns, lines, justify, title=f"matches in {db}"))
    raise typer.Exit(EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(matches)
