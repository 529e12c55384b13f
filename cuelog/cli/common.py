"""Helpers shared by the commands: error output and exit codes."""

from __future__ import annotations

import contextlib
import glob
import json
import sys
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cuelog.analytics import plain
from cuelog.errors import Problem

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2

PIPE_WIDTH = 1000
"""Columns for output that goes to a file or a pipe: lines as long as their content, never cut at 80."""


def _width(stream: TextIO) -> int | None:
    try:
        return None if stream.isatty() else PIPE_WIDTH
    except (AttributeError, ValueError):
        return PIPE_WIDTH


def out_console() -> Console:
    """The console for a command's human output on stdout: the terminal's width, or unbounded when piped."""
    return Console(highlight=False, width=_width(sys.stdout))


err_console = Console(stderr=True, width=_width(sys.stderr))


def stderr_progress(label: str, *columns: ProgressColumn, quiet: bool = False) -> Progress:
    """A progress bar on stderr: ``label``, the bar, then ``columns``; gone once done, and
    shown only on a terminal (not with ``quiet``), so that stdout and a log stay as they are."""
    from rich.progress import BarColumn, Progress, TextColumn  # with the commands that show one

    return Progress(
        TextColumn(label),
        BarColumn(),
        *columns,
        console=err_console,
        transient=True,
        disable=quiet or not err_console.is_terminal,
    )


_json_errors: ContextVar[bool] = ContextVar("cuelog_json_errors", default=False)


def json_errors(as_json: bool) -> None:
    """Say whether this command's errors are also printed as a JSON document on stdout (``--json``).

    The root callback resets it for every command, so that one command's ``--json`` never
    carries over to the next in the same process.
    """
    _json_errors.set(as_json)


def error_document(code: str, message: str) -> dict[str, object]:
    """The JSON document every command prints on stdout when it fails with ``--json``."""
    return {"ok": False, "error": {"code": code, "message": message}}


def fail(message: str, code: str = "usage") -> NoReturn:
    """Print an error to stderr (and, with ``--json``, a JSON error document on stdout) and exit with code 2.

    ``code`` is stable, for scripts: ``usage``, ``no_logs``, ``no_database``, ``bad_database``,
    ``unknown_match``, ``unknown_report``, ``bad_selection``, ``unknown_rules``, ``cannot_write``,
    ``nothing_to_plot``, ``no_matches``, ``replay_failed``, ``bad_input``, ``pdf_unavailable``,
    ``missing_extra`` (an optional dependency not installed).
    """
    if _json_errors.get():
        sys.stdout.write(json.dumps(error_document(code, message), indent=1, ensure_ascii=False) + "\n")
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_BAD_INPUT)


@contextlib.contextmanager
def replay_refusals() -> Iterator[None]:
    """The store's and the replay's refusals (no matches chosen, an unknown match, a match
    that cannot be replayed) reported as every command reports them: exit 2, a stable code."""
    from cuelog.pipeline import ReplayFailed
    from cuelog.store.reads import NoMatches, UnknownMatch

    try:
        yield
    except NoMatches as exc:
        fail(str(exc), "no_matches")
    except UnknownMatch as exc:
        fail(str(exc), "unknown_match")
    except ReplayFailed as exc:
        fail(str(exc), "replay_failed")


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
        err_console.print(f"[bold]{escape(file)}[/]: {len(group)} problem(s)", highlight=False, soft_wrap=True)
        # Line 0: the problem belongs to no line (a missing file, a frame's end-of-file check).
        # Every cell may quote the input (a field path holds a log's keys): plain text in one
        # pass, escaped for the terminal (a rich table of 20,000 problems took 16 s to lay out).
        rows = ((str(p.line) if p.line else "-", p.field, p.code, p.found, p.expected) for p in group)
        err_console.file.write(plain.table(("line", "field", "code", "found", "expected"), rows))


GLOB_CHARS = frozenset("*?[")


def expand_globs(paths: Iterable[Path], option: str) -> list[Path]:
    """Quoted globs (``'logs/*.jsonl'``, ``--clock 'clocks/*.csv'``: the shell left them
    whole) as the paths they match, sorted, in the order given; a path that exists is
    itself, whatever its name holds. A pattern that matches nothing is a usage error
    naming it (exit code 2): it would otherwise read as one missing file."""
    out: list[Path] = []
    for pattern in paths:
        if pattern.exists() or not GLOB_CHARS & set(str(pattern)):
            out.append(pattern)
            continue
        found = sorted(Path(q) for q in glob.glob(str(pattern), recursive=True))
        if not found:
            fail(f"{option} {pattern}: no file matches this pattern", "no_logs")
        out.extend(found)
    return out
