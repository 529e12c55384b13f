"""``cuelog validate``: check logs against cuelog/1 without a database."""

from __future__ import annotations

from pathlib import Path

import typer

from cuelog.cli.common import EXIT_BAD_INPUT, EXIT_OK, err_console, expand_globs, fail, json_errors, print_problems
from cuelog.errors import Problem
from cuelog.ingest.files import validate_part, validate_paths
from cuelog.ingest.reader import is_clock_csv, log_files
from cuelog.ingest.workers import workers_for

PARALLEL_BYTES = 24 << 20
"""Logs below this size in all are checked by this process alone (measured:
benchmarks/README.md, "validate and replay LOGS with workers")."""


def validate(
    paths: list[Path] = typer.Argument(
        ...,
        help="Log files (.jsonl, .jsonl.gz), directories (searched recursively) or quoted globs; .csv files are checked as shot-clock logs.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the problems as JSON on stdout."),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        help="Worker processes checking the logs (default: 1, or one per idle core for 24 MB of logs "
        "or more). The problems are the same.",
    ),
) -> None:
    """Check stroke logs: JSON types, then meaning (rules, balls, spots, order, numbering, sides, scores, times).

    Every problem is reported, with file, line, field, a stable code, what was found and
    what was expected; a bad line does not stop the lines after it from being checked.
    Exit code 0 when every file is valid, 2 otherwise.

    Examples:

      cuelog validate examples/

      cuelog validate match.jsonl.gz --json
    """
    json_errors(as_json)
    paths = expand_globs(paths, "PATHS")
    csvs = [p for p in paths if is_clock_csv(p)]
    logs = [p for p in paths if not is_clock_csv(p)]
    files = log_files(logs)
    if not files and not csvs:
        fail("no log files (.jsonl, .jsonl.gz) under: " + ", ".join(str(p) for p in paths), "no_logs")
    # A CSV is a shot-clock device log (docs/format.md section 5): checked as one, not as JSON.
    with workers_for(files, workers, validate_part.__module__, parallel_bytes=PARALLEL_BYTES, large_logs=False) as n:
        problems = validate_paths(files, workers=n) + _clock_problems(csvs)
    if as_json or problems:
        print_problems(problems, as_json)
    if not as_json:
        bad = len({p.file for p in problems})
        verdict = f"{len(problems)} problem(s) in {bad} file(s)" if problems else "valid"
        err_console.print(f"{len(files) + len(csvs)} file(s) checked: {verdict}", highlight=False)
    raise typer.Exit(EXIT_BAD_INPUT if problems else EXIT_OK)


def _clock_problems(csvs: list[Path]) -> list[Problem]:
    """The shot-clock CSVs' problems; their reader (and what it imports) loads only when
    there are CSVs to check, so that checking logs alone starts quickly."""
    if not csvs:
        return []
    from cuelog.ingest.clock import read_clock_csv

    return [p for c in csvs for p in read_clock_csv(c)[2]]


def register(app: typer.Typer) -> None:
    app.command()(validate)
