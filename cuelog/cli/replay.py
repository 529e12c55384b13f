"""``cuelog replay``: replay logs through the rules and report what the officials got wrong.

Two sources: log files given on the command line, or (``--db``) the matches loaded in a
cuelog database, whose results are then stored in its ``replay_*`` tables for the reports.
"""

from __future__ import annotations

import json
import pickle
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Final

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from cuelog import __version__, logreplay
from cuelog.analytics.words import kind_words
from cuelog.cli import plain
from cuelog.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    err_console,
    expand_globs,
    fail,
    json_errors,
    out_console,
    print_problems,
    replay_refusals,
)
from cuelog.cli.plain import Justify
from cuelog.errors import InputError
from cuelog.ingest.corrections import Located, read_corrections
from cuelog.ingest.reader import is_clock_csv, log_files
from cuelog.replay import NoEngine, UnknownRuleset
from cuelog.replay.derived import Derived
from cuelog.replay.model import Finding, FrameResult, MatchResult
from cuelog.replay.output import count_findings, document_head, document_tail, match_text, rack_words
from cuelog.rulesfile import resolve_rules
from cuelog.schemas.rulesets import won_by_rack


def _score(score: tuple[int, int] | None) -> str:
    return "-" if score is None else f"{score[0]}-{score[1]}"


_COLUMNS: Final[tuple[tuple[str, Justify], ...]] = (
    ("stroke", "right"),
    ("finding", "left"),
    ("kind", "left"),
    ("rule", "left"),
    ("side", "center"),
    ("points", "right"),
    ("message", "left"),
)


def findings_text(findings: list[Finding], title: str | None = None) -> str:
    """Findings as an aligned table: stroke, what was wrong (in words, with its kind), rule,
    side, points, message (and, for uncertain findings, the fact that would excuse the
    call). Plain text in one pass (:mod:`cuelog.cli.plain`): a message may quote a
    recorded name, so every cell is escaped, never read as markup."""
    uncertain = any(not f.certain for f in findings)
    columns = [*_COLUMNS, ("unless", "left")] if uncertain else list(_COLUMNS)
    rows = []
    for f in sorted(findings, key=Finding.sort_key):
        row = [str(f.n), kind_words(f.kind), f.kind, f.rule, f.side or "-", str(f.points), f.message]
        rows.append([*row, f.unless or "-"] if uncertain else row)
    text = plain.table([c for c, _ in columns], rows, [j for _, j in columns])
    return (plain.terminal_text(title) + "\n" + text) if title is not None else text


def _print_findings(findings: list[Finding], out: IO[str], title: str | None = None) -> None:
    """Certain findings first; those one unrecorded fact could excuse in a section of their own."""
    certain = [f for f in findings if f.certain]
    uncertain = [f for f in findings if not f.certain]
    if certain:
        out.write(findings_text(certain, title))
    if uncertain:
        out.write(findings_text(uncertain, f"{title or ' '} uncertain (not counted)"))


def _corrections(m: MatchResult) -> list[str]:
    """One line per officials' correction applied before the replay: stroke, fields set, note."""
    out = []
    for c in sorted(m.corrections, key=lambda c: (c.frame, c.n)):
        fields = ", ".join(f"{name} = {json.dumps(value, ensure_ascii=False)}" for name, value in sorted(c.set.items()))
        note = f" ({c.note})" if c.note else ""
        out.append(f"  correction applied: frame {c.frame} stroke {c.n}: {fields}{note}")
    return out


def _frame_line(fr: FrameResult) -> str:
    # A frame with no winner by the rules has not ended in the log (no frame_end, or a
    # log cut short): said in words, not left as a dash (docs/format.md section 4).
    result = f"winner {fr.winner}" if fr.winner else "not finished (no winner by the rules)"
    return f"  frame {fr.frame}: official {_score(fr.score)}, recorded {_score(fr.recorded)}, {result}"


def _rack_line(fr: FrameResult) -> str:
    return f"  frame {fr.frame}: {rack_words(fr.winner, fr.recorded_winner, fr.recorded)}"


def print_match(m: MatchResult, console: Console) -> None:
    """One match: its header, corrections applied, findings outside any frame, each frame.
    Written as plain lines (the header in bold on a terminal), every log-supplied text
    escaped for the terminal: no rich layout per line, so a season prints in linear time."""
    out = console.file
    sides = f"{m.sides.get('A', 'A')} v {m.sides.get('B', 'B')}"
    head = plain.terminal_text(f"{m.match}  {m.rules}  {sides}")
    if console.is_terminal:
        console.print(Text(m.match, style="bold") + Text(head[len(m.match) :]), highlight=False)
    else:
        out.write(head + "\n")
    lines = [plain.terminal_text(line) for line in _corrections(m)]
    out.write("".join(line + "\n" for line in lines))
    if m.findings:
        _print_findings(m.findings, out, "  match")
    said = _rack_line if won_by_rack(m.rules) else _frame_line
    for fr in m.frames:
        out.write(plain.terminal_text(said(fr)) + "\n")
        if fr.findings:
            _print_findings(fr.findings, out)


