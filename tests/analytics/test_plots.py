"""``cuelog plot``: each picture is rendered to a real PNG of the asked size, with content."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib import image
from typer.testing import CliRunner

from cuelog.analytics import plots
from cuelog.analytics.queries import Scope
from cuelog.analytics.reports import load
from cuelog.cli import app
from cuelog.store import connect
from tests.analytics import kit

runner = CliRunner()
pytestmark = pytest.mark.disciplines("snooker")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def render(db: Path, out: Path, *args: str) -> np.ndarray:
    result = runner.invoke(app, ["plot", *args, "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    return image.imread(out)


@pytest.mark.parametrize(
    ("kind", "args"),
    [
        ("breaks", ()),
        ("worm", ("--match", "m2-two-fifties", "--frame", "1")),
        ("clock", ()),
        ("misses", ()),
    ],
)
def test_picture_is_a_png_of_the_asked_size_with_content(stats_db: Path, tmp_path: Path, kind: str, args) -> None:
    pixels = render(stats_db, tmp_path / f"{kind}.png", kind, *args, "--width", "900", "--height", "500")
    assert pixels.shape[:2] == (500, 900)
    rgb = pixels[..., :3]
    # A blank or single-colour picture has no variance; lines, text and bars do.
    assert rgb.std() > 0.05
    # Colour, not just black text on white: the players' series are drawn in colour.
    assert (np.abs(rgb[..., 0] - rgb[..., 2]) > 0.3).sum() > 200


def test_default_size_is_1000_by_600(stats_db: Path, tmp_path: Path) -> None:
    assert render(stats_db, tmp_path / "b.png", "breaks").shape[:2] == (600, 1000)


def test_worm_draws_the_frame_asked_for(stats_db: Path, tmp_path: Path) -> None:
    """Two different frames give two different pictures."""
    a = render(stats_db, tmp_path / "a.png", "worm", "--match", "m1-maximum")
    b = render(stats_db, tmp_path / "b.png", "worm", "--match", "m2-two-fifties")
    assert a.shape == b.shape and not np.array_equal(a, b)


def test_same_data_same_picture(stats_db: Path, tmp_path: Path) -> None:
    render(stats_db, tmp_path / "a.png", "breaks")
    render(stats_db, tmp_path / "b.png", "breaks")
    assert np.array_equal(image.imread(tmp_path / "a.png"), image.imread(tmp_path / "b.png"))


def test_worm_needs_a_match(stats_db: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["plot", "worm", "--db", str(stats_db), "--out", str(tmp_path / "w.png")])
    assert result.exit_code == 2 and "--match" in result.stderr


def test_nothing_to_draw_is_exit_2(stats_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.png"
    result = runner.invoke(app, ["plot", "misses", "--db", str(stats_db), "--match", "m1-maximum", "--out", str(out)])
    assert result.exit_code == 2 and "no foul and a miss calls" in result.stderr
    assert not out.exists()


def test_unknown_player_is_exit_2(stats_db: Path, tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["plot", "breaks", "--db", str(stats_db), "--player", "Zed", "--out", str(tmp_path / "z.png")]
    )
    assert result.exit_code == 2 and "no player named 'Zed'" in result.stderr


def test_empty_database_is_exit_2(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "empty.duckdb")
    result = runner.invoke(app, ["plot", "breaks", "--db", str(db), "--out", str(tmp_path / "b.png")])
    assert result.exit_code == 2 and "has no matches" in result.stderr


def test_score_worm_marks_each_finding_on_its_stroke(tmp_path: Path) -> None:
    from cuelog.analytics.audit import frame_findings
    from cuelog.analytics.plots import score_worm
    from cuelog.analytics.queries import Scope
    from cuelog.analytics.reports import load
    from cuelog.store import connect
    from tests.conftest import EXAMPLES

    db = tmp_path / "examples.duckdb"
    assert runner.invoke(app, ["ingest", str(EXAMPLES / "snooker-officiating.jsonl"), "--db", str(db)]).exit_code == 0
    assert runner.invoke(app, ["replay", "--db", str(db), "--workers", "1"]).exit_code == 1
    con = connect(db, read_only=True)
    try:
        found = frame_findings(con, "example-officiating", 1)
        fig = score_worm(
            load(con, "clock", Scope(matches=("example-officiating",))), "example-officiating", 1, findings=found
        )
    finally:
        con.close()
    assert [n for n, _ in found] == [2, 5, 7]
    [ax] = fig.axes
    [marks] = [line for line in ax.get_lines() if line.get_gid() == "findings"]
    assert list(marks.get_xdata()) == [1.5, 4.5, 6.5]  # the middle of strokes 2, 5 and 7
    labels = {t.get_text() for t in ax.texts}
    assert "foul not called" in labels and "ball not spotted that had to be" in labels
    assert "3 finding(s) marked" in ax.get_title()
    out = tmp_path / "worm.png"
    fig.savefig(out)
    assert out.read_bytes()[:8] == PNG_SIGNATURE


def test_s3_r14d_iii_the_opponents_stroke_ends_a_miss_sequence_with_one_player_chosen(tmp_path: Path) -> None:
    """Bob is called for a FOUL AND A MISS, Ann plays on (a stroke of hers ends the
    sequence, S3 R14(d)(iii)), then Bob is called again: two sequences of one, also when
    the picture shows Bob alone (his two misses are then next to each other in his strokes,
    one number apart). The same from DuckDB's sequences and from the strokes in Polars."""
    log = kit.Log("m9-two-sequences", "Ann", "Bob").frame(breaker="B")
    log.safety("B").safety("A")  # n1, n2
    log.foul("B", ["blue"], 5, miss=True)  # n3
    log.choice("A", "play")
    log.safety("A")  # n4: Ann plays on
    log.foul("B", ["blue"], 5, miss=True)  # n5: a new sequence
    log.choice("A", "replace_return")
    log.safety("B")  # n6: Bob hits the red
    db = kit.load(tmp_path / "t.duckdb", log)
    assert runner.invoke(app, ["replay", "--db", str(db)]).exit_code in (0, 1)
    con = connect(db, read_only=True)
    try:
        for scope in (Scope(), Scope(players=("Bob",))):
            stored = plots.stored_miss_runs(con, scope).to_dicts()
            counted = plots.longest_miss_runs(load(con, "misses", scope, needs=("strokes", "frames"))).to_dicts()
            assert stored == counted
            assert [(r["player"], r["from_n"], r["to_n"], r["length"], r["points"]) for r in stored] == [
                ("Bob", 3, 3, 1, 5),
                ("Bob", 5, 5, 1, 5),
            ]
    finally:
        con.close()


