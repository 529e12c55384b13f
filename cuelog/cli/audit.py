"""``cuelog audit``: one match's audit report as a self-contained HTML page (and PDF).

The match comes from log files (like ``cuelog replay``) or from a cuelog database
(``--db``); either way it is replayed afresh, so the report shows the facts, the recorded
calls and the due calls of every stroke a finding names.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from cuelog.cli.common import EXIT_FINDINGS, EXIT_OK, expand_globs, fail, json_errors, print_problems
from cuelog.errors import InputError

if TYPE_CHECKING:
    from cuelog.analytics.audit_report import Audit


def _check_at(at: str | None) -> None:
    if at is None:
        return
    try:
        datetime.fromisoformat(at)
    except ValueError:
        fail(f"--at {at!r}: expected an ISO 8601 date or time, e.g. 2026-05-01 or 2026-05-01T18:00:00Z")


def _load(paths: list[Path], db: Path | None, match: str | None, fixes: list[Path], frames: list[int] | None) -> Audit:
    from cuelog.cli.audit_source import audit_from_db, audit_from_records, read_logs
    from cuelog.ingest.corrections import read_corrections

    located = [item for path in fixes for item in read_corrections(path)]
    if db is None:
        return audit_from_records(read_logs(paths), match, located, frames)
    from cuelog.store import connect

    if not db.exists():
        fail(f"no database at {db}; load logs first with `cuelog ingest LOGS --db {db}`", "no_database")
    if match is None:
        fail("with --db, name the match to report with --match ID (`cuelog matches` lists them)")
    try:
        con = connect(db, read_only=True)
    except Exception as exc:  # duckdb raises its own IOException family for a non-database file
        fail(f"cannot open {db} as a cuelog database: {exc}", "bad_database")
    try:
        return audit_from_db(con, match, located if fixes else None, frames, db=str(db))
    finally:
        con.close()


def _write(text: str, out: Path, pdf: Path | None) -> int | None:
    """Write the page, and print it to PDF when asked; the PDF's number of pages."""
    from cuelog.analytics.audit_report import write_pdf

    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc}", "cannot_write")
    if pdf is None:
        return None
    try:
        return write_pdf(text, pdf)
    except OSError as exc:
        fail(f"cannot write {pdf}: {exc}", "cannot_write")


def audit(
    paths: list[Path] | None = typer.Argument(
        None, help="Log files (.jsonl, .jsonl.gz), directories or quoted globs ('logs/*.jsonl', sorted)."
    ),
    db: Path | None = typer.Option(None, "--db", help="Report a match loaded in this cuelog database."),
    match: str | None = typer.Option(
        None, "--match", help="The match id (needed with --db or logs of several matches)."
    ),
    frames: list[int] | None = typer.Option(None, "--frame", min=1, help="Only this frame (repeatable)."),
    out: Path = typer.Option(..., "--out", help="The HTML file to write."),
    pdf: Path | None = typer.Option(None, "--pdf", help="Also print the report to this PDF file (needs cuelog[pdf])."),
    rulebooks: list[Path] | None = typer.Option(
        None,
        "--rulebook",
        help="The rule book's text (UTF-8): each finding quotes the paragraph it cites (repeatable).",
    ),
    at: str | None = typer.Option(
        None, "--at", help="Date the report (ISO 8601). Default: the last time the log records."
    ),
    paper: str = typer.Option("a4", "--paper", help="Printed page size: a4 or letter."),
    corrections: list[Path] | None = typer.Option(
        None,
        "--corrections",
        help="Officials' corrections (JSONL) applied first; with --db the ones stored by the last replay by default.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print what was written as JSON."),
) -> None:
    """Write one match's audit report: a self-contained HTML page to read, print and file.

    A header (event, players, referee, ruleset, when made), a summary (scores per frame,
    findings by kind, corrections applied), and per frame the score worm with the findings
    marked and every finding beside the stroke's facts, the recorded calls and the due
    calls. With --rulebook the cited paragraph is quoted. Exit code 0 when the match has
    no findings, 1 when it has, 2 on bad input.

    Examples: cuelog audit examples/snooker-officiating.jsonl --out report.html;
    cuelog audit --db cuelog.duckdb --match uk-2026-r1-07 --frame 3 --out f3.html --pdf f3.pdf
    """
    from cuelog.analytics.audit_report import NoSuchFrame, PdfUnavailable, count_findings, pdf_library, render
    from cuelog.analytics.rulebook import RuleBook, RuleBookError
    from cuelog.cli.audit_source import NoSuchMatch
    from cuelog.replay import NoEngine, UnknownRuleset

    json_errors(as_json)
    if db is not None and paths:
        fail("give log files or --db, not both")
    if db is None and not paths:
        fail("give log files, or --db FILE --match ID")
    if paper not in ("a4", "letter"):
        fail(f"--paper {paper!r}: expected a4 or letter")
    _check_at(at)
    if pdf is not None:
        try:
            pdf_library()
        except PdfUnavailable as exc:
            fail(str(exc), "pdf_unavailable")
    try:
        books = [RuleBook.read(p) for p in rulebooks or []]
        report = _load(
            expand_globs(paths or [], "PATHS"), db, match, corrections or [], sorted(set(frames)) if frames else None
        )
        text = render(report, at=at, rulebooks=books, paper=paper)
    except InputError as exc:
        print_problems(exc.problems, as_json=as_json)
        raise typer.Exit(2) from None
    except NoSuchMatch as exc:
        fail(str(exc), "unknown_match")
    except NoSuchFrame as exc:
        fail(str(exc), "bad_selection")
    except (UnknownRuleset, NoEngine) as exc:
        fail(str(exc).strip("'\""), "unknown_rules")
    except (RuleBookError, ValueError) as exc:
        fail(str(exc), "bad_input")
    pages = _write(text, out, pdf)
    findings = count_findings(report)
    done = {
        "match": report.match.match,
        "html": str(out),
        "pdf": str(pdf) if pdf else None,
        "pages": pages,
        "frames": [fr.frame for fr in report.chosen()],
        "findings": findings,
    }
    if as_json:
        sys.stdout.write(json.dumps(done, indent=1) + "\n")
    else:
        typer.echo(f"wrote {out}" + (f" and {pdf} ({pages} pages)" if pdf else "") + f": {findings} finding(s)")
    raise typer.Exit(EXIT_FINDINGS if findings else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(audit)
