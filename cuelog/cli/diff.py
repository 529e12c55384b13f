"""``cuelog diff``: replay the loaded history under a changed ruleset and show what changes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import typer
from rich.console import Console
from rich.markup import escape

from cuelog import __version__
from cuelog.analytics import plain
from cuelog.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_FINDINGS,
    EXIT_OK,
    fail,
    folded_table,
    json_errors,
    out_console,
    print_problems,
    replay_refusals,
)
from cuelog.errors import InputError
from cuelog.ingest.cores import usable_cores
from cuelog.ingest.processes import server_started
from cuelog.replay.derived import Derived, install
from cuelog.replay.output import dumps
from cuelog.rulesfile import resolve_rules
from cuelog.store import DEFAULT_DB

if TYPE_CHECKING:  # the diff replays from the store (DuckDB, pyarrow): imported when the command runs
    from cuelog import diff as d


def _score(score: list[int] | None) -> str:
    return "-" if score is None else f"{score[0]}-{score[1]}"


def print_human(doc: dict[str, Any], console: Console) -> None:
    """The summary first, then every frame that differs."""
    s = doc["summary"]
    console.print(f"[bold]{escape(doc['new'])}[/] against [bold]{escape(doc['old'])}[/]")
    for c in doc["parameters_changed"]:
        console.print(escape(f"  {c['parameter']} ({c['rule']}): {c['old']} -> {c['new']}"), soft_wrap=True)
    console.print(
        f"{s['frames_compared']} frame(s) compared, {s['frames_changed']} with a difference, "
        f"{s['winners_changed']} winner(s) changed; score change mean {s['score_change']['mean']:+.2f}"
    )
    if doc["not_compared"]:
        console.print(f"not compared (another discipline): {escape(', '.join(doc['not_compared']))}")
    kinds = folded_table("finding kind", "before", "after")
    for k in s["findings_by_kind"]:
        kinds.add_row(k["kind"], str(k["before"]), str(k["after"]))
    console.print(kinds)
    for title, key in (("gain most", "players_gaining"), ("lose most", "players_losing")):
        if s[key]:
            rows = ", ".join(
                f"{escape(p['player'])} ({p['frames_won']:+d} frames, {p['points']:+d} points)" for p in s[key]
            )
            console.print(f"players who {title}: {rows}")
    if not doc["frames"]:
        return
    # One line per frame, then its findings: a wide table is unreadable in a terminal. Written
    # as plain lines, escaped for the terminal: printed through rich, a line took 0.16 ms.
    lines = []
    for f in doc["frames"]:
        old, new = f["old"], f["new"]
        winner = " (winner changes)" if f["winner_changed"] else ""
        where = f", first divergence at stroke {f['diverges_at']}" if f["diverges_at"] is not None else ""
        lines.append(
            f"{f['match']} frame {f['frame']}: {_score(old['score'])} {old['winner'] or '-'} -> "
            f"{_score(new['score'])} {new['winner'] or '-'}{winner}{where}"
        )
        for sign, key in (("+", "findings_added"), ("-", "findings_removed")):
            for x in f[key]:
                lines.append(
                    f"    {sign} {x['n']} {x['kind']} {x['rule']} {x['side'] or '-'} {x['points']}: {x['message']}"
                )
    console.file.write("".join(plain.terminal_text(line) + "\n" for line in lines))
    console.print(doc["note"])


def _label(rules: str | Derived | None) -> str:
    from cuelog import diff as d

    if rules is None:
        return d.RECORDED
    return install(rules) if isinstance(rules, Derived) else rules


def _run(
    db: Path,
    new: str | Derived | None,
    old: str | Derived | None,
    baseline: Path | None,
    matches: list[str],
    events: list[str],
    workers: int | None,
) -> tuple[d.Selection, list[d.MatchDiff]]:
    # The workers' server imports their modules while the store opens (cuelog.ingest.processes).
    with server_started(_DIFF_WORKERS if _diff_may_use_workers(matches, workers) else None):
        from cuelog import diff as d
        from cuelog.store import connect

        try:
            con = connect(db, read_only=True)
        except Exception as exc:  # duckdb raises its own IOException family for a non-database file
            fail(f"cannot open {db} as a cuelog database: {exc}", "bad_database")
        try:
            with replay_refusals():
                if baseline is not None:
                    stored = d.read_baseline(str(baseline))
                    return d.diff_baseline(
                        con, stored, new, ids=matches or None, events=events or None, workers=workers
                    )
                assert new is not None
                return d.diff_db(con, new, old, ids=matches or None, events=events or None, workers=workers)
        finally:
            con.close()


_DIFF_WORKERS: Final = "cuelog.diff"
"""The module the diff's workers run (``diff._Chunk``), which their server imports."""


def _diff_may_use_workers(matches: list[str], workers: int | None) -> bool:
    """Whether the diff may run workers, known before the store is opened: it takes every
    usable core unless ``--workers`` says otherwise, one worker a match at most."""
    return (workers if workers is not None else usable_cores()) > 1 and len(matches) != 1