def test_s2_r8_every_break_is_a_dot_on_its_players_row_and_the_view_holds_them(stats_db: Path) -> None:
    """The breaks picture: a row per player (sorted by name), each of the player's breaks
    (S2 R8) a dot at its points, equal values spread by rank over the row; the view is the one
    matplotlib works out for every dot and box (worked out once, after the last row)."""
    con = connect(stats_db, read_only=True)
    try:
        data = load(con, "breaks", Scope())
    finally:
        con.close()
    fig = plots.breaks_distribution(data)
    [ax] = fig.axes
    expected: dict[str, list[int]] = {}
    for player, points in data.breaks.select("player", "points").iter_rows():
        expected.setdefault(player, []).append(points)
    dots = [c for c in ax.collections if c.get_label() in expected]
    assert [c.get_label() for c in dots] == sorted(expected) and len(dots) > 1
    for row, dot in enumerate(dots, start=1):
        xy = dot.get_offsets()
        points = sorted(expected[dot.get_label()])
        assert list(xy[:, 0]) == points
        assert list(xy[:, 1]) == [row + ((k % 7) - 3) * 0.04 for k in range(len(points))]
    assert ax.get_autoscaley_on()
    shown = ax.get_ylim()
    ax.autoscale_view()
    assert ax.get_ylim() == shown
    low, high = shown
    assert all(low < y < high for dot in dots for y in dot.get_offsets()[:, 1])
