"""The ``cuelog`` command line: a thin Typer layer over the library.

One module per command; each exposes ``register(app)``. Exit codes: 0 ok, 1 findings,
2 bad input or usage.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import typer
from typer._click.core import Context
from typer._click.exceptions import UsageError
from typer.core import TyperGroup

from cuelog import __version__
from cuelog.cli.common import error_document, json_errors


class _Commands(TyperGroup):
    """The command group: a usage error of a command given ``--json`` also prints a JSON error document."""

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

# The command modules, in the order --help lists them.
COMMANDS = (
    "demo",
    "simulate",
    "validate",
    "ingest",
    "matches",
    "schema",
    "replay",
    "watch",
    "audit",
    "rules",
    "diff",
    "report",
    "plot",
    "export",
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


for _name in COMMANDS:
    importlib.import_module(f"cuelog.cli.{_name}").register(app)


def main() -> None:
    app()
