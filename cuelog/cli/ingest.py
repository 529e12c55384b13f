"""``cuelog ingest``: load logs and shot-clock device CSVs into the DuckDB store."""

from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import DownloadColumn, Progress, TimeRemainingColumn

from cuelog.analytics import plain
from cuelog.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    err_console,
    expand_globs,
    fail,
    json_errors,
    out_console,
    print_problems,
    stderr_progress,
)
from cuelog.ingest.clean import FAST_CHECK_BYTES
from cuelog.ingest.clock import DEFAULT_TOLERANCE_S, SHOW_UNPLACED, ClockResult, ingest_clocks, pairing_ahead
from cuelog.ingest.reader import is_clock_csv, log_files
from cuelog.ingest.workers import PARALLEL_BYTES, PARALLEL_LARGE_LOGS, default_workers
from cuelog.store import DEFAULT_DB, connect

if TYPE_CHECKING:  # loading imports DuckDB and pyarrow: imported when the command runs, not for --help
    import duckdb

    from cuelog.ingest.load import FileResult


def _progress(quiet: bool) -> Progress:
    """A byte-count progress bar on stderr, shown only on a terminal (and never with --json)."""
    return stderr_progress("loading", DownloadColumn(), TimeRemainingColumn(), quiet=quiet)


def _total_bytes(files: list[Path]) -> int | None:
    # Progress counts decompressed bytes, read twice (check, then load); a .gz file's
    # decompressed size is not known up front.
    if any(f.suffix == ".gz" for f in files):
        return None
    return 2 * sum(f.stat().st_size for f in files if f.is_file())


def print_summary(files: list[FileResult], clocks: list[ClockResult], console: Console) -> None:
    """The logs and clock logs loaded, one plain line each (a season is thousands of files);
    per clock log with rows placed on no stroke, a warning with the count by reason and the
    first few rows (``--json`` has the count by reason as well)."""
    if files:
        logs = ((f.status, matches_shown(f.matches), f.records, f.path) for f in files)
        console.file.write(plain.table(("status", "matches", "records", "file"), logs, title="logs"))
    if clocks:
        columns = ("status", "rows", "shots", "aligned", "unplaced", "clock log")
        counts = ((c.status, c.rows, c.shots, c.aligned, len(c.unplaced), c.path) for c in clocks)
        console.file.write(plain.table(columns, counts, title="shot clocks"))
    for c in clocks:
        if c.unplaced:
            reasons = ", ".join(f"{reason} {n}" for reason, n in c.unplaced_by_reason().items())
            shown = "; ".join(f"line {u.line} {u.event} {u.ts} ({u.reason})" for u in c.unplaced[:SHOW_UNPLACED])
            more = f" and {len(c.unplaced) - SHOW_UNPLACED} more" if len(c.unplaced) > SHOW_UNPLACED else ""
            err_console.print(
                f"[yellow]warning:[/] {escape(plain.terminal_text(c.path))}: {len(c.unplaced)} row(s) placed on no stroke "
                f"({escape(reasons)}): {escape(shown)}{more}",
                highlight=False,
                soft_wrap=True,
            )


SHOW_MATCHES = 3
"""A file's match ids shown in full up to this many; a day's log shows its first two, its
last and how many (``--json`` and ``cuelog matches`` list every one)."""


def matches_shown(matches: list[str]) -> str:
    if len(matches) <= SHOW_MATCHES:
        return ", ".join(matches)
    return f"{matches[0]}, {matches[1]} ... {matches[-1]} ({len(matches)} matches)"


