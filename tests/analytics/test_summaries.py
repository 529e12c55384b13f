"""The report summaries (``cuelog.store.summaries``): a report made from them is the report
made by aggregating every replayed stroke (``direct=True``), value for value and in its
``--json`` bytes, for every kind, grouping and selection; and they stay right when a match
is loaded again with ``--replace``, replayed again, or its shot clock re-aligned, or when
a replay fails."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from cuelog.analytics.queries import BY, KINDS, Scope, report
from cuelog.cli import app
from cuelog.replay.model import Finding, FrameResult, MatchResult, Outcome
from cuelog.store import connect, summaries
from cuelog.store.results import SIDES, result_tables

runner = CliRunner()
SEASONS = ("snooker/wpbsa-2024", "billiards/wpbsa-2024", "eightball/world-2015", "nineball/wpa", "straight-pool/wpa")


def cli(*args: str | Path) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def simulate(root: Path) -> Path:
    """A season of every discipline with officiating errors and shot clocks, not loaded."""
    for rules in SEASONS:
        name = rules.split("/")[0]
        cli("simulate", "--rules", rules, "--matches", 3, "--seed", 11, "--out", root / name, "--errors", 0.05)
    return root


def clocks(root: Path) -> list[str]:
    return [a for csv in sorted(root.glob("*/clocks/*.csv")) for a in ("--clock", str(csv))]


def loaded(root: Path, db: Path, *, with_clocks: bool = True) -> Path:
    cli("ingest", *sorted(root.glob("*/logs")), *(clocks(root) if with_clocks else []), "--db", db)
    return db


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = simulate(tmp_path_factory.mktemp("summaries"))
    db = loaded(root, root / "s.duckdb")
    cli("replay", "--db", db)
    return db


def documents(db: Path, kind: str, scope: Scope = Scope(), by: str = "player") -> tuple[str, str]:
    """The report's ``--json`` document from the summaries and from every stroke."""
    con = connect(db, read_only=True)
    try:
        fast, direct = report(con, kind, scope, by), report(con, kind, scope, by, direct=True)
    finally:
        con.close()
    assert fast.frame.height > 0
    assert_frame_equal(fast.frame, direct.frame, check_exact=True)
    return tuple(json.dumps(r.document(), indent=1, ensure_ascii=False) for r in (fast, direct))  # type: ignore[return-value]


def scopes(db: Path, kind: str) -> list[Scope]:
    """Everyone, one player, one match, one event of the report's matches."""
    con = connect(db, read_only=True)
    try:
        rows = report(con, kind, by="match").rows
        match = str(rows[0]["match"])
        player, event = con.execute("SELECT side_a, event FROM matches WHERE match_id = ?", [match]).fetchall()[0]
    finally:
        con.close()
    return [Scope(), Scope(players=(player,)), Scope(matches=(match,)), Scope(events=(event,))]


@pytest.mark.parametrize("kind", KINDS)
def test_each_report_from_the_summaries_is_the_report_from_every_stroke(season: Path, kind: str) -> None:
    for scope in scopes(season, kind):
        for by in BY:
            fast, direct = documents(season, kind, scope, by)
            assert fast == direct


def test_the_report_command_prints_the_same_json_as_before(season: Path) -> None:
    """``cuelog report KIND --json`` from the summaries, and from a copy of the store whose
    summaries were removed (as a database replayed before them): the same bytes."""
    old = season.parent / "old.duckdb"
    shutil.copy(season, old)
    con = connect(old)
    try:
        summaries.delete(con, None)
    finally:
        con.close()
    for kind in KINDS:
        for by in BY:
            assert cli("report", kind, "--by", by, "--db", season, "--json") == cli(
                "report", kind, "--by", by, "--db", old, "--json"
            )


