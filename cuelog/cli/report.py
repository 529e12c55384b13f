"""``cuelog report``: player statistics from the replay results (breaks, billiards, misses, clock, pool)."""

from __future__ import annotations

import itertools
import operator
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import typer
from rich.markup import escape

from cuelog.analytics import plain
from cuelog.cli.common import err_console, fail, json_errors, out_console
from cuelog.store import DEFAULT_DB

if TYPE_CHECKING:
    from cuelog.analytics.queries import Report


def open_db(db: Path):  # type: ignore[no-untyped-def]
    """Open an existing cuelog database for reading, or exit 2 with a clear message."""
    from cuelog.store import connect

    if not db.exists():
        fail(
            f"no database at {db}; load logs with `cuelog ingest` and replay them with `cuelog replay --db {db}`",
            "no_database",
        )
    try:
        return connect(db, read_only=True)
    except Exception as exc:  # duckdb raises its own IOException family for a non-database file
        fail(f"cannot open {db} as a cuelog database: {exc}", "bad_database")


def open_results(url: str):  # type: ignore[no-untyped-def]
    """Views over a results dataset written by `cuelog replay --parquet`, or exit 2."""
    from cuelog.distributed.layout import DatasetError, MissingExtra
    from cuelog.distributed.views import open_results as views

    try:
        return views(url)
    except DatasetError as exc:
        fail(str(exc), "bad_input")
    except MissingExtra as exc:
        fail(str(exc), "missing_extra")


def _shown(kind: str, values: Sequence[Any]) -> list[str]:
    """How a column of DuckDB type ``kind`` shows its values in the table: ``-`` for none,
    a figure to two places, a list as its runs (:func:`_runs`), anything else as ``str``
    gives it (:func:`cuelog.analytics.plain.column_table` escapes it for the terminal). A column at
    a time, each cell in one comprehension (a season by match is 59,000 rows)."""
    if kind.endswith("[]"):
        return ["-" if value is None else ", ".join(_runs(value)) or "-" for value in values]
    if kind == "DOUBLE":
        return ["-" if value is None else f"{value:.2f}" for value in values]
    return ["-" if value is None else str(value) for value in values]


def _runs(values: list[Any]) -> list[str]:
    """A list as its runs of equal values: ``52 x3`` for three 52s in a row. Every break of
    a player is listed highest first, so a break made three times is one entry: a season's
    table stays readable (and quick to lay out) where listing every break filled megabytes.
    ``--json``, ``--csv`` and ``--parquet`` list every value."""
    counts = Counter(values)  # counted in C, each value where it first comes
    # Those are the runs when equal values stand together (a sorted list, as the breaks
    # are): as many runs as values, one more than the changes from one value to the next.
    if len(counts) == 1 + sum(map(operator.ne, values, values[1:])):
        runs = list(counts.items())
    else:  # equal values apart (or no values at all): run by run
        runs = [(value, sum(1 for _ in run)) for value, run in itertools.groupby(values)]
    return [f"{value} x{count}" if count > 1 else str(value) for value, count in runs]


def table(result: Report) -> str:
    """The report as a plain text table (:mod:`cuelog.analytics.plain`: laid out in one pass, where
    a rich table of a season's 47,000 matches took 41 s): the names aligned left, the
    figures right, and the lists (every break) left in the last columns, where a season's
    long list runs on without pushing the figures off the screen."""
    kinds = dict(zip(result.columns, result.types, strict=True))
    lists = [c for c in result.columns if kinds[c].endswith("[]")]
    shown = [c for c in result.columns if c not in lists] + lists
    justify: list[plain.Justify] = ["left" if c == result.by or c in lists else "right" for c in shown]
    values = list(zip(*result.values, strict=True)) or [() for _ in result.columns]
    where = {c: i for i, c in enumerate(result.columns)}
    cells = [_shown(kinds[c], values[where[c]]) for c in shown]
    title = f"{result.kind} by {result.by}"
    return plain.column_table(shown, cells, justify, title=title, last_runs_on=bool(lists))


