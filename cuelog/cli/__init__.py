"""The ``cuelog`` command line: a thin Typer layer over the library.

One module per command; each exposes ``register(app)``. Exit codes: 0 ok, 1 findings,
2 bad input or usage.
"""

from __future__ import annotations

import importlib

import typer

from cuelog import __version__

app = typer.Typer(
    name="cuelog",
    help="Audit and statistics for cue sports: replay stroke logs through the official rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# The command modules, in the order --help lists them.
COMMANDS = ("demo", "simulate", "validate", "ingest", "matches", "schema", "replay", "rules", "diff", "report", "plot")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cuelog {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Audit and statistics for cue sports: replay stroke logs through the official rules."""


for _name in COMMANDS:
    importlib.import_module(f"cuelog.cli.{_name}").register(app)


def main() -> None:
    app()
