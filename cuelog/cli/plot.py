"""``cuelog plot``: pictures of the replay results (breaks, score worm, shot times, misses, racks)."""

from __future__ import annotations

from pathlib import Path

import typer

from cuelog.cli.common import fail
from cuelog.store import DEFAULT_DB

# Picture -> the report whose data it draws.
PICTURES = {
    "breaks": "breaks",
    "worm": "clock",
    "clock": "clock",
    "misses": "misses",
    "racks": "pool",
    "nineball": "nineball",
    "runs": "straight-pool",
}


def plot(
    kind: str = typer.Argument(
        ...,
        help="breaks, worm (a frame's score worm), clock (shot times), misses, racks (eight-ball), "
        "nineball or runs (14.1).",
    ),
    out: Path = typer.Option(..., "--out", help="The PNG file to write."),
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help="The cuelog database (replayed with `cuelog replay --db`)."),
    players: list[str] | None = typer.Option(None, "--player", help="Only this player (repeatable)."),
    matches: list[str] | None = typer.Option(None, "--match", help="Only this match id (repeatable; worm: the match)."),
    events: list[str] | None = typer.Option(None, "--event", help="Only this event (repeatable)."),
    frame: int = typer.Option(1, "--frame", min=1, help="worm: the frame to draw."),
    width: int = typer.Option(1000, "--width", min=200, max=8000, help="Picture width in pixels."),
    height: int = typer.Option(600, "--height", min=150, max=8000, help="Picture height in pixels."),
) -> None:
    """Draw a picture of the replay results as PNG.

    breaks: every break per player; worm: a frame's scores stroke by stroke with the breaks
    shaded and the findings marked (needs --match); clock: shot-time histogram per player;
    misses: foul and a miss sequences; racks: eight-ball racks, clearances and break-and-dish
    per player; nineball: racks, break-and-runs and push outs per player; runs: 14.1 runs per
    player.

    Example: cuelog plot worm --match uk-2026-r1-07 --frame 3 --out worm.png
    """
    from cuelog.analytics import plots
    from cuelog.analytics.audit import frame_findings
    from cuelog.analytics.queries import ReportError, Scope
    from cuelog.analytics.reports import load
    from cuelog.cli.report import open_db

    if kind not in PICTURES:
        fail(f"unknown picture {kind!r}; pictures: {', '.join(PICTURES)}")
    if kind == "worm" and (not matches or len(matches) != 1):
        fail("worm draws one frame of one match: give --match ID (and --frame N)")
    if out.suffix.lower() != ".png":
        fail(f"--out must be a .png file, not {out}")
    scope = Scope(tuple(players or ()), tuple(matches or ()), tuple(events or ()))
    con = open_db(db)
    try:
        data = load(con, PICTURES[kind], scope)
        marks = frame_findings(con, (matches or [""])[0], frame) if kind == "worm" else []
    except ReportError as exc:
        fail(str(exc), "bad_selection")
    finally:
        con.close()
    size = (width, height)
    try:
        if kind == "breaks":
            fig = plots.breaks_distribution(data, size)
        elif kind == "worm":
            fig = plots.score_worm(data, (matches or [""])[0], frame, size, findings=marks)
        elif kind == "clock":
            fig = plots.shot_times(data, size)
        elif kind == "racks":
            fig = plots.racks(data, size)
        elif kind == "nineball":
            fig = plots.nineball_racks(data, size)
        elif kind == "runs":
            fig = plots.runs(data, size)
        else:
            fig = plots.miss_sequences(data, size)
    except plots.NothingToPlot as exc:
        fail(str(exc), "nothing_to_plot")
    try:
        plots.save(fig, out)
    except OSError as exc:
        fail(f"cannot write {out}: {exc}", "cannot_write")
    typer.echo(f"wrote {out} ({width}x{height})")


def register(app: typer.Typer) -> None:
    app.command()(plot)