def report(
    kind: str = typer.Argument(..., help="breaks, billiards, misses, clock, pool, nineball or straight-pool."),
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help="The cuelog database (replayed with `cuelog replay --db`)."),
    players: list[str] | None = typer.Option(None, "--player", help="Only this player (repeatable)."),
    matches: list[str] | None = typer.Option(None, "--match", help="Only this match id (repeatable)."),
    events: list[str] | None = typer.Option(None, "--event", help="Only this event (repeatable)."),
    by: str = typer.Option("player", "--by", help="One row per player, match or event."),
    results: str | None = typer.Option(
        None, "--results", help="Report over a results dataset (`cuelog replay --parquet --out DIR`) instead of --db."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    csv: Path | None = typer.Option(None, "--csv", help="Write the report to this CSV file."),
    parquet: Path | None = typer.Option(None, "--parquet", help="Write the report to this Parquet file."),
) -> None:
    """Statistics from the replayed strokes (not the recorded calls), per player, match or event.

    breaks: frames, every break, highest, 50+, centuries, points (snooker);
    billiards: points, visits, average per visit, highest break, centuries;
    misses: foul and a miss calls, points conceded, fouls, longest miss sequence (snooker);
    clock: shots, mean/median/max shot time, shots over the limit;
    pool: racks, racks won, break-and-dish, clearances, balls, visits, fouls committed and conceded (eight-ball);
    nineball: racks, racks won, break-and-runs, push outs, balls, visits, fouls committed and conceded;
    straight-pool: games, points, high run, innings, balls per inning, fouls and the points they cost (14.1).

    --results DIR reports over the Parquet results of `cuelog replay --parquet` (no database).

    Example: cuelog report breaks --db cuelog.duckdb --player "J. Trump" --json
    """
    from cuelog.analytics.queries import BY, KINDS, ReportError, Scope
    from cuelog.analytics.queries import report as make_report

    json_errors(as_json)
    if kind not in KINDS:
        fail(f"unknown report {kind!r}; reports: {', '.join(KINDS)}", "unknown_report")
    if by not in BY:
        fail(f"--by takes one of {', '.join(BY)}, not {by!r}")
    scope = Scope(tuple(players or ()), tuple(matches or ()), tuple(events or ()))
    con = open_db(db) if results is None else open_results(results)
    try:
        result = make_report(con, kind, scope, by)
    except ReportError as exc:
        fail(str(exc), "bad_selection")
    finally:
        con.close()
    unreplayed = result.unreplayed
    if unreplayed:
        err_console.print(
            f"[yellow]note:[/] {len(unreplayed)} match(es) in the selection not replayed yet "
            f"({escape(', '.join(unreplayed[:5]))}{', ...' if len(unreplayed) > 5 else ''}); "
            f"run `cuelog replay --db {escape(str(db))}`",
            highlight=False,
        )
    for path in (csv, parquet):
        if path is not None:
            from cuelog.analytics import export  # Polars: only for a file, not for the table or --json

            try:
                export.write(result.frame, path)
            except OSError as exc:
                fail(f"cannot write {path}: {exc}", "cannot_write")
            err_console.print(f"wrote {escape(str(path))} ({len(result.values)} row(s))", highlight=False)
    if as_json:
        sys.stdout.write(json_text(result.document()) + "\n")
    elif csv is None and parquet is None:
        out_console().file.write(table(result))


def json_text(document: dict[str, object]) -> str:
    """``json.dumps(document, indent=1, ensure_ascii=False)``, the same text, from msgspec:
    the standard encoder writes an indented document in Python, a third of a second for the
    600,000 breaks of a season of ten million strokes. The two differ only in how a float
    is written in exponent form (``1e+16`` against ``1e16``), and a report's floats are
    figures to two places (``queries.round2``), never written so (the tests hold the two to
    the same bytes)."""
    return msgspec.json.format(msgspec.json.encode(document), indent=1).decode("utf-8")


def register(app: typer.Typer) -> None:
    app.command()(report)
