"""Reports as queries: ``report`` aggregates in DuckDB (``cuelog.store.aggregates``) and must
give, row for row and value for value, what the per-row Polars summaries (``REPORTS`` over
``load``, which the plots use) give from the same store: a simulated season of every
discipline with its shot clocks, grouped by player, match and event, for everyone and for
one player."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from cuelog.analytics.queries import BY, GROUPS, KINDS, Scope, report
from cuelog.analytics.reports import REPORTS, load
from cuelog.cli import app
from cuelog.store import connect, summaries

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
    finally:
        con.close()
    limited = [r for r in rows if r["over_limit"] is not None]
    assert len(limited) == 1 and limited[0]["over_limit"] == over > 0
    assert all(r["over_limit"] is None for r in rows if r is not limited[0])


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
