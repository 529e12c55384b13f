"""Helpers shared by the commands: error output and exit codes."""

from __future__ import annotations

import json
import sys
from typing import NoReturn

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cuelog.errors import Problem

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2

err_console = Console(stderr=True)


def fail(message: str) -> NoReturn:
    """Print an error to stderr and exit with code 2."""
    # The message may carry what a log or a path supplied: escaped, never read as markup.
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def folded_table(*columns: str, title: str | None = None, whole: tuple[str, ...] = ()) -> Table:
    """A compact table whose cells wrap instead of being cut short; ``whole`` columns never wrap."""
    table = Table(title=title, box=box.SIMPLE_HEAD, padding=(0, 1))
    for name in columns:
        table.add_column(name, overflow="fold", no_wrap=name in whole)
    return table


def print_problems(problems: list[Problem], as_json: bool) -> None:
    """Problems as JSON on stdout, or as a table on stderr."""
    if as_json:
        sys.stdout.write(
            json.dumps({"valid": not problems, "problems": [p.to_dict() for p in problems]}, indent=1) + "\n"
        )
        return
    # One table per file, the path printed whole above it: a path is useless cut short.
    by_file: dict[str, list[Problem]] = {}
    for p in problems:
        by_file.setdefault(p.file, []).append(p)
    for file, group in by_file.items():
        err_console.print(f"[bold]{file}[/]: {len(group)} problem(s)", highlight=False, soft_wrap=True)
        table = folded_table("line", "field", "code", "found", "expected")
        for p in group:
            table.add_row(str(p.line), p.field, p.code, p.found, p.expected)
        err_console.print(table)
