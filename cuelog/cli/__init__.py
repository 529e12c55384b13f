"""The ``cuelog`` command line: a thin Typer layer over the library.

One module per command; each exposes ``register(app)``. Exit codes: 0 ok, 1 findings,
2 bad input or usage.

A command's module is imported only when that command runs: ``cuelog --help`` lists every
command from :data:`COMMANDS` (the first paragraph of each one's help), so that no command
pays for the imports of the others (Polars, matplotlib, DuckDB, the engines).
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
from typing import Any, Final

import typer
from typer._click.core import Command, Context
from typer._click.exceptions import UsageError
from typer.core import TyperCommand, TyperGroup

from cuelog import __version__
from cuelog.cli.common import error_document, json_errors

# The commands, in the order --help lists them (the ``rules`` group last, as Typer lists
# groups), each with the first paragraph of its help (tests/test_command_startup.py holds
# them to the commands' own). Each is defined by the module ``cuelog.cli.<name>``.
COMMANDS: Final = {
    "demo": (
        "Simulate a small season of snooker and billiards with officiating errors, load it with "
        "the bundled examples and the shot clocks into DuckDB, replay every stroke through the "
        "rules, and print the audit summary and headline statistics; plots and the audit report "
        "of the match with the most findings go to --out."
    ),
    "simulate": "Simulate a season of matches with officiating errors injected at a chosen rate.",
    "validate": (
        "Check stroke logs: JSON types, then meaning (rules, balls, spots, order, numbering, sides, scores, times)."
    ),
    "ingest": "Validate and load stroke logs (and shot-clock CSVs) into DuckDB, one file per transaction.",
    "matches": "List the loaded matches: id, rules, sides, event, frames, strokes, strokes with a shot time.",
    "schema": "Print the cuelog/1 JSON Schema (draft 2020-12) for every record type.",
    "replay": "Replay stroke logs through the rules and list every finding.",
    "watch": "Follow a stroke log as it grows and print each finding as soon as its record arrives.",
    "audit": "Write one match's audit report: a self-contained HTML page to read, print and file.",
    "diff": "Replay every selected frame under two rulesets and report what changes.",
    "report": "Statistics from the replayed strokes (not the recorded calls), per player, match or event.",
    "plot": "Draw a picture of the replay results as PNG.",
    "export": "Write the loaded matches (records, strokes, aligned shot clock) as a Parquet dataset.",
    "rules": "The rulesets and their parameters: each with its rule citation and meaning.",
}


class _Listed(TyperCommand):
    """A command as ``--help`` lists it: its name and help, its module not yet imported."""


def load(name: str) -> Command:
    """The command ``name`` as its module defines it (importing the module), its help
    :func:`reflowed`."""
    commands = typer.Typer()
    importlib.import_module(f"cuelog.cli.{name}").register(commands)
    command = typer.main.get_group(commands).commands[name]
    command.help = reflowed(command.help or "")
    return command


def reflowed(doc: str) -> str:
    """A command's help with each paragraph of prose on one line, for the terminal to wrap
    (Typer keeps a docstring's line breaks, and wrapped again they leave ragged lines);
    a paragraph with an indented line or a list item (examples, lists) stays line by line."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(
        p if any(line.startswith((" ", "- ", "* ", "|")) for line in p.splitlines()) else " ".join(p.split("\n"))
        for p in paragraphs
    )


class _Commands(TyperGroup):
    """The command group: each command listed by name and loaded when it runs; a usage
    error of a command given ``--json`` also prints a JSON error document."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        for name, text in COMMANDS.items():
            self.commands.setdefault(name, _Listed(name, help=text))

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if name is not None and isinstance(command, _Listed):
            command = self.commands[name] = load(name)
        return name, command, rest

    def invoke(self, ctx: Context) -> Any:
        wants_json = "--json" in [*ctx._protected_args, *ctx.args]
        try:
            return super().invoke(ctx)
        except UsageError as exc:
            if wants_json:
                sys.stdout.write(json.dumps(error_document("usage", exc.format_message()), indent=1) + "\n")
            raise


app = typer.Typer(
    cls=_Commands,
    name="cuelog",
    help="Audit and statistics for cue sports: replay stroke logs through the official rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from cuelog.replay import compiled  # only for --version: whether the engines run compiled

        typer.echo(f"cuelog {__version__} (engines: {compiled.describe()})")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Audit and statistics for cue sports: replay stroke logs through the official rules."""
    json_errors(False)


def main() -> None:
    app()
