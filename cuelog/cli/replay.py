"""``cuelog replay``: replay logs through the rules and report what the officials got wrong.

Two sources: log files given on the command line, or (``--db``) the matches loaded in a
cuelog database, whose results are then stored in its ``replay_*`` tables for the reports.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cuelog import __version__
from cuelog.cli.common import EXIT_FINDINGS, EXIT_OK, err_console, fail, print_problems
from cuelog.errors import InputError
from cuelog.ingest.corrections import Located, apply_corrections, read_corrections
from cuelog.ingest.reader import log_files, read_records
from cuelog.replay import NoEngine, UnknownRuleset, replay_matches
from cuelog.replay.derived import Derived, under
from cuelog.replay.model import Finding, MatchResult
from cuelog.replay.output import count_findings, document, dumps
from cuelog.rulesfile import resolve_rules
from cuelog.schemas.records import Correction, Match, Record


def load(paths: list[Path]) -> list[Record]:
    records: list[Record] = []
    for f in log_files(paths):
        records.extend(r for _, r in read_records(f))
    return records


def _score(score: tuple[int, int] | None) -> str:
    return "-" if score is None else f"{score[0]}-{score[1]}"


def findings_table(findings: list[Finding], title: str | None = None) -> Table:
    """Findings as a table: stroke, kind, rule, side, points, message."""
    t = Table(title=title, box=box.SIMPLE_HEAD, padding=(0, 1), title_justify="left")
    t.add_column("stroke", justify="right")
    t.add_column("kind")
    t.add_column("rule")
    t.add_column("side", justify="center")
    t.add_column("points", justify="right")
    t.add_column("message", overflow="fold")
    for f in sorted(findings, key=Finding.sort_key):
        t.add_row(str(f.n), f.kind, f.rule, f.side or "-", str(f.points), f.message)
    return t


def print_human(results: list[MatchResult], console: Console) -> None:
    for m in results:
        console.print(
            f"[bold]{m.match}[/]  {m.rules}  {m.sides.get('A', 'A')} v {m.sides.get('B', 'B')}", highlight=False
        )
        if m.findings:
            console.print(findings_table(m.findings, "  match"))
        for fr in m.frames:
            console.print(
                f"  frame {fr.frame}: official {_score(fr.score)}, recorded {_score(fr.recorded)}, "
                f"winner {fr.winner or '-'}",
                highlight=False,
            )
            if fr.findings:
                console.print(findings_table(fr.findings))
    console.print(f"{count_findings(results)} finding(s)", highlight=False)


def _replay_files(paths: list[Path], corrections: list[Located], rules: str | Derived | None) -> list[MatchResult]:
    records = load(paths)
    if rules is not None:
        records = [under(r, rules) if isinstance(r, Match) else r for r in records]
    applied: list[Correction] = []
    if corrections:
        records, applied = apply_corrections(records, corrections)
    results = replay_matches(records)
    for m in results:
        m.corrections = [c for c in applied if c.match == m.match]
    return results


def _replay_db(
    db: Path, matches: list[str], workers: int | None, corrections: list[Located], rules: str | Derived | None
) -> list[MatchResult]:
    # Imported here: the DuckDB/Arrow side is only needed with --db.
    from cuelog.analytics.results import NoMatches, ReplayFailed, UnknownMatch, replay_db
    from cuelog.store import connect

    if not db.exists():
        fail(f"no database at {db}; load logs first with `cuelog ingest LOGS --db {db}`")
    try:
        con = connect(db)
    except Exception as exc:  # duckdb raises its own IOException family for a non-database file
        fail(f"cannot open {db} as a cuelog database: {exc}")
    bar = Progress(
        TextColumn("replaying"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    )
    task = bar.add_task("replay", total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    try:
        with bar:
            return replay_db(con, matches or None, workers, advance, corrections, rules=rules)
    except (NoMatches, UnknownMatch, ReplayFailed) as exc:
        fail(str(exc))
    finally:
        con.close()


def replay(
    paths: list[Path] | None = typer.Argument(None, help="Log files (.jsonl, .jsonl.gz) or directories."),
    db: Path | None = typer.Option(
        None, "--db", help="Replay the matches loaded in this database and store the results in it."
    ),
    matches: list[str] | None = typer.Option(
        None, "--match", help="With --db: replay only this match id (repeatable). Default: every loaded match."
    ),
    workers: int | None = typer.Option(
        None, "--workers", min=1, help="With --db: worker processes (default: every core). Output is the same."
    ),
    corrections: list[Path] | None = typer.Option(
        None,
        "--corrections",
        help="Officials' corrections (JSONL, FORMAT.md section 6) applied before the replay (repeatable).",
    ),
    rules: str | None = typer.Option(
        None,
        "--rules",
        help="Replay under this ruleset (an id or a ruleset file, same discipline) instead of the "
        "recorded one; with --db nothing is stored.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the cuelog-replay/1 JSON document."),
) -> None:
    """Replay stroke logs through the rules and list every finding.

    Give log files, or --db to replay every loaded match and store per-stroke outcomes,
    frame results, breaks and findings for `cuelog report`.
    Exit code 0 when there are no findings, 1 when there are, 2 on unreadable input.

    Corrections change strokes before the replay without editing the log; the ones applied
    are listed in the JSON document under each match.

    Examples: cuelog replay examples/snooker-officiating.jsonl --json;
    cuelog replay --db cuelog.duckdb --workers 4 --corrections fixes.jsonl;
    cuelog replay --db cuelog.duckdb --rules draft.toml
    """
    if db is not None and paths:
        fail("give log files or --db, not both")
    if db is None and not paths:
        fail("give log files to replay, or --db FILE to replay the loaded matches")
    if db is None and (matches or workers is not None):
        fail("--match and --workers need --db")
    try:
        chosen = resolve_rules(rules) if rules is not None else None
        fixes = [item for path in corrections or [] for item in read_corrections(path)]
        if db is not None:
            results = _replay_db(db, matches or [], workers, fixes, chosen)
        else:
            results = _replay_files(paths or [], fixes, chosen)
    except InputError as exc:
        print_problems(exc.problems, as_json=as_json)
        raise typer.Exit(2) from None
    except (UnknownRuleset, NoEngine, ValueError) as exc:
        fail(str(exc))
    if as_json:
        sys.stdout.write(dumps(document(results, __version__)))
    else:
        print_human(results, Console(highlight=False))
    raise typer.Exit(EXIT_FINDINGS if count_findings(results) else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(replay)
