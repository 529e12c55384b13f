"""``cuelog demo``: the main job on a small season, from logs to audit, statistics and plots."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cuelog.analytics.words import kind_words
from cuelog.cli.common import EXIT_BAD_INPUT, fail, out_console, print_problems
from cuelog.cli.demo_season import DemoResult, run_demo
from cuelog.errors import InputError


def demo(
    db: Path = typer.Option(Path("cuelog.duckdb"), "--db", help="The DuckDB file to load and replay into."),
    out: Path = typer.Option(Path("cuelog-demo"), "--out", help="Directory for the season's logs and the plots."),
    seed: int = typer.Option(2026, "--seed", help="Season seed: the same seed gives the same season."),
    workers: int | None = typer.Option(
        None, "--workers", min=1, help="Replay processes (default: as `cuelog replay --db`)."
    ),
) -> None:
    """Simulate a small season of snooker and billiards with officiating errors, load it with
    the bundled examples and the shot clocks into DuckDB, replay every stroke through the
    rules, and print the audit summary and headline statistics; plots and the audit report
    of the match with the most findings go to --out.

    Example: cuelog demo --db cuelog.duckdb --out cuelog-demo
    """
    console = out_console()
    progress = Progress(TextColumn("{task.description:<32}"), BarColumn(), TimeElapsedColumn(), console=console)
    try:
        with progress:
            task = progress.add_task("starting", total=1.0)

            def step(name: str, done: float) -> None:
                progress.update(task, description=name, completed=done)

            result = run_demo(db, out, seed, workers, step)
    except InputError as exc:
        print_problems(exc.problems, as_json=False)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except ImportError as exc:  # pragma: no cover - a partial install
        fail(f"the demo needs the full cuelog package: {exc}")
    show(result, db, out, console)


def show(r: DemoResult, db: Path, out: Path, console: Console) -> None:
    console.print(
        f"[bold]season[/]: {r.matches} simulated matches, {r.strokes:,} strokes, "
        f"{r.injected} officiating errors injected; {r.files} log files and "
        f"{r.shots_aligned:,} shot-clock readings loaded into {escape(str(db))}"
    )
    t = Table("finding", "kind", "findings", "points at stake", title="audit: findings by kind", title_justify="left")
    for kind, n, points in r.findings_by_kind:
        t.add_row(kind_words(kind), kind, str(n), str(points))
    console.print(t)
    w = Table(title="worst frames", title_justify="left")
    w.add_column("match", no_wrap=True)
    for name in ("frame", "players", "findings", "points", "kinds"):
        w.add_column(name)
    for f in r.worst_frames:
        w.add_row(
            escape(str(f["match"])),
            str(f["frame"]),
            escape(f"{f['side_a']} v {f['side_b']}"),
            str(f["findings"]),
            str(f["points"]),
            escape(str(f["kinds"])),
        )
    console.print(w)
    if r.accuracy is not None:
        a = r.accuracy
        console.print(
            f"audit accuracy on the simulated season: recall {a.recall:.3f} ({a.correct}/{a.injected} injected errors "
            f"found), precision {a.precision:.3f} ({a.found} findings)"
        )
    h = Table("statistic", "value", title="headlines", title_justify="left")
    for name, value in r.headlines:
        h.add_row(name, escape(value))
    console.print(h)
    for p in r.plots:
        if p.name == "worst-frame.png" and r.worst_frames:
            w0 = r.worst_frames[0]
            console.print(
                escape(f"plot: {p} (match {w0['match']} frame {w0['frame']}, the worst frame, findings marked)")
            )
        else:
            console.print(escape(f"plot: {p}"))
    if r.report is not None:
        console.print(f"audit report of the match with the most findings: {escape(str(r.report))}")
    console.print(escape(f"next: cuelog report breaks --db {db}   |   cuelog replay --db {db}   |   open {out}/*.png"))


def register(app: typer.Typer) -> None:
    app.command()(demo)
