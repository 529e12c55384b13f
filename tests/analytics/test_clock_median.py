"""The clock report's median from the shot counts per whole second
(``summary_shot_counts``): the same figure, bit for bit, as DuckDB's ``median`` over every
shot time of the group (the store's fallback, and what the report gave before the counts),
and as the report made from every replayed stroke, for odd and even counts, ties, times on
a whole second, middle times in two different seconds, and groups of one or two shots."""

from __future__ import annotations

import json
import math
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import duckdb
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from cuelog.analytics.queries import BY, Scope, checked_scope, report
from cuelog.cli import app
from cuelog.store import connect, report_scope, summed
from cuelog.store.report_scope import GroupRows

runner = CliRunner()
SEASONS = ("snooker/wpbsa-2024", "billiards/wpbsa-2024", "eightball/world-2015")

# Shot times made from the simulated ones (``shot_s``) and a stable hash of the stroke (``{h}``).
TIMES = {
    "milliseconds": "shot_s",
    "whole seconds": "CAST(floor(shot_s) AS DOUBLE)",
    "three values": "CAST({h} % 3 AS DOUBLE) + 0.5",
    "halves": "round(shot_s * 2) / 2",
    "on the rounding edge": "floor(shot_s) + 0.005 + ({h} % 2) * 0.01",
    "one shot in forty": "CASE WHEN {h} % 40 = 0 THEN shot_s END",
    "one shot in four hundred": "CASE WHEN {h} % 400 = 0 THEN shot_s + {h} % 7 END",
}


def cli(*args: str | Path) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.output
    return result.stdout


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A season with shot clocks, loaded and replayed (which writes the counts)."""
    root = tmp_path_factory.mktemp("clock-median")
    for rules in SEASONS:
        name = rules.split("/")[0]
        cli("simulate", "--rules", rules, "--matches", 4, "--seed", 5, "--out", root / name, "--errors", 0.02)
    csvs = [a for csv in sorted(root.glob("*/clocks/*.csv")) for a in ("--clock", str(csv))]
    db = root / "s.duckdb"
    cli("ingest", *sorted(root.glob("*/logs")), *csvs, "--db", db)
    cli("replay", "--db", db)
    return db


def with_times(season: Path, dest: Path, expr: str, limit: str = "limit_s") -> Path:
    """A copy of the season whose shot clock holds the times ``expr`` (and the limits
    ``limit``), replayed again (the replay writes the shot times and their counts of each
    match whose readings changed)."""
    shutil.copy(season, dest)
    with duckdb.connect(str(dest)) as con:
        h = "hash(match_id, frame, n)"
        con.execute(f"UPDATE shot_clock SET shot_s = {expr.format(h=h)}, limit_s = {limit.format(h=h)}")
    cli("replay", "--db", dest)
    return dest


def by_key(rows: GroupRows, key: str) -> list[dict[str, object]]:
    """A query's group rows as dicts, in the order of their key (a group without one last)."""
    dicts = [dict(zip(rows.columns, row, strict=True)) for row in rows.rows]
    return sorted(dicts, key=lambda d: (d[key] is None, str(d[key] or "")))