def _load(
    db: Path,
    files: list[Path],
    clock: list[Path],
    tolerance: float,
    replace: bool,
    quiet: bool,
    parquet: str | None,
    partitions: int,
    workers: int | None,
) -> tuple[list[FileResult], list[ClockResult], dict[str, object] | None]:
    """Load the logs and clocks into ``db``; with ``parquet``, load the logs into ``db`` (a
    temporary database) and write them to the dataset, which keeps the clocks and aligns them
    over every stroke it holds (a clock and its strokes may come in different batches)."""
    import duckdb

    from cuelog.ingest.load import ingest_paths

    try:
        con = connect(db)
    except duckdb.Error as exc:
        fail(f"cannot open database {db}: {str(exc).splitlines()[0]}", "bad_database")
    try:
        # The clock logs are paired (in memory) while the logs load: only their alignment
        # needs the strokes. A dataset keeps them apart, so --parquet pairs them after.
        with pairing_ahead(clock if parquet is None else []) as paired:
            if workers is None:
                workers = default_workers(files)
            with _progress(quiet) as bar:
                # Only a bar that shows needs the total: two stats a file (a season is thousands).
                task = bar.add_task("loading", total=None if bar.disable else _total_bytes(files))
                results = ingest_paths(
                    con, files, replace=replace, progress=lambda n: bar.advance(task, n), workers=workers
                )
            if parquet is not None:
                exported, clocks, unchanged = _export(con, parquet, partitions, clock, tolerance, replace)
                return [_held_already(r, unchanged) for r in results], clocks, exported
            return results, ingest_clocks(con, clock, tolerance, paired), None
    finally:
        con.close()


def _held_already(result: FileResult, unchanged: frozenset[str]) -> FileResult:
    """A log loaded into the temporary database whose every match the dataset held already
    from the same log: ``unchanged``, as a database reports the same bytes loaded again."""
    if result.status != "loaded" or not result.matches or not unchanged.issuperset(result.matches):
        return result
    return dataclasses.replace(result, status="unchanged")


def _export(
    con: duckdb.DuckDBPyConnection, parquet: str, partitions: int, clock: list[Path], tolerance: float, replace: bool
) -> tuple[dict[str, object], list[ClockResult], frozenset[str]]:
    from cuelog.distributed.export import export_db
    from cuelog.distributed.layout import DatasetError, MissingExtra

    try:
        done = export_db(con, parquet, partitions, keep_other=not replace, clock_logs=clock, tolerance_s=tolerance)
    except DatasetError as exc:
        fail(str(exc), "bad_input")
    except MissingExtra as exc:
        fail(str(exc), "missing_extra")
    except OSError as exc:
        fail(f"cannot write {parquet}: {exc}", "cannot_write")
    return done.to_dict(), list(done.clocks), done.unchanged