def _check_dataset(dataset: str | None, scheduler: str | None, baseline: Path | None, workers: int | None) -> None:
    if dataset is None and scheduler is None:
        return
    if dataset is None or scheduler is None:
        fail("--dataset and --scheduler go together (e.g. --dataset archive/ --scheduler local:2)")
    if baseline is not None or workers is not None:
        fail("--dataset diffs on a Dask cluster: give no --baseline or --workers")


def _run_dataset(
    dataset: str,
    scheduler: str,
    new: str | Derived,
    old: str | Derived | None,
    matches: list[str],
    events: list[str],
    as_json: bool,
) -> tuple[d.Selection, list[d.MatchDiff]]:
    """The diff of a Parquet dataset's matches on a Dask cluster (imported here: an optional extra)."""
    from cuelog.cli.scale import diff_dataset

    return diff_dataset(dataset, scheduler, new, old, matches, events, as_json)


def diff(
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help="The DuckDB file with the loaded matches."),
    rules: str | None = typer.Option(
        None, "--rules", help="The new ruleset: an id (cuelog rules list) or a ruleset file (.toml)."
    ),
    against: str | None = typer.Option(
        None, "--against", help="The old ruleset (id or file). Default: the ruleset each match was recorded under."
    ),
    matches: list[str] | None = typer.Option(None, "--match", help="Only this match id (repeatable)."),
    events: list[str] | None = typer.Option(None, "--event", help="Only matches of this event (repeatable)."),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        help="Worker processes (default: every core this process may use, within a CPU quota). Output is the same.",
    ),
    baseline: Path | None = typer.Option(
        None,
        "--baseline",
        help="Compare today's replay (under --rules, or as recorded) with a stored `cuelog replay --json` document.",
    ),
    parquet: Path | None = typer.Option(
        None, "--parquet", help="Write the per-frame table to DIR/diff_frames.parquet."
    ),
    plot: Path | None = typer.Option(None, "--plot", help="Draw the score changes and winners changed by event (PNG)."),
    dataset: str | None = typer.Option(
        None,
        "--dataset",
        help="Diff the matches of a Parquet dataset (`cuelog export`, path or fsspec URL) on Dask instead of --db; "
        "needs --scheduler.",
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="With --dataset: local, local:N (N worker processes) or a scheduler address."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the cuelog-diff/1 JSON document."),
) -> None:
    """Replay every selected frame under two rulesets and report what changes.

    Per frame: the first stroke whose due call differs, the official score and winner under
    each ruleset, the findings added and removed. First a summary: frames compared and
    changed, winners changed, the score change, findings by kind before and after, the
    players who gain or lose most. The strokes stay as played, so after a frame's first
    divergence the rest of it is a counterfactual.
    Exit code 0 when nothing changes, 1 when something does, 2 on bad input.

    With --dataset the matches of a Parquet dataset are compared on a Dask cluster, one
    task per partition, the rulesets sent as data: the same document as with --db for the
    same matches (docs/scale-out.md).

    Examples: cuelog diff --rules draft.toml; cuelog diff --rules snooker/wpbsa-2024
    --against snooker/classic --event "UK Open" --json; cuelog diff --baseline before.json;
    cuelog diff --rules draft.toml --dataset archive/ --scheduler tcp://scheduler:8786
    """
    json_errors(as_json)
    if rules is None and baseline is None:
        fail("give the new ruleset with --rules FILE|ID (or --baseline FILE to compare with a stored replay)")
    if baseline is not None and against is not None:
        fail("--against and --baseline both name the old side: give one")
    _check_dataset(dataset, scheduler, baseline, workers)
    if dataset is None and not db.is_file():
        fail(f"no database at {db}; load logs first with `cuelog ingest LOGS --db {db}`", "no_database")
    try:
        new = resolve_rules(rules) if rules is not None else None
        old = resolve_rules(against) if against is not None else None
        if dataset is not None and scheduler is not None and new is not None:
            selection, diffs = _run_dataset(dataset, scheduler, new, old, matches or [], events or [], as_json)
        else:
            selection, diffs = _run(db, new, old, baseline, matches or [], events or [], workers)
    except InputError as exc:
        print_problems(exc.problems, as_json=as_json)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    from cuelog import diff as d

    old_label = f"baseline {baseline}" if baseline is not None else _label(old)
    changes = d.parameter_changes(new, old) if new is not None else []
    doc = d.document(
        diffs,
        new=_label(new),
        old=old_label,
        engine=__version__,
        not_compared=selection.other_discipline,
        changes=changes,
    )
    _outputs(doc, diffs, parquet, plot)
    if as_json:
        sys.stdout.write(dumps(doc))
    else:
        print_human(doc, out_console())
    raise typer.Exit(EXIT_FINDINGS if doc["summary"]["frames_changed"] else EXIT_OK)


def _outputs(doc: dict[str, Any], diffs: list[d.MatchDiff], parquet: Path | None, plot: Path | None) -> None:
    from cuelog import diff as d

    if parquet is not None:
        import pyarrow.parquet as pq

        parquet.mkdir(parents=True, exist_ok=True)
        pq.write_table(d.frame_table(diffs), parquet / "diff_frames.parquet")
    if plot is not None:
        from cuelog.analytics.plots import save

        save(d.plot(doc["summary"]), plot)


def register(app: typer.Typer) -> None:
    app.command()(diff)
