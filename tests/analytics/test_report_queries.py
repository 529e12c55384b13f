"""Reports as queries: ``report`` aggregates in DuckDB (``cuelog.store.aggregates``) and must
give, row for row and value for value, what the per-row Polars summaries (``REPORTS`` over
``load``, which the plots use) give from the same store: a simulated season of every
discipline with its shot clocks, grouped by player, match and event, for everyone and for
one player."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pyarrow as pa
import pytest
from matplotlib.figure import Figure
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from cuelog.analytics import plots
from cuelog.analytics.queries import BY, GROUPS, KINDS, Scope, report
from cuelog.analytics.reports import REPORTS, Data, load
from cuelog.cli import app
from cuelog.store import connect, reads, summaries

runner = CliRunner()
SEASONS = ("snooker/wpbsa-2024", "billiards/wpbsa-2024", "eightball/world-2015", "nineball/wpa", "straight-pool/wpa")


def cli(*args: str | Path) -> None:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.output


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("season")
    for rules in SEASONS:
        cli("simulate", "--rules", rules, "--matches", 3, "--seed", 5, "--out", root / rules.split("/")[0])
        cli("simulate", "--rules", rules, "--matches", 2, "--seed", 6, "--out", root / "x", "--errors", 0.05)
    clocks = [a for csv in sorted(root.glob("*/clocks/*.csv")) for a in ("--clock", csv)]
    db = root / "s.duckdb"
    runner.invoke(app, ["ingest", *(str(p) for p in sorted(root.glob("*/logs"))), *map(str, clocks), "--db", str(db)])
    cli("replay", "--db", db)
    return db


@pytest.mark.parametrize("kind", KINDS)
def test_each_report_query_equals_the_summary_of_every_row(season: Path, kind: str) -> None:
    con = connect(season, read_only=True)
    try:
        everyone = report(con, kind, by="player")
        assert everyone.frame.height > 0
        someone = str(everyone.frame["player"][0])
        for scope in (Scope(), Scope(players=(someone,))):
            for by in BY:
                queried = report(con, kind, scope, by).frame
                summed = REPORTS[kind](load(con, kind, scope), by)
                assert_frame_equal(queried, summed, check_exact=True)
    finally:
        con.close()


def test_reports_of_one_connection_each_cover_their_own_selection(season: Path) -> None:
    """A notebook asks for one event, then for every match, then for one match, on one
    connection: each report covers its own selection (the matches in scope are made again
    for each), the same rows as on a connection of its own."""
    con = connect(season, read_only=True)
    try:
        events = sorted({str(e) for e in report(con, "clock", by="event").frame["event"].to_list()})
        asked = [("clock", Scope(events=(events[0],))), ("clock", Scope()), ("breaks", Scope()), ("clock", Scope())]
        asked += [("breaks", Scope(matches=(str(report(con, "breaks", by="match").frame["match"][0]),)))]
        got = [report(con, kind, scope, "match").frame for kind, scope in asked]
    finally:
        con.close()
    assert got[0].height < got[1].height  # one event's matches, then every match's
    for (kind, scope), frame in zip(asked, got, strict=True):
        alone = connect(season, read_only=True)
        try:
            assert_frame_equal(frame, report(alone, kind, scope, "match").frame, check_exact=True)
        finally:
            alone.close()
    assert got[-1].height == 1


def test_the_clock_report_counts_shots_over_a_limit(season: Path) -> None:
    """A shot over its limit counts; groups with no limit on any shot say None, not 0."""
    con = connect(season)
    try:
        first = con.execute("SELECT min(match_id) FROM shot_clock").fetchall()[0][0]
        con.execute("UPDATE shot_clock SET limit_s = 20.0 WHERE shot_s IS NOT NULL AND match_id = ?", [first])
        # Written past the store's functions: its summary is refreshed as loading a clock log does.
        summaries.refresh_shots(con, pa.array([first]))
        over = con.execute(
            "SELECT count(*) FROM shot_clock c JOIN replay_strokes r USING (match_id, frame, n) "
            "WHERE c.shot_s > c.limit_s"
        ).fetchall()[0][0]
        rows = report(con, "clock", by="match").rows
        assert rows == report(con, "clock", by="match", direct=True).rows
        # By player and event the figures come from the shot times' rows per second.
        grouped = {by: report(con, "clock", by=by).rows for by in ("player", "event")}
        for by, these in grouped.items():
            assert these == report(con, "clock", by=by, direct=True).rows
    finally:
        con.close()
    limited = [r for r in rows if r["over_limit"] is not None]
    assert len(limited) == 1 and limited[0]["over_limit"] == over > 0
    assert all(r["over_limit"] is None for r in rows if r is not limited[0])
    # The match's shots over the limit are its two players' together, and all its event's.
    assert sum(r["over_limit"] or 0 for r in grouped["player"]) == over
    assert [r["over_limit"] for r in grouped["event"] if r["over_limit"] is not None] == [over]


@pytest.mark.parametrize("kind", KINDS)
def test_the_json_printed_is_the_standard_encoders_text(season: Path, kind: str) -> None:
    """``cuelog report --json`` writes its document with msgspec (the standard encoder's
    indented text is slow for a season's breaks): the same bytes as
    ``json.dumps(indent=1, ensure_ascii=False)``, its figures to two places included."""
    con = connect(season, read_only=True)
    try:
        documents = [report(con, kind, by=by).document() for by in BY]
    finally:
        con.close()
    if kind not in ("breaks", "nineball"):  # the others show averages or times
        assert any(isinstance(v, float) for doc in documents for row in doc[GROUPS[doc["by"]]] for v in row.values())
    for by, doc in zip(BY, documents, strict=True):
        printed = runner.invoke(app, ["report", kind, "--by", by, "--db", str(season), "--json"])
        assert printed.exit_code == 0
        assert printed.stdout == json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def test_the_shot_time_picture_counted_by_duckdb_is_the_picture_of_every_shot(season: Path) -> None:
    """``cuelog plot clock`` counts the shot times in DuckDB (a season's ten million never
    reach Python): the same counts as numpy's histogram of every time, from the summaries
    and from the shot clock joined to the strokes, and the same PNG, byte for byte, as
    matplotlib draws from every time, for everyone (one histogram of all shots), two
    players (one each) and one event."""
    con = connect(season, read_only=True)
    try:
        players = [str(row["player"]) for row in report(con, "clock", by="player").rows]
        events = [str(row["event"]) for row in report(con, "clock", by="event").rows if row["event"] is not None]
        assert len(players) > plots.COMPARE and events
        for scope in (Scope(), Scope(players=tuple(players[:2])), Scope(events=(events[0],))):
            data = load(con, "clock", scope, needs=("clock", "frames"))
            counted = plots.stored_shot_histogram(con, scope)
            assert counted == plots.shot_histogram(data)
            assert len(counted.groups) == (1 if scope == Scope() else len({p for p in data.clock["player"]}))
            width, chosen = counted.edges[1] - counted.edges[0], list(scope.players)
            for by_player in (True, False):
                summed = reads.shot_counts(con, chosen, width, by_player=by_player, summarised=True)
                assert summed == reads.shot_counts(con, chosen, width, by_player=by_player, summarised=False)
            assert png(plots.picture(con, "clock", scope)) == png(every_shot(data))
    finally:
        con.close()


def png(figure: Figure) -> bytes:
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=plots.DPI)
    return out.getvalue()


def every_shot(data: Data) -> Figure:
    """The shot-time picture as matplotlib draws it from every shot time (what the picture
    was before the counts): the reference the counted picture is held to."""
    clock = data.clock.sort("player", "match_id", "frame", "n")
    hist = plots.shot_histogram(data)
    fig = Figure(figsize=(plots.SIZE[0] / plots.DPI, plots.SIZE[1] / plots.DPI), dpi=plots.DPI)
    ax = fig.add_subplot()
    players = clock["player"].unique(maintain_order=True).to_list()
    if len(players) <= plots.COMPARE:
        groups = [(p, clock.filter(clock["player"] == p)["shot_s"].to_list()) for p in players]
    else:
        groups = [(f"all shots, {len(players)} players", clock["shot_s"].to_list())]
    for i, (label, times) in enumerate(groups):
        colour = plots.PALETTE[i % len(plots.PALETTE)]
        ax.hist(
            times,
            bins=hist.edges,
            histtype="stepfilled",
            alpha=0.45,
            color=colour,
            edgecolor=colour,
            label=plots.shown(label),
        )
    for lim in hist.limits:
        ax.axvline(lim, color="black", linestyle="--", linewidth=1)
        ax.text(lim, 0.98, f" limit {lim:g} s", transform=ax.get_xaxis_transform(), va="top", fontsize=8)
    ax.set_xlabel("shot time (s)")
    ax.set_ylabel("shots")
    ax.set_title(f"Shot times ({clock.height} shots)")
    ax.legend(loc="upper right")
    fig.tight_layout()
    return fig


def test_the_miss_sequences_found_by_duckdb_are_those_of_every_stroke(season: Path) -> None:
    """``cuelog plot misses`` has DuckDB find the longest FOUL AND A MISS sequences from
    the called misses alone (S3 R14): the same sequences as the strokes give in Polars, and
    the same picture, for everyone and for each of two players with sequences."""
    con = connect(season, read_only=True)
    try:
        everyone = plots.stored_miss_runs(con, Scope())
        assert everyone.height > 0
        chosen = sorted(set(everyone["player"].to_list()))[:2]
        for scope in (Scope(), *(Scope(players=(p,)) for p in chosen)):
            data = load(con, "misses", scope, needs=("strokes", "frames"))
            stored = plots.stored_miss_runs(con, scope)
            assert stored.to_dicts() == plots.longest_miss_runs(data).to_dicts()
            assert png(plots.picture(con, "misses", scope)) == png(plots.miss_sequences(data))
    finally:
        con.close()


@pytest.mark.parametrize("name", list(plots.PICTURES))
def test_each_picture_from_the_store_is_the_picture_of_every_row(season: Path, name: str) -> None:
    """``cuelog plot NAME`` (``plots.picture``: counts, sequences or report rows from
    DuckDB where the picture allows) draws the PNG the picture's drawing makes from every
    row of the report's tables, for everyone and for one player."""
    chosen = plots.PICTURES[name]
    con = connect(season, read_only=True)
    try:
        someone = str(report(con, chosen.report, by="player").rows[0]["player"])
        for scope in (Scope(), Scope(players=(someone,))):
            every_row = load(con, chosen.report, scope)
            try:
                expected = png(chosen.draw(every_row, plots.SIZE))
            except plots.NothingToPlot:
                with pytest.raises(plots.NothingToPlot):
                    plots.picture(con, name, scope)
                continue
            assert png(plots.picture(con, name, scope)) == expected
    finally:
        con.close()
