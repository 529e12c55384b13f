"""The store's audit reads (cuelog/store/reads.py) and the analytics view made of them
(cuelog/analytics/audit.py): the examples loaded into a real DuckDB file and replayed by
``cuelog replay --db``, what an official checks read back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from cuelog.analytics import audit
from cuelog.cli import app
from cuelog.schemas.records import Correction
from cuelog.store import connect, reads
from tests.conftest import EXAMPLES

runner = CliRunner()


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    """The officiating and billiards examples loaded and replayed with the bundled correction."""
    db = tmp_path_factory.mktemp("audit") / "c.duckdb"
    logs = [str(EXAMPLES / "snooker-officiating.jsonl"), str(EXAMPLES / "billiards-game.jsonl")]
    assert runner.invoke(app, ["ingest", *logs, "--db", str(db)]).exit_code == 0
    fixes = str(EXAMPLES / "fixes.corrections.jsonl")
    result = runner.invoke(app, ["replay", "--db", str(db), "--workers", "1", "--corrections", fixes])
    assert result.exit_code == 1, result.stderr
    c = connect(db, read_only=True)
    yield c
    c.close()


def test_replayed_matches_most_findings_first(con: duckdb.DuckDBPyConnection) -> None:
    table = reads.replayed_matches(con)
    assert isinstance(table, pa.Table)
    rows = table.to_pylist()
    # The billiards game has no findings: it comes after the officiating match.
    assert [(r["match_id"], r["rules"]) for r in rows] == [
        ("example-officiating", "snooker/wpbsa-2024"),
        ("example-billiards", "billiards/wpbsa-2024"),
    ]
    assert rows[1]["findings"] == 0
    officiating = next(r for r in rows if r["match_id"] == "example-officiating")
    assert (officiating["side_a"], officiating["side_b"], officiating["frames"]) == ("Player A", "Player B", 1)
    # The correction removed stroke 2's condoned foul: two of the three findings remain.
    assert officiating["findings"] == 2
    assert reads.most_findings_match(con) == rows[0]["match_id"]
    assert audit.matches(con).to_dicts() == rows


def test_replayed_frames_give_official_and_recorded_score(con: duckdb.DuckDBPyConnection) -> None:
    (frame,) = reads.replayed_frames(con, "example-officiating").to_pylist()
    assert (frame["frame"], frame["score_a"], frame["score_b"]) == (1, 15, 37)
    assert (frame["recorded_a"], frame["recorded_b"], frame["winner"], frame["recorded_winner"]) == (15, 34, "B", "B")
    assert frame["findings"] == 2
    assert audit.frames(con, "example-officiating").to_dicts() == [frame]
    assert reads.replayed_frames(con, "no-such-match").num_rows == 0


def test_match_findings_in_stroke_order(con: duckdb.DuckDBPyConnection) -> None:
    rows = reads.match_findings(con, "example-officiating").to_pylist()
    assert [(r["frame"], r["stroke"], r["kind"], r["rule"], r["side"], r["points"]) for r in rows] == [
        (1, 5, "penalty_value", "S3 R11(b)(iv)", "A", 3),
        (1, 7, "respot_missing", "S3 R7", None, 6),
    ]
    assert audit.findings(con, "example-officiating").to_dicts() == rows
    assert reads.frame_findings(con, "example-officiating", 1) == [(5, "penalty_value"), (7, "respot_missing")]
    assert audit.frame_findings(con, "example-officiating", 2) == []


def test_stored_corrections_come_back_as_corrections(con: duckdb.DuckDBPyConnection) -> None:
    (fix,) = reads.stored_corrections(con, "example-officiating")
    assert fix == Correction(
        match="example-officiating",
        frame=1,
        n=2,
        set={"first": ["red"]},
        note="video review: the cue ball hit the red first, not the pink",
    )
    assert reads.stored_corrections(con, "example-billiards") == []


def test_a_database_without_replay_tables_has_no_stored_corrections(tmp_path: Path) -> None:
    plain = duckdb.connect(str(tmp_path / "old.duckdb"))
    try:
        assert reads.stored_corrections(plain, "example-officiating") == []
    finally:
        plain.close()


def test_match_index_names_each_loaded_match_with_its_rules(con: duckdb.DuckDBPyConnection) -> None:
    index = reads.match_index(con)
    assert index == {
        "example-billiards": ("billiards/wpbsa-2024", None),
        "example-officiating": ("snooker/wpbsa-2024", None),
    }
