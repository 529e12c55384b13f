"""Pictures of the replay results, drawn with matplotlib.

Each function takes the report data (:class:`cuelog.analytics.reports.Data`) and returns a
figure of a fixed pixel size; ``save`` writes it as PNG. Figures are built without pyplot,
so no display and no global figure state is involved (the PNG is drawn by the Agg
renderer), and a notebook shows them inline. Nothing is random: the same data draws the
same picture.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy
import polars as pl
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

from cuelog.analytics.queries import CENTURY, FIFTY, Scope, checked_scope, report
from cuelog.analytics.reports import Data, load, miss_runs, nineball, pool
from cuelog.analytics.words import kind_words
from cuelog.errors import CuelogError
from cuelog.store import reads

if TYPE_CHECKING:
    import duckdb

DPI = 100
SIZE = (1000, 600)
"""Default picture size in pixels (width, height)."""

SIDE_COLOURS = {"A": "#1f77b4", "B": "#d62728"}
# Twenty distinguishable colours (matplotlib's tab20 order, dark shades first).
PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
    "#aec7e8", "#ff9896", "#98df8a", "#c5b0d5", "#ffbb78", "#c49c94", "#f7b6d2", "#9edae5", "#c7c7c7", "#dbdb8d",
)  # fmt: skip


class NothingToPlot(CuelogError, ValueError):
    """The selection holds no data for this picture."""


def _max(series: pl.Series) -> float:
    """The largest number in a column, 0 when it has none."""
    value = series.max()
    return float(value) if isinstance(value, int | float) else 0.0


def _figure(size: tuple[int, int]) -> Figure:
    return Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI)


def save(fig: Figure, path: str | os.PathLike[str]) -> Path:
    """Write a figure as PNG at its own size (no tight cropping, so the size is as asked)."""
    p = Path(path)
    fig.savefig(p, format="png", dpi=DPI)
    return p


def breaks_distribution(data: Data, size: tuple[int, int] = SIZE) -> Figure:
    """Every break of every player: one row per player, each break a dot, a box for the spread,
    lines at 50 and 100."""
    breaks = data.breaks.sort("player", "points")
    if breaks.is_empty():
        raise NothingToPlot("no breaks in the selection")
    players, values = _points_per_player(breaks)
    fig = _figure(size)
    ax = fig.add_subplot()
    ax.boxplot(values, orientation="horizontal", widths=0.5, showfliers=False)
    with _limits_once(ax):
        for i, (player, vals) in enumerate(zip(players, values, strict=True), start=1):
            # Spread dots of equal value vertically by their rank, not at random: same data, same picture.
            offsets = ((numpy.arange(len(vals)) % 7) - 3) * 0.04
            ax.scatter(vals, i + offsets, s=18, color=PALETTE[(i - 1) % len(PALETTE)], zorder=3, label=shown(player))
    for mark, label in ((FIFTY, "50"), (CENTURY, "century")):
        ax.axvline(mark, color="grey", linestyle="--", linewidth=1)
        ax.text(
            mark, 0.99, f" {label}", transform=ax.get_xaxis_transform(), ha="left", va="top", fontsize=8, color="grey"
        )
    ax.set_yticks(range(1, len(players) + 1), [shown(p) for p in players])
    ax.set_xlim(0, max(150, int(_max(breaks["points"])) + 5))
    ax.set_xlabel("break (points)")
    ax.set_title("Breaks per player")
    fig.tight_layout()
    return fig


@contextlib.contextmanager
def _limits_once(ax: Any) -> Iterator[None]:
    """The axes' limits worked out once, after the artists added meanwhile: matplotlib works
    them out again over every artist after each ``scatter``, so a dot row per player costs
    the square of the players (the same limits either way)."""
    ax.set_autoscale_on(False)
    try:
        yield
    finally:
        ax.set_autoscale_on(True)
        ax.autoscale_view()


def _points_per_player(table: pl.DataFrame) -> tuple[list[str], list[numpy.ndarray[Any, Any]]]:
    """Each player's ``points`` of ``table`` (sorted by player and points), players in that
    order, as arrays: one pass over the rows, where a filter per player read every row once
    a player; and arrays, which matplotlib takes as they are, where numpy builds a mask for
    each element of a list (11 s of 21 for the breaks of 10M strokes)."""
    grouped = table.group_by("player", maintain_order=True).agg(pl.col("points"))
    return grouped["player"].to_list(), [points.to_numpy() for points in grouped["points"]]


def score_worm(
    data: Data,
    match_id: str,
    frame: int,
    size: tuple[int, int] = SIZE,
    findings: Sequence[tuple[int, str]] = (),
) -> Figure:
    """Both scores stroke by stroke in one frame, with each break shaded in its side's colour.

    ``findings`` (stroke, kind) are marked where they happened: a dotted line through the
    stroke and a marker above the worm, so an official sees where the frame went wrong.
    """
    strokes = data.strokes.filter((pl.col("match_id") == match_id) & (pl.col("frame") == frame)).sort("n")
    if strokes.is_empty():
        raise NothingToPlot(f"no replayed strokes for match {match_id!r} frame {frame}")
    names = {
        r["side"]: r["player"]
        for r in data.frames.filter((pl.col("match_id") == match_id) & (pl.col("frame") == frame)).to_dicts()
    }
    breaks = data.breaks.filter((pl.col("match_id") == match_id) & (pl.col("frame") == frame))
    n = [0, *strokes["n"].to_list()]
    fig = _figure(size)
    ax = fig.add_subplot()
    for side, col in (("A", "score_a"), ("B", "score_b")):
        ax.step(
            n,
            [0, *strokes[col].to_list()],
            where="post",
            color=SIDE_COLOURS[side],
            linewidth=2,
            label=shown(names.get(side, side)),
        )
    top = max(int(_max(strokes["score_a"])), int(_max(strokes["score_b"])), 1)
    for b in breaks.to_dicts():
        ax.axvspan(b["from_n"] - 1, b["to_n"], color=SIDE_COLOURS[b["side"]], alpha=0.12, linewidth=0)
        ax.text(
            (b["from_n"] - 1 + b["to_n"]) / 2,
            top * 1.02,
            str(b["points"]),
            ha="center",
            va="bottom",
            fontsize=8,
            color=SIDE_COLOURS[b["side"]],
        )
    _mark_findings(ax, findings, top)
    ax.set_ylim(0, top * 1.12)
    ax.set_xlim(0, max(n[-1], *(at for at, _ in findings), 1))
    ax.set_xlabel("stroke")
    ax.set_ylabel("score (rules)")
    marked = f", {len(findings)} finding(s) marked" if findings else ""
    ax.set_title(shown(f"{match_id}, frame {frame}: score worm, breaks shaded{marked}"))
    ax.legend(loc="upper left")
    fig.tight_layout()
    return fig


FINDING_COLOUR = "#c0392b"


def shown(text: str) -> str:
    """Text from a log as matplotlib should draw it: as written, a ``$`` never opening mathtext."""
    return text.replace("$", r"\$")


def _mark_findings(ax: Any, findings: Sequence[tuple[int, str]], top: float) -> None:
    """A dotted line through each finding's stroke and a marker with its kind, in words."""
    if not findings:
        return
    strokes = sorted({at for at, _ in findings})
    for at in strokes:
        ax.axvline(at - 0.5, color=FINDING_COLOUR, linestyle=":", linewidth=1)
    ax.plot(
        [at - 0.5 for at in strokes],
        [top * 1.07] * len(strokes),
        linestyle="none",
        marker="v",
        color=FINDING_COLOUR,
        label="finding",
        gid="findings",
    )
    for at in strokes:
        words = "; ".join(sorted({kind_words(kind) for n, kind in findings if n == at}))
        ax.annotate(words, (at - 0.5, top * 1.07), xytext=(3, -3), textcoords="offset points", fontsize=7, rotation=-30)


