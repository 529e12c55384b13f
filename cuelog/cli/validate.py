"""``cuelog validate``: check logs against cuelog/1 without a database."""

from __future__ import annotations

from pathlib import Path

import typer

from cuelog.cli.common import EXIT_BAD_INPUT, EXIT_OK, err_console, fail, json_errors, print_problems
from cuelog.ingest.reader import log_files
from cuelog.ingest.validate import validate_paths


def validate(
    paths: list[Path] = typer.Argument(
        ..., help="Log files (.jsonl, .jsonl.gz) or directories (searched recursively)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the problems as JSON on stdout."),
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
    if not log_files(paths):
        fail("no log files (.jsonl, .jsonl.gz) under: " + ", ".join(str(p) for p in paths), "no_logs")
    problems = validate_paths(paths)
    if as_json or problems:
        print_problems(problems, as_json)
    if not as_json:
        files = len({p.file for p in problems})
        verdict = f"{len(problems)} problem(s) in {files} file(s)" if problems else "valid"
        err_console.print(f"{len(log_files(paths))} file(s) checked: {verdict}", highlight=False)
    raise typer.Exit(EXIT_BAD_INPUT if problems else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(validate)