def clock_documents(db: Path, scope: Scope, by: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The clock report's ``--json`` document from the counts, from the summaries' shot
    times without them (DuckDB's ``median``), and from every replayed stroke; and the
    group rows before rounding, from the counts and without them, value for value."""
    con = connect(db, read_only=True)
    try:
        assert report_scope.shots_counted(con)
        counted = report(con, "clock", scope, by)
        key, players = {"player": "player", "match": "match_id", "event": "event"}[by], list(scope.players)
        exact = by_key(summed.clock(con, key, players), key)
        with monkeypatch.context() as m:
            m.setattr(report_scope, "shots_counted", lambda _con: False)
            median = report(con, "clock", scope, by)
            assert by_key(summed.clock(con, key, players), key) == exact
        direct = report(con, "clock", scope, by, direct=True)
    finally:
        con.close()
    for other in (median, direct):
        assert_frame_equal(counted.frame, other.frame, check_exact=True)
    return [json.dumps(r.document(), indent=1, ensure_ascii=False) for r in (counted, median, direct)]


def middles(db: Path, key: str) -> list[tuple[int, float, float, float | None, float | None]]:
    """Each group's count, its middle time(s) and their neighbours (to see what the cases cover)."""
    with duckdb.connect(str(db), read_only=True) as con:
        groups = con.execute(f"SELECT list(shot_s ORDER BY shot_s) FROM summary_shots GROUP BY {key}").fetchall()
    out = []
    for (times,) in groups:
        n = len(times)
        lo, hi = times[(n - 1) // 2], times[n // 2]
        before = times[(n - 1) // 2 - 1] if n > 2 else None
        after = times[n // 2 + 1] if n > 2 else None
        out.append((n, lo, hi, before, after))
    return out


@pytest.mark.parametrize("name", list(TIMES))
def test_the_median_from_the_counts_is_the_median_of_every_shot(
    season: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    db = with_times(season, tmp_path / "t.duckdb", TIMES[name])
    with duckdb.connect(str(db), read_only=True) as con:
        player, event = con.execute("SELECT min(player), min(event) FROM summary_shots").fetchall()[0]
        match = con.execute("SELECT min(match_id) FROM summary_shots").fetchall()[0][0]
        # Two players who met: by match, their match's figures are both sides' together.
        met = con.execute("SELECT side_a, side_b FROM matches WHERE match_id = ?", [match]).fetchall()[0]
    scopes = (Scope(), Scope(players=(player,)), Scope(players=met), Scope(matches=(match,)), Scope(events=(event,)))
    for scope in scopes:
        for by in BY:
            counted, median, direct = clock_documents(db, scope, by, monkeypatch)
            assert counted == median == direct


def test_the_cases_cover_odd_and_even_counts_ties_and_two_middle_seconds(season: Path, tmp_path: Path) -> None:
    """The shot times above give groups of every shape the median has to get right."""
    seen: set[str] = set()
    for i, expr in enumerate(TIMES.values()):
        db = with_times(season, tmp_path / f"t{i}.duckdb", expr)
        for key in ("player", "match_id", "event"):
            for n, lo, hi, before, after in middles(db, key):
                seen.add("odd" if n % 2 else "even")
                seen |= {"one shot"} if n == 1 else {"two shots"} if n == 2 else set()
                if (lo == hi and n % 2 == 0) or lo in (before, after) or hi in (before, after):
                    seen.add("tied middle")
                if n % 2 == 0 and math.floor(lo) != math.floor(hi):
                    seen.add("middle times in two seconds")
                if lo == math.floor(lo):
                    seen.add("middle time on a whole second")
    assert seen == {
        "odd", "even", "one shot", "two shots", "tied middle", "middle times in two seconds",
        "middle time on a whole second",
    }  # fmt: skip


def per_second(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows of ``summary_shot_counts`` worked out in Python from the shot times'
    ``(match_id, side, event, player, shot_s, limit_s)``: per match, side and whole second,
    the shots, their sum in whole microseconds, the longest, those over their limit, and
    whether any had a limit."""
    groups: dict[tuple[Any, ...], list[tuple[float, float | None]]] = defaultdict(list)
    for match_id, side, event, player, shot_s, limit_s in rows:
        groups[(match_id, side, event, player, math.floor(shot_s))].append((shot_s, limit_s))
    return sorted(
        (
            *group,
            len(times),
            sum(round(t * 1_000_000) for t, _ in times),
            max(t for t, _ in times),
            sum(1 for t, limit in times if limit is not None and t > limit),
            any(limit is not None for _, limit in times),
        )
        for group, times in groups.items()
    )


def test_the_counts_are_the_shot_times_per_match_side_and_second(season: Path, tmp_path: Path) -> None:
    # Limits on some shots (a shot clock's expiry), none on others.
    db = with_times(season, tmp_path / "limits.duckdb", "shot_s", "CASE WHEN {h} % 3 = 0 THEN 20.0 END")
    with duckdb.connect(str(db), read_only=True) as con:
        counted = con.execute("SELECT * FROM summary_shot_counts ORDER BY ALL").fetchall()
        stored = con.execute("SELECT * FROM summary_shot_counts").fetchall()  # as they lie in the table
        shots = con.execute("SELECT match_id, side, event, player, shot_s, limit_s FROM summary_shots").fetchall()
    assert counted == per_second(shots) and len(counted) > 100
    assert any(row[-1] for row in counted) and any(row[-2] for row in counted)  # limits, and shots over them
    # Each match's rows lie in order (a replay makes only the matches whose readings changed)...
    for match in {row[0] for row in stored}:
        assert [row for row in stored if row[0] == match] == [row for row in counted if row[0] == match]
    # ...and a first replay writes every match's in that order: the same bytes from each.
    with duckdb.connect(str(season), read_only=True) as con:
        first = con.execute("SELECT * FROM summary_shot_counts").fetchall()
        assert first == sorted(first) and len(first) > 100


def test_each_match_has_the_median_of_its_shot_times_and_of_each_sides(season: Path) -> None:
    """``summary_shot_medians``: DuckDB's ``median`` of each match's shot times, both sides'
    together and each side's (none for a side without any), as the report by match took it
    of every shot time."""
    with duckdb.connect(str(season), read_only=True) as con:
        stored = con.execute("SELECT * FROM summary_shot_medians ORDER BY ALL").fetchall()
        expected = con.execute(
            "SELECT match_id, median(shot_s), median(shot_s) FILTER (WHERE side = 'A'),"
            " median(shot_s) FILTER (WHERE side = 'B') FROM summary_shots GROUP BY ALL ORDER BY ALL"
        ).fetchall()
        matches = con.execute("SELECT count(DISTINCT match_id) FROM summary_shots").fetchall()[0][0]
    assert stored == expected and len(stored) == matches > 10
    # The middle of the sorted times, or halfway between the two middle ones.
    with duckdb.connect(str(season), read_only=True) as con:
        match_id, times = con.execute(
            "SELECT match_id, list(shot_s ORDER BY shot_s) FROM summary_shots GROUP BY ALL ORDER BY ALL LIMIT 1"
        ).fetchall()[0]
    n = len(times)
    middle = times[n // 2] if n % 2 else times[n // 2 - 1] + (times[n // 2] - times[n // 2 - 1]) / 2
    assert math.isclose(stored[0][1], middle) and stored[0][0] == match_id


def test_a_groups_mean_shot_time_is_the_exact_sum_of_its_times(season: Path) -> None:
    """The mean a report gives is the sum of the group's shot times, exact (the clock reads
    whole microseconds), over their count, to two places: the same from the per-second rows,
    from the shot times and from every replayed stroke (``clock_documents`` holds them equal)."""
    con = connect(season, read_only=True)
    try:
        checked_scope(con, "clock", Scope())
        rows = by_key(summed.clock(con, "player", []), "player")
        times = defaultdict(list)
        for player, shot_s in con.execute("SELECT player, shot_s FROM summary_shots").fetchall():
            times[player].append(shot_s)
    finally:
        con.close()
    assert len(rows) == len(times) > 4
    for row in rows:
        mine = times[str(row["player"])]
        assert row["shots"] == len(mine)
        assert row["sum_s"] == sum(round(t * 1_000_000) for t in mine) / 1e6
        assert row["max_s"] == max(mine)


def test_a_store_without_the_counts_gives_the_same_clock_report(season: Path, tmp_path: Path) -> None:
    """A store whose shot times were summarised before the counts existed (the table empty,
    or partly filled, or missing altogether when opened read-only), before the counts
    carried their sums, or before the matches' medians, takes every shot time's median
    instead: the same ``cuelog report clock --json``. Opened for writing, a store whose
    counts lack the sums, or which has no medians, has them made again from the shot times."""
    expected = {by: cli("report", "clock", "--by", by, "--db", season, "--json") for by in BY}
    with duckdb.connect(str(season), read_only=True) as con:
        fresh = con.execute("SELECT * FROM summary_shot_counts ORDER BY ALL").fetchall()
    with duckdb.connect(str(season), read_only=True) as con:
        medians = con.execute("SELECT * FROM summary_shot_medians ORDER BY ALL").fetchall()
    for case in ("empty", "one match missing", "no table", "no sums", "no medians"):
        db = tmp_path / f"{case}.duckdb"
        shutil.copy(season, db)
        with duckdb.connect(str(db)) as con:
            if case == "empty":
                con.execute("DELETE FROM summary_shot_counts")
            elif case == "one match missing":
                con.execute("DELETE FROM summary_shot_counts WHERE match_id = (SELECT min(match_id) FROM matches)")
            elif case == "no table":
                con.execute("DROP TABLE summary_shot_counts")
            elif case == "no medians":
                con.execute("DROP TABLE summary_shot_medians")
            else:  # the table as it was before the sums
                con.execute(
                    "CREATE TABLE counts_before AS SELECT match_id, side, event, player, whole_s, shots"
                    " FROM summary_shot_counts"
                )
                con.execute("DROP TABLE summary_shot_counts")
                con.execute("ALTER TABLE counts_before RENAME TO summary_shot_counts")
            con.execute("CHECKPOINT")
        con = connect(db, read_only=True)
        try:
            assert not (report_scope.shots_counted(con) and report_scope.medians_stored(con))
            assert json.dumps(report(con, "clock", by="match").document(), indent=1) == json.dumps(
                report(con, "clock", by="match", direct=True).document(), indent=1
            )
        finally:
            con.close()
        for by in BY:
            assert cli("report", "clock", "--by", by, "--db", db, "--json") == expected[by]
        if case in ("no sums", "no medians"):
            connect(db).close()
            with duckdb.connect(str(db), read_only=True) as con:
                assert con.execute("SELECT * FROM summary_shot_counts ORDER BY ALL").fetchall() == fresh
                assert con.execute("SELECT * FROM summary_shot_medians ORDER BY ALL").fetchall() == medians
                assert report_scope.shots_counted(con) and report_scope.medians_stored(con)
            for by in BY:
                assert cli("report", "clock", "--by", by, "--db", db, "--json") == expected[by]