COMPARE: Final = 6
"""Players drawn a histogram each in the shot-time picture; more are drawn as one."""


@dataclass(frozen=True, slots=True)
class ShotHistogram:
    """Shot times counted for the picture: the bins' edges (whole seconds, about thirty bins
    up to the longest shot), each group's count per bin (a player's, or every shot's when
    more than :data:`COMPARE` players took one), the limits that applied, and the shots."""

    edges: list[float]
    groups: list[tuple[str, list[int]]]
    limits: list[float]
    shots: int


def _width(longest: float) -> float:
    """The bins' width: whole seconds, about thirty bins up to the longest shot (one at least)."""
    return max(1.0, round(max(longest, 1.0) / 30))


def _edges(longest: float) -> list[float]:
    width = _width(longest)
    return [i * width for i in range(int(max(longest, 1.0) // width) + 2)]


def _all_shots(players: int) -> str:
    return f"all shots, {players} players"


def shot_histogram(data: Data, compare: int = COMPARE) -> ShotHistogram:
    """The shot-time histogram of every shot time in ``data`` (numpy's bins)."""
    clock = data.clock.sort("player", "match_id", "frame", "n")
    if clock.is_empty():
        raise NothingToPlot("no shot-clock times in the selection")
    players = clock["player"].unique(maintain_order=True).to_list()
    edges = _edges(_max(clock["shot_s"]))

    def counted(times: list[float]) -> list[int]:
        return [int(n) for n in numpy.histogram(times, bins=edges)[0]]

    if len(players) <= compare:
        groups = [(p, counted(clock.filter(pl.col("player") == p)["shot_s"].to_list())) for p in players]
    else:
        groups = [(_all_shots(len(players)), counted(clock["shot_s"].to_list()))]
    limits = sorted({float(v) for v in clock["limit_s"].drop_nulls().to_list()})
    return ShotHistogram(edges, groups, limits, clock.height)


def stored_shot_histogram(con: duckdb.DuckDBPyConnection, scope: Scope, compare: int = COMPARE) -> ShotHistogram:
    """:func:`shot_histogram` of the clock report's matches in ``scope``, counted by DuckDB:
    a season's ten million shot times never reach Python (the same counts, which the
    tests hold to numpy's)."""
    found = checked_scope(con, "clock", scope)
    chosen = list(scope.players)
    shots = reads.shots_in_scope(con, chosen, summarised=found.summarised)
    if not shots.shots or shots.longest is None:
        raise NothingToPlot("no shot-clock times in the selection")
    edges = _edges(float(shots.longest))
    by_player = len(shots.players) <= compare
    counts = reads.shot_counts(
        con, chosen, _width(float(shots.longest)), by_player=by_player, summarised=found.summarised
    )
    bins = range(len(edges) - 1)
    if by_player:
        groups = [(p, [counts.get(p, {}).get(i, 0) for i in bins]) for p in shots.players]
    else:
        groups = [(_all_shots(len(shots.players)), [counts.get(None, {}).get(i, 0) for i in bins])]
    return ShotHistogram(edges, groups, [float(v) for v in shots.limits], shots.shots)


def shot_times(data: Data, size: tuple[int, int] = SIZE, compare: int = COMPARE) -> Figure:
    """Histogram of shot times (pauses excluded), with the shot-clock limit. Up to ``compare``
    players get a histogram each; more are drawn as one histogram of every shot (pick the
    players to compare with ``--player``)."""
    return draw_shot_times(shot_histogram(data, compare), size)


def draw_shot_times(hist: ShotHistogram, size: tuple[int, int] = SIZE) -> Figure:
    """The picture of :func:`shot_times` from the counts (each bin's count drawn as the
    weight of its left edge: the histogram matplotlib would count from the times)."""
    fig = _figure(size)
    ax = fig.add_subplot()
    lefts = hist.edges[:-1]
    for i, (label, counts) in enumerate(hist.groups):
        colour = PALETTE[i % len(PALETTE)]
        ax.hist(
            lefts, bins=hist.edges, weights=counts, histtype="stepfilled", alpha=0.45, color=colour,
            edgecolor=colour, label=shown(label),
        )  # fmt: skip
    for lim in hist.limits:
        ax.axvline(lim, color="black", linestyle="--", linewidth=1)
        ax.text(lim, 0.98, f" limit {lim:g} s", transform=ax.get_xaxis_transform(), va="top", fontsize=8)
    ax.set_xlabel("shot time (s)")
    ax.set_ylabel("shots")
    ax.set_title(f"Shot times ({hist.shots} shots)")
    ax.legend(loc="upper right")
    fig.tight_layout()
    return fig


MISS_LIMIT: Final = 30
"""The longest FOUL AND A MISS sequences the picture shows."""


def longest_miss_runs(data: Data, limit: int = MISS_LIMIT) -> pl.DataFrame:
    """The ``limit`` longest FOUL AND A MISS sequences (S3 R14) of ``data``'s strokes, the
    longest first (then by match, frame and first stroke)."""
    runs = miss_runs(data.strokes)
    return runs.sort(["length", "match_id", "frame", "from_n"], descending=[True, False, False, False]).head(limit)


def stored_miss_runs(con: duckdb.DuckDBPyConnection, scope: Scope, limit: int = MISS_LIMIT) -> pl.DataFrame:
    """:func:`longest_miss_runs` of the misses report's matches in ``scope``, found by DuckDB
    from the called misses alone: a season's strokes never reach Python."""
    checked_scope(con, "misses", scope)
    frame = pl.from_arrow(reads.longest_miss_runs(con, list(scope.players), limit))
    assert isinstance(frame, pl.DataFrame)
    return frame


def miss_sequences(data: Data, size: tuple[int, int] = SIZE, limit: int = MISS_LIMIT) -> Figure:
    """Each sequence of FOUL AND A MISS calls (S3 R14) as a bar from its first to its last
    stroke, in its player's colour, labelled with its length and the points it gave away.
    The ``limit`` longest sequences are shown."""
    return draw_miss_sequences(longest_miss_runs(data, limit), size)


def draw_miss_sequences(longest: pl.DataFrame, size: tuple[int, int] = SIZE) -> Figure:
    """The picture of :func:`miss_sequences` from the sequences it shows."""
    if longest.is_empty():
        raise NothingToPlot("no foul and a miss calls in the selection")
    runs = longest.sort("match_id", "frame", "from_n")
    players = sorted(runs["player"].unique().to_list())
    colour = {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(players)}
    fig = _figure(size)
    ax = fig.add_subplot()
    labels = []
    for y, r in enumerate(runs.to_dicts()):
        ax.barh(y, r["to_n"] - r["from_n"] + 1, left=r["from_n"] - 0.5, color=colour[r["player"]], height=0.6)
        ax.text(r["to_n"] + 0.7, y, f"{r['length']} miss(es), {r['points']} pts", va="center", fontsize=8)
        labels.append(shown(f"{r['match_id']} f{r['frame']} #{r['from_n']}"))
    ax.set_yticks(range(len(labels)), labels)
    # Room on the right for the label of the latest sequence.
    ax.set_xlim(0, _max(runs["to_n"]) * 1.2 + 6)
    ax.invert_yaxis()
    ax.set_xlabel("stroke")
    ax.set_title("Foul and a miss sequences")
    handles = [Rectangle((0, 0), 1, 1, color=colour[p]) for p in players]
    ax.legend(handles, players, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="fouled")
    fig.tight_layout()
    return fig


def _grouped_bars(
    table: pl.DataFrame, series: tuple[tuple[str, str], ...], size: tuple[int, int], title: str
) -> Figure:
    """One group of bars per player, one bar per ``(column, label)`` of ``series``."""
    players = table["player"].to_list()
    fig = _figure(size)
    ax = fig.add_subplot()
    width = 0.8 / len(series)
    for i, (column, label) in enumerate(series):
        xs = [x + (i - (len(series) - 1) / 2) * width for x in range(len(players))]
        ax.bar(xs, table[column].to_list(), width=width, color=PALETTE[i], label=label)
    crowded = len(players) > 6
    names = [shown(str(p)) for p in players]
    ax.set_xticks(range(len(players)), names, rotation=30 if crowded else 0, ha="right" if crowded else "center")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("racks")
    ax.set_title(title)
    ax.legend(loc="upper right")
    fig.tight_layout()
    return fig


def racks(data: Data, size: tuple[int, int] = SIZE) -> Figure:
    """Eight-ball racks per player: racks played, won, clearances and break-and-dish, side by side."""
    return draw_racks(pool(data, "player"), size)


def draw_racks(table: pl.DataFrame, size: tuple[int, int] = SIZE) -> Figure:
    """The picture of :func:`racks` from the pool report by player (its rows, one a player)."""
    if table.is_empty() or int(table["racks"].sum()) == 0:
        raise NothingToPlot("no replayed pool racks in the selection")
    series = (("racks", "racks played"), ("racks_won", "racks won"), ("clearances", "clearances"),
              ("break_and_dish", "break-and-dish"))  # fmt: skip
    return _grouped_bars(table, series, size, "Eight-ball: racks, clearances and break-and-dish per player")


def nineball_racks(data: Data, size: tuple[int, int] = SIZE) -> Figure:
    """Nine-ball racks per player: played, won, break-and-runs and push outs."""
    return draw_nineball_racks(nineball(data, "player"), size)


def draw_nineball_racks(table: pl.DataFrame, size: tuple[int, int] = SIZE) -> Figure:
    """The picture of :func:`nineball_racks` from the nine-ball report by player."""
    if table.is_empty() or int(table["racks"].sum()) == 0:
        raise NothingToPlot("no replayed nine-ball racks in the selection")
    series = (("racks", "racks played"), ("racks_won", "racks won"), ("break_and_run", "break-and-runs"),
              ("push_outs", "push outs"))  # fmt: skip
    return _grouped_bars(table, series, size, "Nine-ball: racks, break-and-runs and push outs per player")


def runs(data: Data, size: tuple[int, int] = SIZE) -> Figure:
    """14.1 runs (points in one inning, WPA 4.7): every run of every player as a dot, the high
    run marked; the game's headline statistic."""
    table = data.breaks.sort("player", "points")
    if table.is_empty():
        raise NothingToPlot("no 14.1 runs in the selection")
    players, values = _points_per_player(table)
    fig = _figure(size)
    ax = fig.add_subplot()
    with _limits_once(ax):
        for y, points in enumerate(values):
            high = int(points.max())
            ax.scatter(points, numpy.full(len(points), y), color=PALETTE[y % len(PALETTE)], s=18, alpha=0.7)
            ax.text(high, y + 0.25, f"high run {high}", fontsize=8, ha="center")
    ax.set_yticks(range(len(players)), [shown(str(p)) for p in players])
    ax.set_ylim(-0.6, len(players) - 0.2)
    ax.set_xlim(0, _max(table["points"]) * 1.15 + 1)
    ax.set_xlabel("run (points in one inning)")
    ax.set_title("14.1 continuous: runs per player")
    fig.tight_layout()
    return fig


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture of a report's matches: the tables of :class:`Data` it draws from
    (:func:`cuelog.analytics.reports.load` reads only those: every stroke of a season is
    gigabytes in Polars, and most pictures never look at one) and its drawing."""

    report: str
    needs: tuple[str, ...]
    draw: Callable[[Data, tuple[int, int]], Figure]
    stored: Callable[[duckdb.DuckDBPyConnection, Scope, tuple[int, int]], Figure] | None = None
    """Drawn from what DuckDB counts instead (no row per shot or stroke in Python)."""


PICTURES: Final[dict[str, Picture]] = {
    # The frames are the players in scope (a chosen player who played no frame is an error).
    "breaks": Picture("breaks", ("breaks", "frames"), breaks_distribution),
    "clock": Picture(
        "clock",
        ("clock", "frames"),
        shot_times,
        lambda con, scope, size: draw_shot_times(stored_shot_histogram(con, scope), size),
    ),
    "misses": Picture(
        "misses",
        ("strokes", "frames"),
        miss_sequences,
        lambda con, scope, size: draw_miss_sequences(stored_miss_runs(con, scope), size),
    ),
    # The racks pictures draw the pool reports by player, which DuckDB sums (the same rows).
    "racks": Picture(
        "pool",
        ("strokes", "frames"),
        racks,
        lambda con, scope, size: draw_racks(report(con, "pool", scope).frame, size),
    ),
    "nineball": Picture(
        "nineball",
        ("strokes", "frames"),
        nineball_racks,
        lambda con, scope, size: draw_nineball_racks(report(con, "nineball", scope).frame, size),
    ),
    "runs": Picture("straight-pool", ("breaks", "frames"), runs),
}
"""Each picture of ``cuelog plot`` but the worm (a frame of one match: :func:`score_worm`)."""


def picture(con: duckdb.DuckDBPyConnection, name: str, scope: Scope, size: tuple[int, int] = SIZE) -> Figure:
    """Draw the picture ``name`` of the matches in ``scope`` from the store, reading only
    what it draws. Raises ReportError (the selection) and NothingToPlot."""
    chosen = PICTURES[name]
    if chosen.stored is not None:
        return chosen.stored(con, scope, size)
    return chosen.draw(load(con, chosen.report, scope, needs=chosen.needs), size)


SEASON_PLOTS: Final[tuple[tuple[str, str], ...]] = (
    ("breaks", "breaks.png"),
    ("misses", "miss-sequences.png"),
    ("clock", "shot-times.png"),
    ("racks", "racks.png"),
    ("nineball", "nineball.png"),
    ("runs", "runs.png"),
)
"""The pictures of a season: (picture, file name)."""
