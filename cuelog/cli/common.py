"""Helpers shared by the commands: error output and exit codes."""

from __future__ import annotations

import json
import sys
from typing import NoReturn

import typer
from rich.console import Console
from rich.table import Table

from cuelog.errors import Problem

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2

err_console = Console(stderr=True)


def fail(message: str) -> NoReturn:
    """Print an error to stderr and exit with code 2."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def print_problems(problems: list[Problem], as_json: bool) -> None:
    """Problems as JSON on stdout, or as a table on stderr."""
    if as_json:
        sys.stdout.write(
            json.dumps({"valid": not problems, "problems": [p.to_dict() for p in problems]}, indent=1) + "\n"
        )
        return
    table = Table("file", "line", "field", "code", "found", "expected", title="problems")
    for p in problems:
        table.add_row(p.file, str(p.line), p.field, p.code, p.found, p.expected)
    err_console.print(table)
