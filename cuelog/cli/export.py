"""``cuelog export``: the loaded matches as a Parquet dataset, partitioned by match id."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from cuelog.cli.common import EXIT_OK, fail, json_errors, out_console
from cuelog.store import DEFAULT_DB

PARTITIONS_HELP = "Partitions: a match goes to sha1(match id) mod P. Keep P when adding to a dataset."


def export(
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help="The cuelog database to export."),
    parquet: str = typer.Option(..., "--parquet", help="The dataset directory: a path or an fsspec URL."),
    partitions: int = typer.Option(32, "--partitions", min=1, max=65536, help=PARTITIONS_HELP),
    overwrite: bool = typer.Option(
        False, "--overwrite", help="Replace the dataset whole: afterwards it holds exactly this export."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print what was written as JSON."),
) -> None:
    """Write the loaded matches (records, strokes, aligned shot clock) as a Parquet dataset.

    Hive layout, one directory per partition, for `cuelog replay --parquet DIR` on a Dask
    cluster. Exporting the same matches again writes the same bytes; exports of other
    matches add files beside them; a match the dataset already holds is replaced by the
    database's version (its older file rewritten without it), never duplicated. --overwrite
    replaces the dataset whole (only a cuelog dataset's own files are removed). Until every
    file is written the dataset is marked unfinished, and commands reading it refuse it.
    Exit code 0, or 2 when the database or dataset is unusable (a directory that is not a
    cuelog dataset, another partition count without --overwrite).

    Example: cuelog export --db season.duckdb --parquet archive/ --partitions 64
    """
    json_errors(as_json)
    from cuelog.distributed.export import export_db
    from cuelog.distributed.layout import DatasetError, MissingExtra
    from cuelog.store import connect

    if not db.exists():
        fail(f"no database at {db}; load logs first with `cuelog ingest LOGS --db {db}`", "no_database")
    try:
        con = connect(db, read_only=True)
    except Exception as exc:  # duckdb raises its own IOException family for a non-database file
        fail(f"cannot open {db} as a cuelog database: {exc}", "bad_database")
    try:
        done = export_db(con, parquet, partitions, overwrite=overwrite)
    except DatasetError as exc:
        fail(str(exc), "bad_input")
    except MissingExtra as exc:
        fail(str(exc), "missing_extra")
    except OSError as exc:
        fail(f"cannot write {parquet}: {exc}", "cannot_write")
    finally:
        con.close()
    if as_json:
        sys.stdout.write(json.dumps(done.to_dict(), indent=1) + "\n")
    else:
        out_console().print(
            f"wrote {done.matches} match(es), {done.records} record(s) to {parquet} "
            f"({done.written} of {done.partitions} partitions)"
            + (
                f"; {len(done.unchanged)} match(es) unchanged (held already, from the same log)"
                if done.unchanged
                else ""
            ),
            soft_wrap=True,
            markup=False,
        )
    raise typer.Exit(EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(export)