def split_clock_csvs(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Stroke logs and shot-clock CSVs among the paths given: ``--clock a.csv b.csv`` puts b.csv here."""
    return [p for p in paths if not is_clock_csv(p)], [p for p in paths if is_clock_csv(p)]


def clock_files(paths: list[Path]) -> list[Path]:
    """Clock CSVs, a directory standing for the ``.csv`` files in it and a glob for the
    paths it matches (sorted), duplicates once."""
    out: list[Path] = []
    for p in expand_globs(paths, "--clock"):
        found = sorted(q for q in p.rglob("*") if q.is_file() and is_clock_csv(q)) if p.is_dir() else [p]
        out.extend(q for q in found if q not in out)
    return out


def ingest(
    paths: list[Path] = typer.Argument(
        ..., help="Log files (.jsonl, .jsonl.gz), directories (searched recursively) or quoted globs (sorted)."
    ),
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help="The DuckDB file (created if missing)."),
    clock: list[Path] = typer.Option(
        [],
        "--clock",
        help="Shot-clock device CSV (table,ts,event), a directory of them or a quoted glob ('clocks/*.csv', "
        "sorted); repeatable. CSV files among the PATHS (as a shell glob after --clock gives them) are read as "
        "shot-clock logs too.",
    ),
    clock_tolerance: float = typer.Option(
        DEFAULT_TOLERANCE_S, "--clock-tolerance", min=0.0, help="Seconds a clock stop may be from its stroke's time."
    ),
    replace: bool = typer.Option(False, "--replace", help="Let a file replace a match id another file loaded."),
    parquet: str | None = typer.Option(
        None,
        "--parquet",
        help="Write the loaded matches as a Parquet dataset here (path or fsspec URL) instead of into --db.",
    ),
    partitions: int = typer.Option(32, "--partitions", min=1, max=65536, help="With --parquet: partitions."),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        help="Processes that check the logs while this one loads them (default: 1 without two idle cores, or for "
        f"under {PARALLEL_BYTES >> 20} MB of logs and fewer than {PARALLEL_LARGE_LOGS} logs over "
        f"{FAST_CHECK_BYTES >> 20} MB; else one per idle core). The result is the same whatever the number.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print what happened to each file as JSON on stdout."),
) -> None:
    """Validate and load stroke logs (and shot-clock CSVs) into DuckDB, one file per transaction.

    A file with any problem is rejected whole, its problems printed, and the database is
    left as it was; the other files still load. Loading the same bytes again changes
    nothing. A different file claiming a loaded match id is refused unless --replace.
    Clock CSVs are aligned to strokes after the logs are loaded; their rows that fit no
    stroke are reported, not fatal. Exit code 0 when everything loaded, 2 when a file was
    rejected.

    Examples:

      cuelog ingest examples/

      cuelog ingest day1/ --db season.duckdb --clock table1.csv --clock-tolerance 1.5

      cuelog ingest season/logs --clock season/clocks/*.csv

      cuelog ingest fixed-final.jsonl --replace --json

      cuelog ingest day1/ --clock table1.csv --parquet archive/ --partitions 64

    With --parquet the logs of this run are loaded into a temporary database and written as a
    Parquet dataset (`cuelog export`); each batch of an archive adds its files, a match id
    the dataset holds from another log's content is refused unless --replace, and one it
    holds from the same log is left unchanged. The dataset keeps the clock logs, and after
    each batch its shot clock is what aligning every kept log with every stroke it holds
    gives (only the logs the batch can change are aligned again), so a clock may come in
    another batch than its strokes.
    """
    json_errors(as_json)
    logs, clocks_given = split_clock_csvs(expand_globs(paths, "PATHS"))
    if clocks_given and not as_json:
        err_console.print(
            f"note: read as shot-clock logs (as with --clock): {escape(', '.join(str(c) for c in clocks_given))}",
            highlight=False,
            soft_wrap=True,
        )
    clock = clock_files([*clock, *clocks_given])
    files = log_files(logs)
    if not files and not clock:
        fail("no log files (.jsonl, .jsonl.gz) under: " + ", ".join(str(p) for p in paths), "no_logs")
    with tempfile.TemporaryDirectory(prefix="cuelog-ingest-") as stage:
        target = Path(stage) / "stage.duckdb" if parquet is not None else db
        results, clocks, exported = _load(
            target, files, clock, clock_tolerance, replace, as_json, parquet, partitions, workers
        )
    problems = [p for r in results for p in r.problems] + [p for c in clocks for p in c.problems]
    rejected = any(r.status == "rejected" for r in results) or any(c.status == "rejected" for c in clocks)
    if as_json:
        doc = {
            "ok": not rejected,
            "db": str(db) if parquet is None else None,
            "parquet": exported,
            "files": [r.to_dict() for r in results],
            "clocks": [c.to_dict() for c in clocks],
        }
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
    else:
        print_summary(results, clocks, out_console())
        if exported is not None:
            out_console().print(
                f"wrote {exported['matches']} match(es) to {parquet} "
                f"({exported['partitions_written']} of {partitions} partitions)"
                + (
                    f"; {exported['unchanged']} unchanged (held already, from the same log)"
                    if exported["unchanged"]
                    else ""
                ),
                soft_wrap=True,
                markup=False,
            )
        if problems:
            print_problems(problems, as_json=False)
            rejected_paths = [r.path for r in results if r.status == "rejected"]
            rejected_paths += [c.path for c in clocks if c.status == "rejected"]
            err_console.print(
                f"[bold red]error:[/] rejected: {escape(', '.join(rejected_paths))}", highlight=False, soft_wrap=True
            )
    raise typer.Exit(EXIT_BAD_INPUT if rejected else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(ingest)
