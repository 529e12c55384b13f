"""``cuelog replay``: replay logs through the rules and report what the officials got wrong."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cuelog import __version__
from cuelog.cli.common import EXIT_FINDINGS, EXIT_OK, fail, print_problems
from cuelog.errors import InputError
from cuelog.ingest.reader import log_files, read_records
from cuelog.replay import NoEngine, UnknownRuleset, replay_matches
from cuelog.replay.model import MatchResult
from cuelog.replay.output import count_findings, document, dumps
from cuelog.schemas.records import Record


def load(paths: list[Path]) -> list[Record]:
    records: list[Record] = []
    for f in log_files(paths):
        records.extend(r for _, r in read_records(f))
    return records


def print_human(results: list[MatchResult], console: Console) -> None:
    for m in results:
        console.print(f"[bold]{m.match}[/]  {m.rules}  {m.sides.get('A', 'A')} v {m.sides.get('B', 'B')}")
        for fr in m.frames:
            rec = "-" if fr.recorded is None else f"{fr.recorded[0]}-{fr.recorded[1]}"
            console.print(
                f"  frame {fr.frame}: rules {fr.score[0]}-{fr.score[1]}, recorded {rec}, winner {fr.winner or '-'}"
            )
            if fr.findings:
                t = Table("stroke", "kind", "rule", "side", "points", "message", box=None, padding=(0, 1))
                for f in sorted(fr.findings, key=lambda f: f.sort_key()):
                    t.add_row(str(f.n), f.kind, f.rule, f.side or "-", str(f.points), f.message)
                console.print(t)
    console.print(f"{count_findings(results)} finding(s)")


def replay(
    paths: list[Path] = typer.Argument(..., help="Log files (.jsonl, .jsonl.gz) or directories."),
    as_json: bool = typer.Option(False, "--json", help="Print the cuelog-replay/1 JSON document."),
) -> None:
    """Replay stroke logs through the rules and list every finding.

    Exit code 0 when there are no findings, 1 when there are, 2 on unreadable input.

    Example: cuelog replay examples/snooker-officiating.jsonl --json
    """
    try:
        results = replay_matches(load(paths))
    except InputError as exc:
        print_problems(exc.problems, as_json=False)
        raise typer.Exit(2) from None
    except (UnknownRuleset, NoEngine, ValueError) as exc:
        fail(str(exc))
    if as_json:
        sys.stdout.write(dumps(document(results, __version__)))
    else:
        print_human(results, Console())
    raise typer.Exit(EXIT_FINDINGS if count_findings(results) else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(replay)
