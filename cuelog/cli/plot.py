"""``cuelog plot``: pictures of the replay results (breaks, score worm, shot times, misses, racks)."""

from __future__ import annotations

from pathlib import Path

import typer

from cuelog.cli.common import fail
from cuelog.store import DEFAULT_DB

# The pictures, in the order the help lists them: the worm (a frame of one match) and
# cuelog.analytics.plots.PICTURES.
NAMES = ("breaks", "worm", "clock", "misses", "racks", "nineball", "runs")
WORM_REPORT = "clock"
"""The worm's matches: every discipline (clock is the report of every match)."""


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

    if kind not in NAMES:
        fail(f"unknown picture {kind!r}; pictures: {', '.join(NAMES)}")
    if kind == "worm" and (not matches or len(matches) != 1):
        fail("worm draws one frame of one match: give --match ID (and --frame N)")
    if out.suffix.lower() != ".png":
        fail(f"--out must be a .png file, not {out}")
    scope = Scope(tuple(players or ()), tuple(matches or ()), tuple(events or ()))
    size = (width, height)
    con = open_db(db)
    try:
        if kind == "worm":
            data = load(con, WORM_REPORT, scope)
            marks = frame_findings(con, (matches or [""])[0], frame)
            fig = plots.score_worm(data, (matches or [""])[0], frame, size, findings=marks)
        else:
            fig = plots.picture(con, kind, scope, size)
    except ReportError as exc:
        fail(str(exc), "bad_selection")
    except plots.NothingToPlot as exc:
        fail(str(exc), "nothing_to_plot")
    finally:
        con.close()
    try:
        plots.save(fig, out)
    except OSError as exc:
        fail(f"cannot write {out}: {exc}", "cannot_write")
    typer.echo(f"wrote {out} ({width}x{height})")


def register(app: typer.Typer) -> None:
    app.command()(plot)