def print_human(results: list[MatchResult], console: Console) -> None:
    with Output(as_json=False, console=console) as out:
        out.add(results)
        out.finish()


class Output:
    """The replay's output, written as the results come (in match id order): the text match
    by match on the console; the JSON document spooled to a temporary file and copied to
    stdout by :meth:`finish`, so a replay that fails half way prints an error document, not
    half a document. Only the totals are kept. A context manager: leaving it removes the spool."""

    def __init__(self, *, as_json: bool, console: Console | None = None) -> None:
        self._console = console
        self._json: IO[str] | None = None
        self._as_json = as_json
        self._matches = 0
        self.findings = self._uncertain = self._applied = 0

    def __enter__(self) -> Output:
        if not self._as_json and self._console is None:
            self._console = out_console()
        if self._as_json:
            self._json = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
            self._json.write(document_head(__version__))
        return self

    def __exit__(self, *_: object) -> None:
        if self._json is not None:
            self._json.close()

    def add(self, results: list[MatchResult]) -> None:
        self.findings += count_findings(results)
        self._uncertain += count_findings(results, certain=False)
        self._applied += sum(len(m.corrections) for m in results)
        for m in results:
            if self._json is not None:
                self._json.write(match_text(m, first=self._matches == 0))
            else:
                print_match(m, self._console or out_console())
            self._matches += 1

    def finish(self) -> None:
        """The totals line, or the whole JSON document on stdout."""
        if self._json is None:
            tail = (f", {self._uncertain} uncertain" if self._uncertain else "") + (
                f", {self._applied} correction(s) applied" if self._applied else ""
            )
            (self._console or out_console()).print(f"{self.findings} finding(s){tail}", highlight=False)
            return
        self._json.write(document_tail(empty=self._matches == 0))
        self._json.seek(0)
        shutil.copyfileobj(self._json, sys.stdout)


