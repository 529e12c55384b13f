"""``cuelog watch``: follow a log as it is written and flag each error while it can be put right."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import typer

from cuelog.cli.common import EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK, fail, json_errors, print_problems
from cuelog.errors import InputError
from cuelog.ingest.clock import DEFAULT_TOLERANCE_S
from cuelog.live.messages import Message
from cuelog.live.render import json_line, text
from cuelog.live.run import POLL_S, SETTLE_S
from cuelog.live.run import watch as follow


def _printer(as_json: bool) -> Callable[[Message], None]:
    def emit(m: Message) -> None:
        sys.stdout.write((json_line(m) if as_json else text(m)) + "\n")
        sys.stdout.flush()

    return emit


def watch(
    log: Path = typer.Argument(..., help="The log file a match recorder is appending to (.jsonl)."),
    clock: Path | None = typer.Option(
        None,
        "--clock",
        help="Shot-clock device log (CSV, docs/format.md section 5): shot times aligned as ingest does.",
    ),
    clock_tolerance: float = typer.Option(
        DEFAULT_TOLERANCE_S,
        "--clock-tolerance",
        min=0.0,
        help="Seconds a clock stop may be from its stroke (as ingest).",
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line (JSON Lines) for a scoreboard."),
    due: bool = typer.Option(False, "--due", help="Also state the due call of every stroke (the engine's Outcome)."),
    until_end: bool = typer.Option(False, "--until-end", help="Stop when the match is over."),
    settle: float = typer.Option(
        SETTLE_S,
        "--settle",
        min=0.0,
        help="With --until-end and no best_of in the match record: seconds of quiet after a frame's end that end the match.",
    ),
) -> None:
    """Follow a stroke log as it grows and print each finding as soon as its record arrives.

    Each finding gives the stroke, the rule, what is due ("FOUL: 6 to Player B, free ball
    due") and whether it can still be put right. A later record that changes an earlier
    judgment prints a correction naming it. A bad line is reported with its line number
    and the watch goes on. Stops on Ctrl-C, or with --until-end when the match is over.
    Exit code 1 when findings stand, 0 when none, 2 when a line could not be read.

    Example: cuelog watch match.jsonl --due --until-end
    """
    json_errors(as_json)
    if log.is_dir():
        fail(f"{log} is a directory; give the log file the recorder appends to", "usage")
    live_clock = None
    if clock is not None:
        from cuelog.live.clock import LiveClock  # the CSV reader brings Polars and DuckDB

        try:
            live_clock = LiveClock(clock, clock_tolerance)
        except InputError as exc:
            print_problems(exc.problems, as_json=as_json)
            raise typer.Exit(EXIT_BAD_INPUT) from None
    summary = follow(
        log, _printer(as_json), due=due, until_end=until_end, clock=live_clock, poll_s=POLL_S, settle_s=settle
    )
    if summary.problems:
        raise typer.Exit(EXIT_BAD_INPUT)
    raise typer.Exit(EXIT_FINDINGS if summary.findings else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(watch)
