"""``cuelog replay``: replay logs through the rules and report what the officials got wrong.

Two sources: log files given on the command line, or (``--db``) the matches loaded in a
cuelog database, whose results are then stored in its ``replay_*`` tables for the reports.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Final

import typer
from rich.console import Console
from rich.progress import (
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from cuelog import __version__, logreplay
from cuelog.analytics.replay_text import human_text
from cuelog.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    expand_globs,
    fail,
    json_errors,
    out_console,
    print_problems,
    replay_refusals,
    stderr_progress,
)
from cuelog.errors import InputError
from cuelog.ingest.cores import Watch
from cuelog.ingest.corrections import Located, read_corrections
from cuelog.ingest.processes import server_started
from cuelog.ingest.reader import is_clock_csv, log_files
from cuelog.replay import NoEngine, UnknownRuleset
from cuelog.replay.derived import Derived
from cuelog.replay.model import MatchResult
from cuelog.replay.output import JSON_TEXT, Render, Rendered, document_head, document_tail, rendered
from cuelog.rulesfile import resolve_rules


def _write_human(match: str, text: str, console: Console, *, terminal: bool) -> None:
    """A match's :func:`human_text` on the console, its header in bold on a ``terminal``
    (``console.is_terminal``, asked once by the caller: rich reads the environment each
    time, 30 us a match)."""
    if terminal:
        head, _, rest = text.partition("\n")
        console.print(Text(match, style="bold") + Text(head[len(match) :]), highlight=False)
        console.file.write(rest)
    else:
        console.file.write(text)


def print_match(m: MatchResult, console: Console) -> None:
    """One match (:func:`human_text`) on the console."""
    _write_human(m.match, human_text(m), console, terminal=console.is_terminal)


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
        self._terminal: bool | None = None  # the console's, asked at the first match
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

    @property
    def render(self) -> Render:
        """How this output makes a match's text (in the replay's workers too)."""
        return JSON_TEXT if self._as_json else human_text

    def add(self, results: Sequence[MatchResult | Rendered]) -> None:
        """Write these matches now (they come in match id order), made into text here
        unless they come as text already (:attr:`render`, made where they were replayed)."""
        for m in results:
            self.write(m if isinstance(m, Rendered) else rendered(m, self.render))

    def write(self, match: Rendered) -> None:
        """A match's text (:attr:`render`), after those written before it; its findings
        and corrections applied go in the totals."""
        self.findings += match.findings
        self._uncertain += match.uncertain
        self._applied += match.corrections
        if self._json is not None:
            # The JSON text of a match starts with a line break: a comma goes before all but the first.
            self._json.write(match.text if self._matches == 0 else "," + match.text)
        else:
            console = self._console or out_console()
            if self._terminal is None:
                self._terminal = console.is_terminal
            _write_human(match.match, match.text, console, terminal=self._terminal)
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
    return stderr_progress(
        "replaying", MofNCompleteColumn(), TextColumn("files, {task.fields[records]:,} records"), TimeElapsedColumn()
    )


SPOOL_BYTES: Final = 4 << 20
"""Replayed matches' output held in memory before their spool goes to a temporary file.
Small, because what is held (and copied once when the spool moves to the file) is most of
the peak's growth: at 10M strokes (45,000 matches) 32 MB peaked at 81 MB and 4 MB at 54 MB,
as fast (benchmarks/README.md, "replay LOGS: the replayed matches spooled")."""


class _Held:
    """The replayed matches of the logs, kept as the output's text of each until every
    file is read (the output is in match id order; the logs need not be), only their ids
    and places in memory: so a season's replay holds a few hundred bytes a match, not its
    frames, breaks and findings (benchmarks/README.md, "replay LOGS: the replayed matches
    spooled"). A context manager: leaving it removes the spool."""

    def __init__(self) -> None:
        self._spool: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115 (closed by __exit__)
        # A match's id, its place in the reading order, where its text is, and its counts.
        self._index: list[tuple[str, int, int, int, int, int, int]] = []
        self._end = 0

    def __enter__(self) -> _Held:
        return self

    def __exit__(self, *_: object) -> None:
        self._spool.close()

    def add(self, match: Rendered) -> None:
        """A replayed match's output."""
        data = match.text.encode()
        # The match id, then the order of reading: a match id given twice keeps its order.
        at = (self._end, len(data), match.findings, match.uncertain, match.corrections)
        self._index.append((match.match, len(self._index), *at))
        self._spool.write(data)
        self._end += len(data)

    def in_order(self) -> Iterator[Rendered]:
        """The matches' output in match id order, read back one at a time."""
        self._index.sort()
        for match, _, offset, size, findings, uncertain, corrections in self._index:
            self._spool.seek(offset)
            text = self._spool.read(size).decode()
            yield Rendered(match=match, text=text, findings=findings, uncertain=uncertain, corrections=corrections)


def _replay_files(
    paths: list[Path],
    corrections: list[Located],
    rules: str | Derived | None,
    workers: int | None,
    output: Output,
) -> None:
    """Replay the logs match by match as they are read (:func:`cuelog.logreplay.replay_logs`,
    in ``workers`` processes): each match's output is made where it was replayed and
    spooled (:class:`_Held`), so memory does not grow with the season. The output is
    sorted by match id, so it is written once every file is read."""
    files = log_files(paths)
    with logreplay.workers_for(files, workers) as n, _Held() as held:
        with _file_progress() as bar:
            task = bar.add_task("replay", total=len(files), records=0)
            records = 0

            def advance(files_done: int, records_done: int) -> None:
                nonlocal records
                records += records_done
                bar.update(task, advance=files_done, records=records)

            replayed = logreplay.replay_logs(
                files, corrections, rules, workers=n, progress=advance, render=output.render
            )
            for one in replayed:
                held.add(one)
        for one in held.in_order():
            output.write(one)


def _replay_db(
    db: Path,
    matches: list[str],
    workers: int | None,
    corrections: list[Located],
    rules: str | Derived | None,
    output: Output,
) -> None:
    if not db.exists():
        fail(f"no database at {db}; load logs first with `cuelog ingest LOGS --db {db}`", "no_database")
    # The cores are watched, and the workers' server started, while the store opens.
    watch = Watch()
    with server_started(_REPLAY_WORKERS if _replay_db_may_use_workers(db, matches, workers) else None):
        # Imported here: the DuckDB/Arrow side is only needed with --db.
        from cuelog.pipeline import stream_db
        from cuelog.store import connect

        try:
            con = connect(db)
        except Exception as exc:  # duckdb raises its own IOException family for a non-database file
            fail(f"cannot open {db} as a cuelog database: {exc}", "bad_database")
        bar = stderr_progress("replaying", MofNCompleteColumn(), TimeRemainingColumn())
        task = bar.add_task("replay", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            with replay_refusals(), bar:
                stream_db(
                    con,
                    matches or None,
                    workers,
                    advance,
                    corrections,
                    rules=rules,
                    each=output.add,
                    render=output.render,
                    watch=watch,
                )
        finally:
            con.close()


_REPLAY_WORKERS: Final = "cuelog.pipeline"
"""The module ``replay --db``'s workers run (``pipeline._replay_packed``), which their server imports."""

PARALLEL_STORE_BYTES: Final = 16 << 20
"""A store from this size on may hold enough records for workers (``pipeline.PARALLEL_FROM``,
250,000: the 1M season's store takes 66 MB for 1.06M records with their shot clocks), so
the workers' server is started before the store is opened; the workers are still chosen
from the records listed and the cores watched."""


def _replay_db_may_use_workers(db: Path, matches: list[str], workers: int | None) -> bool:
    """Whether the replay may run workers, known before the store is opened: two or more
    asked for, or none asked for every match of a store large enough (named matches are few)."""
    if workers is not None:
        return workers > 1
    try:
        return not matches and db.stat().st_size >= PARALLEL_STORE_BYTES
    except OSError:
        return False


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