def _file_progress() -> Progress:
    """Files and records replayed, on stderr, only on a terminal: stdout stays byte for byte the same."""
    return Progress(
        TextColumn("replaying"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("files, {task.fields[records]:,} records"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    )


SPOOL_BYTES: Final = 4 << 20
"""Replayed matches held in memory, pickled, before their spool goes to a temporary file.
Small, because what is held (and copied once when the spool moves to the file) is most of
the peak's growth: at 10M strokes (45,000 matches) 32 MB peaked at 81 MB and 4 MB at 54 MB,
as fast (benchmarks/README.md, "replay LOGS: the replayed matches spooled")."""


class _Held:
    """The replayed matches of the logs, kept pickled until every file is read (the output
    is in match id order; the logs need not be), only their ids and places in memory: so
    a season's replay holds a few hundred bytes a match, not its frames, breaks and
    findings (a peak of 46 MB at 1M strokes and 54 MB at 10M; benchmarks/README.md, "replay
    LOGS: the replayed matches spooled"). A context manager: leaving it removes the spool."""

    def __init__(self) -> None:
        self._spool: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115 (closed by __exit__)
        self._index: list[tuple[str, int, int, int]] = []
        self._end = 0

    def __enter__(self) -> _Held:
        return self

    def __exit__(self, *_: object) -> None:
        self._spool.close()

    def add(self, match: str, data: bytes) -> None:
        """A replayed match, pickled."""
        # The match id, then the order of reading: a match id given twice keeps its order.
        self._index.append((match, len(self._index), self._end, len(data)))
        self._spool.write(data)
        self._end += len(data)

    def in_order(self) -> Iterator[MatchResult]:
        """The matches in match id order, read back one at a time."""
        self._index.sort()
        for _, _, offset, size in self._index:
            self._spool.seek(offset)
            result: MatchResult = pickle.loads(self._spool.read(size))
            yield result


def _replay_files(
    paths: list[Path],
    corrections: list[Located],
    rules: str | Derived | None,
    workers: int | None,
    output: Output,
) -> None:
    """Replay the logs match by match as they are read (:func:`cuelog.logreplay.replay_logs`,
    in ``workers`` processes): each match's per-stroke outcomes are let go once it is
    replayed (the output has the frames, breaks and findings), and the rest is spooled
    (:class:`_Held`), so memory does not grow with the season. The output is sorted by
    match id, so it comes once every file is read."""
    files = log_files(paths)
    n = workers if workers is not None else logreplay.default_workers(files)
    with _Held() as held:
        with _file_progress() as bar:
            task = bar.add_task("replay", total=len(files), records=0)
            records = 0

            def advance(files_done: int, records_done: int) -> None:
                nonlocal records
                records += records_done
                bar.update(task, advance=files_done, records=records)

            for replayed in logreplay.replay_logs(files, corrections, rules, workers=n, progress=advance):
                held.add(replayed.match, replayed.pickled)
        for result in held.in_order():
            output.add([result])


def _replay_db(
    db: Path,
    matches: list[str],
    workers: int | None,
    corrections: list[Located],
    rules: str | Derived | None,
    output: Output,
) -> None:
    # Imported here: the DuckDB/Arrow side is only needed with --db.
    from cuelog.pipeline import stream_db
    from cuelog.store import connect

    if not db.exists():
        fail(f"no database at {db}; load logs first with `cuelog ingest LOGS --db {db}`", "no_database")
    try:
        con = connect(db)
    except Exception as exc:  # duckdb raises its own IOException family for a non-database file
        fail(f"cannot open {db} as a cuelog database: {exc}", "bad_database")
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
        with replay_refusals(), bar:
            stream_db(con, matches or None, workers, advance, corrections, rules=rules, each=output.add)
    finally:
        con.close()


def _dispatch_parquet(
    paths: list[Path] | None,
    db: Path | None,
    matches: list[str] | None,
    workers: int | None,
    corrections: list[Path] | None,
    parquet: str | None,
    scheduler: str | None,
    out: str | None,
    rules: str | None,
    as_json: bool,
) -> None:
    from cuelog.cli.scale import replay_parquet

    if paths or db is not None or matches or workers is not None:
        fail("--parquet replays a whole dataset: give no log files, --db, --match or --workers")
    if parquet is None or scheduler is None or out is None:
        fail(
            "--parquet, --scheduler and --out go together (e.g. --parquet archive/ --scheduler local:2 --out results/)"
        )
    replay_parquet(parquet, scheduler, out, as_json, corrections or [], rules)


def replay(
    paths: list[Path] | None = typer.Argument(
        None, help="Log files (.jsonl, .jsonl.gz), directories or quoted globs ('logs/*.jsonl', sorted)."
    ),
    db: Path | None = typer.Option(
        None, "--db", help="Replay the matches loaded in this database and store the results in it."
    ),
    matches: list[str] | None = typer.Option(
        None, "--match", help="With --db: replay only this match id (repeatable). Default: every loaded match."
    ),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        help="Worker processes (default: 1, or one per idle core for 250k records or more in the "
        "database, 12 MB or more of logs; never slower than one). Output is the same.",
    ),
    corrections: list[Path] | None = typer.Option(
        None,
        "--corrections",
        help="Officials' corrections (JSONL, docs/format.md section 6) applied before the replay (repeatable).",
    ),
    parquet: str | None = typer.Option(
        None, "--parquet", help="Replay a Parquet dataset (`cuelog export`) on Dask; needs --scheduler and --out."
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="With --parquet: local, local:N (N worker processes) or a scheduler address."
    ),
    out: str | None = typer.Option(None, "--out", help="With --parquet: the results dataset (path or fsspec URL)."),
    rules: str | None = typer.Option(
        None,
        "--rules",
        help="Replay under this ruleset (an id or a ruleset file, same discipline) instead of the "
        "recorded one; with --db nothing is stored, with --parquet the results say which ruleset.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the cuelog-replay/1 JSON document."),
) -> None:
    """Replay stroke logs through the rules and list every finding.

    Give log files, or --db to replay every loaded match and store per-stroke outcomes,
    frame results, breaks and findings for `cuelog report`.
    Exit code 0 when there are no findings, 1 when there are, 2 on unreadable input.

    Corrections change strokes before the replay without editing the log; the ones applied
    are listed in the JSON document under each match.

    With --parquet the replay runs on a Dask cluster, one task per partition, and writes
    the results as Parquet in --out for `cuelog report --results` (docs/scale-out.md).

    Examples: cuelog replay examples/snooker-officiating.jsonl --json;
    cuelog replay --db cuelog.duckdb --workers 4 --corrections fixes.jsonl;
    cuelog replay --parquet archive/ --scheduler local:2 --out results/ [--rules draft.toml];
    cuelog replay --db cuelog.duckdb --rules draft.toml
    """
    json_errors(as_json)
    if parquet is not None or scheduler is not None or out is not None:
        _dispatch_parquet(paths, db, matches, workers, corrections, parquet, scheduler, out, rules, as_json)
    if db is not None and paths:
        fail("give log files or --db, not both")
    if db is None and not paths:
        fail("give log files to replay, or --db FILE to replay the loaded matches")
    if db is None and matches:
        fail("--match needs --db")
    paths = expand_globs(paths or [], "PATHS")
    csvs = [str(p) for p in paths if is_clock_csv(p)]
    if csvs:
        fail(
            f"{', '.join(csvs)}: a shot-clock CSV, not a stroke log; load it with "
            f"`cuelog ingest LOGS --clock {csvs[0]}` and replay with --db"
        )
    try:
        chosen = resolve_rules(rules) if rules is not None else None
        fixes = [item for path in corrections or [] for item in read_corrections(path)]
        with Output(as_json=as_json) as output:
            if db is not None:
                _replay_db(db, matches or [], workers, fixes, chosen, output)
            else:
                _replay_files(paths, fixes, chosen, workers, output)
            output.finish()
    except InputError as exc:
        print_problems(exc.problems, as_json=as_json)
        raise typer.Exit(2) from None
    except (UnknownRuleset, NoEngine) as exc:
        fail(str(exc).strip("'\""), "unknown_rules")
    except logreplay.LogReplayFailed as exc:
        fail(exc.message, exc.code)
    except ValueError as exc:
        fail(str(exc), "bad_input")
    raise typer.Exit(EXIT_FINDINGS if output.findings else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(replay)