def rows(db: Path, sql: str, params: list[object] | None = None) -> list[tuple[object, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def summary_counts(db: Path) -> dict[str, int]:
    return {t: int(rows(db, f"SELECT count(*) FROM {t}")[0][0]) for t in summaries.SUMMARY_TABLES}


def test_replaying_again_leaves_one_summary_per_match_and_side(tmp_path: Path) -> None:
    root = simulate(tmp_path)
    db = loaded(root, tmp_path / "s.duckdb")
    cli("replay", "--db", db)
    once = summary_counts(db)
    cli("replay", "--db", db)
    assert summary_counts(db) == once
    match = str(rows(db, "SELECT min(match_id) FROM summary_sides")[0][0])
    cli("replay", "--db", db, "--match", match)
    assert summary_counts(db) == once
    assert rows(db, "SELECT side FROM summary_sides WHERE match_id = ? ORDER BY side", [match]) == [("A",), ("B",)]
    assert once["summary_sides_rows"] == 2 * rows(db, "SELECT count(DISTINCT match_id) FROM replay_frames")[0][0]
    assert once["summary_shots"] > 0 and once["summary_push_outs"] >= 0
    for kind in KINDS:
        assert documents(db, kind)[0] == documents(db, kind)[1]


def test_a_match_loaded_again_with_replace_loses_its_summaries_until_replayed(tmp_path: Path) -> None:
    root = simulate(tmp_path)
    db = loaded(root, tmp_path / "s.duckdb")
    cli("replay", "--db", db)
    log = sorted((root / "snooker" / "logs").glob("*.jsonl"))[0]
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    head = json.loads(lines[0])
    match, before = head["match"], head["sides"]["A"]
    head["sides"]["A"] = "Renamed Player"
    fixed = tmp_path / "fixed.jsonl"
    fixed.write_text(json.dumps(head) + "\n" + "".join(lines[1:]), encoding="utf-8")
    cli("ingest", fixed, "--replace", "--db", db)
    for table in summaries.SUMMARY_TABLES:
        assert rows(db, f"SELECT count(*) FROM {table} WHERE match_id = ?", [match]) == [(0,)], table
    # Unreplayed now: left out of both the summaries' and the strokes' report.
    fast, direct = documents(db, "breaks")
    assert fast == direct and "Renamed Player" not in fast
    cli("replay", "--db", db, "--match", match)
    fast, direct = documents(db, "breaks")
    assert fast == direct and "Renamed Player" in fast
    player = [p for p in json.loads(fast)["players"] if p["player"] == "Renamed Player"]
    assert player and player[0]["frames"] > 0
    assert before not in [
        p["player"] for p in json.loads(documents(db, "breaks", Scope(matches=(match,)))[0])["players"]
    ]


def test_shot_clocks_loaded_after_the_replay_reach_the_clock_report(tmp_path: Path) -> None:
    """The clocks aligned after the replay refresh the replayed matches' shot times in the
    same transaction; loading the same logs again changes nothing."""
    root = simulate(tmp_path)
    db = loaded(root, tmp_path / "s.duckdb", with_clocks=False)
    cli("replay", "--db", db)
    assert summary_counts(db)["summary_shots"] == 0
    # The logs again (already loaded: nothing changes) with the clocks.
    cli("ingest", *sorted(root.glob("*/logs")), *clocks(root), "--db", db)
    shots = summary_counts(db)["summary_shots"]
    timed = rows(
        db,
        "SELECT count(*) FROM shot_clock c JOIN replay_strokes r USING (match_id, frame, n) WHERE c.shot_s IS NOT NULL",
    )[0][0]
    assert shots == timed > 0
    fast, direct = documents(db, "clock", by="match")
    assert fast == direct
    cli("ingest", *sorted(root.glob("*/logs")), *clocks(root), "--db", db)
    assert summary_counts(db)["summary_shots"] == shots
    assert documents(db, "clock", by="match") == (fast, direct)


SHOT_TABLES = ("summary_shots", "summary_shot_counts", "summary_shot_medians", "summary_shot_inputs")


def shot_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """The shot times' summaries, each row with its DuckDB row id: a row made again gets a new one."""
    return {table: rows(db, f"SELECT rowid, * FROM {table} ORDER BY rowid") for table in SHOT_TABLES}


def test_replaying_again_makes_no_match_shot_times_whose_strikers_clock_and_players_are_the_same(
    season: Path, tmp_path: Path
) -> None:
    db = tmp_path / "again.duckdb"
    shutil.copy(season, db)
    before = shot_rows(db)
    assert len(before["summary_shot_inputs"]) == rows(db, "SELECT count(*) FROM replay_current")[0][0]
    cli("replay", "--db", db)
    assert shot_rows(db) == before
    for kind in KINDS:
        assert documents(db, kind)[0] == documents(db, kind)[1]


def test_a_correction_that_changes_a_striker_gives_the_shot_time_to_the_other_side(
    season: Path, tmp_path: Path
) -> None:
    """A correction changes who struck (docs/format.md section 6): the match's shot times
    are made again, the timed stroke's under the other side; no other match's are."""
    db = tmp_path / "corrected.duckdb"
    shutil.copy(season, db)
    match, frame, n, striker = rows(
        db,
        "SELECT r.match_id, r.frame, r.n, r.striker FROM replay_strokes r JOIN shot_clock c USING (match_id, frame, n)"
        " WHERE c.shot_s IS NOT NULL AND r.match_id LIKE 'snooker-%' ORDER BY ALL LIMIT 1",
    )[0]
    other = "B" if striker == "A" else "A"
    fixes = tmp_path / "striker.corrections.jsonl"
    fixes.write_text(json.dumps({"match": match, "frame": frame, "n": n, "set": {"striker": other}}) + "\n", "utf-8")
    sides = "SELECT side, count(*) FROM summary_shots WHERE match_id = ? GROUP BY side ORDER BY side"
    counts = dict(rows(db, sides, [match]))
    before = shot_rows(db)
    cli("replay", "--db", db, "--corrections", fixes)
    assert rows(
        db, "SELECT striker FROM replay_strokes WHERE match_id = ? AND frame = ? AND n = ?", [match, frame, n]
    ) == [(other,)]
    moved = dict(rows(db, sides, [match]))
    assert moved[other] == counts.get(other, 0) + 1 and moved.get(striker, 0) == counts[striker] - 1
    after = shot_rows(db)  # (row ids aside: DuckDB may compact a row group that lost rows)
    for table in SHOT_TABLES:
        assert [row[1:] for row in after[table] if row[1] != match] == [
            row[1:] for row in before[table] if row[1] != match
        ]
    assert [row[1:] for row in after["summary_shot_inputs"] if row[1] == match] != [
        row[1:] for row in before["summary_shot_inputs"] if row[1] == match
    ]
    fast, direct = documents(db, "clock", Scope(matches=(match,)), by="player")
    assert fast == direct


def test_matches_loaded_after_a_replay_get_the_shot_times_a_replay_of_them_all_gives(
    season: Path, tmp_path: Path
) -> None:
    """A season loaded and replayed a discipline at a time ends with the shot times' summaries
    of the season loaded and replayed at once (``season``), row for row."""
    root = simulate(tmp_path)
    db = tmp_path / "weekly.duckdb"
    for name in sorted(p.name for p in root.iterdir() if p.is_dir()):
        csvs = [a for csv in sorted((root / name / "clocks").glob("*.csv")) for a in ("--clock", str(csv))]
        cli("ingest", root / name / "logs", *csvs, "--db", db)
        cli("replay", "--db", db)
    for table in SHOT_TABLES:
        assert rows(db, f"SELECT * FROM {table} ORDER BY ALL") == rows(season, f"SELECT * FROM {table} ORDER BY ALL")
    assert documents(db, "clock", by="player") == documents(season, "clock", by="player")


def test_a_failed_replay_leaves_the_summaries_as_they_were(season: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.duckdb"
    shutil.copy(season, db)
    before = summary_counts(db)
    fixes = tmp_path / "bad.corrections.jsonl"
    match = str(rows(db, "SELECT min(match_id) FROM matches")[0][0])
    fixes.write_text(json.dumps({"match": match, "frame": 99, "n": 1, "set": {"foul": True}}) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", "--db", str(db), "--corrections", str(fixes)])
    assert result.exit_code == 2
    assert summary_counts(db) == before


def side_rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple[object, ...]]:
    """Rows with their lists sorted (a list's order is the aggregation's, never read)."""
    return [tuple(sorted(v) if isinstance(v, list) else v for v in row) for row in con.execute(sql).fetchall()]


def sql_sides(con: duckdb.DuckDBPyConnection) -> list[tuple[object, ...]]:
    tables = {name: name for name in ("replay_frames", "replay_strokes", "replay_breaks", "replay_findings")}
    sql = summaries._SIDES_SQL.format(**{k.removeprefix("replay_"): v for k, v in tables.items()})
    return side_rows(con, sql)


def test_the_summaries_built_with_the_results_are_what_the_sql_gives_from_their_rows(season: Path) -> None:
    """The workers build each match's ``summary_sides`` rows from its results; the SQL
    computes them from the stored rows (a store summarised afterwards): the same rows."""
    con = connect(season, read_only=True)
    try:
        written = side_rows(con, "SELECT * FROM summary_sides ORDER BY match_id, side")
        assert written == sql_sides(con)
        assert {r[0] for r in written} == {r[0] for r in con.execute("SELECT match_id FROM replay_frames").fetchall()}
    finally:
        con.close()


def test_the_hand_built_matches_summarise_as_the_sql_says(stats_db: Path) -> None:
    """The worked examples (a maximum, two fifties, a miss sequence, a billiards game)."""
    con = connect(stats_db, read_only=True)
    try:
        written = side_rows(con, "SELECT * FROM summary_sides ORDER BY match_id, side")
        assert written == sql_sides(con)
        longest = dict(
            ((m, s), n)
            for m, s, n in con.execute("SELECT match_id, side, longest_miss_sequence FROM summary_sides").fetchall()
        )
        assert max(longest.values()) >= 2  # the miss sequence is there to be found
    finally:
        con.close()


def test_rebuilding_gives_the_rows_the_replay_wrote(season: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.duckdb"
    shutil.copy(season, db)
    con = connect(db)
    try:
        before = {t: side_rows(con, f"SELECT * FROM {t} ORDER BY ALL") for t in summaries.SUMMARY_TABLES}
        summaries.rebuild(con)
        assert {t: side_rows(con, f"SELECT * FROM {t} ORDER BY ALL") for t in summaries.SUMMARY_TABLES} == before
    finally:
        con.close()


def test_shot_times_inserted_a_range_of_matches_at_a_time_are_those_of_one_statement(
    season: Path, tmp_path: Path, monkeypatch
) -> None:
    """The shot summaries are joined a range of matches at a time (memory bounded by the
    range, not the season): any range size gives the same rows in the same order."""
    db = tmp_path / "s.duckdb"
    shutil.copy(season, db)

    def shots_after_replay(batch: int) -> list[tuple[object, ...]]:
        monkeypatch.setattr(summaries, "SHOT_BATCH", batch)
        cli("replay", "--db", db)
        return rows(db, "SELECT * FROM summary_shots")  # in insertion order

    whole = shots_after_replay(10**9)
    assert len(whole) > 100
    assert shots_after_replay(1) == whole  # a match a statement
    assert shots_after_replay(97) == whole


def test_s3_r14diii_a_miss_sequence_is_one_strikers_consecutive_called_misses() -> None:
    """S3 R14(d)(iii) counts a striker's consecutive misses: a miss by the other side ends
    the sequence, and so does a miss the referee should not have called (a condoned foul,
    counted apart). A misses, B misses twice (put back), A misses, then A's condoned foul
    and A's miss again."""

    def miss(n: int, striker: str) -> Outcome:
        return Outcome(n=n, striker=striker, scored=0, penalty=4, foul=True, miss=True, visit_id=n)

    frame = FrameResult(
        frame=1,
        score=(24, 8),
        recorded=(24, 8),
        winner=None,
        outcomes=[miss(1, "A"), miss(2, "B"), miss(3, "B"), miss(4, "A"), miss(5, "A"), miss(6, "A")],
        findings=[Finding(n=5, kind="condoned_foul", rule="S3 R14(d)", side="A", points=4, message="condoned")],
        visits=(4, 2),
    )
    match = MatchResult(match="m1", rules="snooker/wpbsa-2024", sides={}, frames=[frame])
    sides = {row["side"]: row for row in result_tables([match], sides=True)[SIDES].to_pylist()}
    assert sides["A"]["longest_miss_sequence"] == 1  # 1 | 4 | (5 condoned) | 6
    assert sides["B"]["longest_miss_sequence"] == 2  # 2, 3
    assert sides["A"]["miss_calls"] == 3 and sides["B"]["miss_calls"] == 2
    assert sides["A"]["condoned_fouls"] == 1 and sides["A"]["foul_points_conceded"] == 12
    assert sides["A"]["miss_points_conceded"] == 12 and sides["B"]["miss_points_conceded"] == 8
    assert sides["A"]["fouls"] == 4 and sides["B"]["fouls_conceded"] == 4
    assert (sides["A"]["visits"], sides["B"]["visits"]) == (4, 2)
