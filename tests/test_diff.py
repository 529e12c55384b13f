"""``cuelog diff``: the frames, winners, scores and findings a rule change changes.

Each parameter family is tried on a small hand-built log whose differences are worked out
by hand in the test; a ruleset compared with itself changes nothing; the document is the
same bytes whatever the number of workers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from cuelog.cli import app
from cuelog.diff import diff_db, document, frame_doc
from cuelog.replay.derived import derive
from cuelog.store import connect
from tests.analytics import kit

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def ruleset(tmp_path: Path, name: str, base: str, **params: object) -> Path:
    lines = [f'name = "{name}"', f'base = "{base}"', "[params]", *(f"{k} = {json.dumps(v)}" for k, v in params.items())]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def diff_json(db: Path, *args: str) -> tuple[int, dict]:
    result = runner.invoke(app, ["diff", "--db", str(db), "--json", *args])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


# -- the hand-built logs ------------------------------------------------------------------


def in_off_time_log() -> kit.Log:
    """Shootout: Ann pots Red, Black, Red (9), then goes in-off twice, each called for four:
    9-8 when time runs out, Ann wins. With a minimum of five: 9-10, Bob wins."""
    log = kit.Log("d1-shootout", "Ann", "Bob", rules="snooker/shootout-2024", event="Shootout").frame(breaker="A")
    log.red("A").colour("A", "black").red("A").safety("A", first="yellow")  # n1-4
    log.safety("B").foul("A", ["red"], 4, potted=["white"])  # n5, n6
    log.safety("B").foul("A", ["red"], 4, potted=["white"])  # n7, n8
    return log.end("A", reason="time")


def warning_log() -> kit.Log:
    """Bob misses, Ann has him play again, the Warning comes after one failure, and the
    second failure loses him the frame (S3 R14(d))."""
    log = kit.Log("d2-warning", "Ann", "Bob", event="Spring Open").frame(breaker="A")
    log.safety("A").foul("B", ["blue"], 5, miss=True).choice("A", "replace_return")
    log.event("warning", side="B", reason="miss")
    return log.foul("B", ["blue"], 5, miss=True).event("award", side="A", reason="miss")


def far_behind_log() -> kit.Log:
    """Ann makes 8 and plays safe; Bob, 8 behind, misses and FOUL AND A MISS is called."""
    log = kit.Log("d3-behind", "Ann", "Bob", event="Spring Open").frame(breaker="A")
    log.red("A").colour("A", "black").safety("A")
    return log.foul("B", ["blue"], 5, miss=True).choice("A", "replace_return").safety("B")


def clock_log() -> kit.Log:
    """Shootout: Ann plays after 13.5 s, Bob after 11 s, on a 15 s clock."""
    log = kit.Log("d4-clock", "Ann", "Bob", rules="snooker/shootout-2024", event="Shootout").frame(breaker="A")
    return log.safety("A").clock(13.5, 15).safety("B").clock(11.0, 15)


@pytest.fixture
def season(tmp_path: Path) -> Path:
    return kit.load(
        tmp_path / "season.duckdb",
        in_off_time_log(),
        warning_log(),
        far_behind_log(),
        clock_log(),
        kit.maximum(),
        kit.billiards_game(),
    )


# -- a ruleset against itself --------------------------------------------------------------


def test_diff_of_a_ruleset_with_itself_is_empty(season: Path, tmp_path: Path) -> None:
    code, doc = diff_json(season, "--rules", "snooker/wpbsa-2024", "--against", "snooker/wpbsa-2024")
    assert code == 0 and doc["frames"] == []
    assert doc["summary"]["frames_compared"] == 5 and doc["summary"]["frames_changed"] == 0
    draft = ruleset(tmp_path, "self-draft", "snooker/wpbsa-2024", minimum=5)
    code, doc = diff_json(season, "--rules", str(draft), "--against", str(draft))
    assert code == 0 and doc["frames"] == [] and doc["summary"]["winners_changed"] == 0


def test_recorded_rules_against_themselves_change_nothing(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "w.duckdb", kit.maximum(), kit.two_fifties(), kit.miss_sequence())
    code, doc = diff_json(db, "--rules", "snooker/wpbsa-2024")
    assert code == 0 and doc["old"] == "recorded" and doc["frames"] == []
    assert doc["summary"]["score_change"] == {"mean": 0.0, "distribution": [{"points": 0, "frames": 3}]}


# -- one test per parameter family, worked by hand ------------------------------------------


def test_penalty_family_minimum_five_turns_the_winner(season: Path, tmp_path: Path) -> None:
    draft = ruleset(tmp_path, "so-min5", "snooker/shootout-2024", minimum=5)
    code, doc = diff_json(season, "--rules", str(draft), "--event", "Shootout", "--match", "d1-shootout")
    assert code == 1
    assert doc["parameters_changed"] == [{"parameter": "minimum", "rule": "S3 R11", "old": 4, "new": 5}]
    (frame,) = doc["frames"]
    assert frame["diverges_at"] == 6
    assert frame["old"] == {"rules": "snooker/shootout-2024", "score": [9, 8], "winner": "A"}
    assert frame["new"] == {"rules": "snooker/so-min5", "score": [9, 10], "winner": "B"}
    assert frame["winner_changed"] and frame["score_change"] == [0, 2]
    added = [(f["n"], f["kind"], f["side"], f["points"]) for f in frame["findings_added"]]
    assert added == [(6, "penalty_value", "A", 1), (8, "penalty_value", "A", 1)] and frame["findings_removed"] == []
    s = doc["summary"]
    assert (s["frames_compared"], s["frames_changed"], s["winners_changed"]) == (1, 1, 1)
    assert s["score_change"] == {"mean": 2.0, "distribution": [{"points": 2, "frames": 1}]}
    assert s["findings_by_kind"] == [
        {"kind": "penalty_value", "before": 0, "after": 2},
        {"kind": "frame_end_error", "before": 1, "after": 1},
    ]
    assert s["players_gaining"] == [{"player": "Bob", "frames_won": 1, "points": 2}]
    assert s["players_losing"] == [{"player": "Ann", "frames_won": -1, "points": 0}]
    assert s["winners_changed_by_event"] == [{"event": "Shootout", "frames": 1, "winners_changed": 1}]


def test_penalty_family_minimum_five_printed_for_the_rule_maker(season: Path, tmp_path: Path) -> None:
    """The same frame as a rule maker reads it: a line for the frame (score and winner
    before and after, where the strokes diverge), a line for each finding added."""
    draft = ruleset(tmp_path, "so-min5", "snooker/shootout-2024", minimum=5)
    result = runner.invoke(app, ["diff", "--db", str(season), "--rules", str(draft), "--match", "d1-shootout"])
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    at = lines.index("d1-shootout frame 1: 9-8 A -> 9-10 B (winner changes), first divergence at stroke 6")
    assert lines[at + 1].startswith("    + 6 penalty_value ") and " A 1: " in lines[at + 1]
    assert lines[at + 2].startswith("    + 8 penalty_value ") and " A 1: " in lines[at + 2]


def test_miss_family_warning_after_one_failure(season: Path, tmp_path: Path) -> None:
    """``warn_after = 1``: the early Warning and the award that follows it are no longer errors."""
    draft = ruleset(tmp_path, "warn1", "snooker/wpbsa-2024", warn_after=1)
    _, doc = diff_json(season, "--rules", str(draft), "--match", "d2-warning")
    (frame,) = doc["frames"]
    assert frame["diverges_at"] is None and not frame["winner_changed"] and frame["score_change"] == [0, 0]
    assert frame["findings_added"] == []
    removed = [(f["n"], f["kind"], f["rule"]) for f in frame["findings_removed"]]
    assert removed == [(2, "miss_error", "S3 R14(d)(ii)"), (3, "frame_end_error", "S3 R14(d)(ii)")]


def test_miss_family_no_foul_and_a_miss_far_behind(season: Path, tmp_path: Path) -> None:
    """``miss_waived_behind = 5``: Bob is 8 behind, so the miss is not due and calling it is an error."""
    draft = ruleset(tmp_path, "waive5", "snooker/wpbsa-2024", miss_waived_behind=5)
    _, doc = diff_json(season, "--rules", str(draft), "--match", "d3-behind")
    (frame,) = doc["frames"]
    assert frame["diverges_at"] == 4 and frame["old"]["score"] == frame["new"]["score"] == [13, 0]
    assert [(f["n"], f["kind"], f["side"]) for f in frame["findings_added"]] == [(4, "miss_error", "B")]


def test_clock_family_twelve_seconds(season: Path, tmp_path: Path) -> None:
    """``shot_clock_s = 12``: Ann's 13.5 s becomes a time foul nobody called; Bob's 11 s is fine."""
    draft = ruleset(tmp_path, "clock12", "snooker/shootout-2024", shot_clock_s=12)
    _, doc = diff_json(season, "--rules", str(draft), "--match", "d4-clock")
    (frame,) = doc["frames"]
    added = [(f["n"], f["kind"], f["points"]) for f in frame["findings_added"]]
    assert added == [(1, "time_foul_uncalled", 5)] and frame["diverges_at"] is None


# -- selection, outputs, determinism --------------------------------------------------------


def test_matches_of_another_discipline_are_listed_not_compared(season: Path) -> None:
    _, doc = diff_json(season, "--rules", "snooker/wpbsa-2024")
    assert doc["not_compared"] == ["m4-billiards"]
    assert doc["summary"]["frames_compared"] == 5


def test_library_and_command_give_the_same_document(season: Path, tmp_path: Path) -> None:
    draft = ruleset(tmp_path, "lib-min5", "snooker/wpbsa-2024", minimum=5)
    _, doc = diff_json(season, "--rules", str(draft))
    con = connect(season, read_only=True)
    try:
        _, diffs = diff_db(con, derive("lib-min5", "snooker/wpbsa-2024", {"minimum": 5}), workers=1)
    finally:
        con.close()
    assert [frame_doc(f) for d in diffs for f in d.frames if f.changed] == doc["frames"]
    assert document(diffs, new="snooker/lib-min5", old="recorded", engine="x")["summary"] == doc["summary"]


def test_parquet_and_plot(season: Path, tmp_path: Path) -> None:
    draft = ruleset(tmp_path, "out-min5", "snooker/shootout-2024", minimum=5)
    png, out = tmp_path / "diff.png", tmp_path / "out"
    args = ["diff", "--db", str(season), "--rules", str(draft), "--event", "Shootout", "--parquet", str(out)]
    result = runner.invoke(app, [*args, "--plot", str(png)])
    assert result.exit_code == 1, result.output
    assert "Shootout" not in result.stderr and "counterfactual" in result.stdout
    table = pq.read_table(out / "diff_frames.parquet").to_pylist()
    assert [(r["match_id"], r["old_winner"], r["new_winner"], r["changed"]) for r in table] == [
        ("d1-shootout", "A", "B", True),
        ("d4-clock", None, None, False),
    ]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_baseline_compares_todays_replay_with_a_stored_one(season: Path, tmp_path: Path) -> None:
    before = runner.invoke(app, ["replay", "--db", str(season), "--workers", "1", "--json"])
    stored = tmp_path / "before.json"
    stored.write_text(before.stdout, encoding="utf-8")
    code, doc = diff_json(season, "--baseline", str(stored))
    assert code == 0 and doc["frames"] == [] and doc["summary"]["frames_compared"] == 6
    # A changed ruleset against the stored replay: the same frames as against the recorded rules.
    draft = ruleset(tmp_path, "base-min5", "snooker/shootout-2024", minimum=5)
    _, doc = diff_json(season, "--baseline", str(stored), "--rules", str(draft), "--event", "Shootout")
    assert [(f["match"], f["winner_changed"]) for f in doc["frames"]] == [("d1-shootout", True)]
    assert doc["frames"][0]["diverges_at"] == 6  # the first finding that differs


def test_bad_input_is_exit_2(season: Path, tmp_path: Path) -> None:
    assert runner.invoke(app, ["diff", "--db", str(season)]).exit_code == 2
    result = runner.invoke(
        app, ["diff", "--db", str(season), "--rules", "snooker/wpbsa-2024", "--against", "billiards/wpbsa-2024"]
    )
    assert result.exit_code == 2 and "different disciplines" in result.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "b"\nbase = "snooker/wpbsa-2024"\n[params]\nminimum = 4.5\n', encoding="utf-8")
    result = runner.invoke(app, ["diff", "--db", str(season), "--rules", str(bad)])
    assert result.exit_code == 2 and "params.minimum" in result.stderr
    stored = tmp_path / "x.json"
    stored.write_text('{"format": "other"}', encoding="utf-8")
    result = runner.invoke(app, ["diff", "--db", str(season), "--baseline", str(stored)])
    assert result.exit_code == 2 and "cuelog-replay/1" in result.stderr


def test_output_is_byte_identical_for_any_number_of_workers(tmp_path: Path) -> None:
    season = tmp_path / "season"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-m", "cuelog", *args], capture_output=True, env=env, check=False)

    made = cli(
        "simulate",
        "--rules",
        "snooker/wpbsa-2024",
        "--matches",
        "6",
        "--seed",
        "3",
        "--out",
        str(season),
        "--errors",
        "0.05",
    )
    assert made.returncode == 0, made.stderr
    db = str(tmp_path / "s.duckdb")
    assert cli("ingest", str(season / "logs"), "--db", db).returncode == 0
    draft = ruleset(tmp_path, "w-min5", "snooker/wpbsa-2024", minimum=5, warn_after=1)
    one = cli("diff", "--db", db, "--rules", str(draft), "--workers", "1", "--json")
    two = cli("diff", "--db", db, "--rules", str(draft), "--workers", "2", "--json")
    assert one.returncode == 1, one.stderr
    assert one.stdout == two.stdout
    assert json.loads(one.stdout)["summary"]["frames_changed"] > 0


def test_billiards_ruleset_with_itself_is_empty(season: Path) -> None:
    code, doc = diff_json(season, "--rules", "billiards/wpbsa-2024")
    assert code == 0 and doc["frames"] == [] and doc["summary"]["frames_compared"] == 1
    assert len(doc["not_compared"]) == 5


def test_replay_db_under_another_ruleset_stores_nothing(season: Path, tmp_path: Path) -> None:
    """``cuelog replay --db --rules``: the document names the ruleset; the stored results
    stay those of the recorded rules."""
    assert runner.invoke(app, ["replay", "--db", str(season), "--workers", "1"]).exit_code == 1
    con = connect(season, read_only=True)
    try:
        stored = con.execute("SELECT match_id, score_a, score_b FROM replay_frames ORDER BY match_id").fetchall()
    finally:
        con.close()
    draft = ruleset(tmp_path, "replay-db-min5", "snooker/shootout-2024", minimum=5)
    args = ["replay", "--db", str(season), "--match", "d1-shootout", "--rules", str(draft), "--json"]
    result = runner.invoke(app, args)
    (match,) = json.loads(result.stdout)["matches"]
    assert match["rules"] == "snooker/replay-db-min5" and match["frames"][0]["score"] == [9, 10]
    con = connect(season, read_only=True)
    try:
        assert (
            con.execute("SELECT match_id, score_a, score_b FROM replay_frames ORDER BY match_id").fetchall() == stored
        )
    finally:
        con.close()
    other = runner.invoke(app, ["replay", "--db", str(season), "--rules", "billiards/wpbsa-2024"])
    assert other.exit_code == 2 and "another discipline" in other.stderr


@pytest.mark.parametrize("baseline", [False, True], ids=["against-recorded-rules", "against-a-stored-replay"])
def test_the_records_are_read_on_the_duckdb_threads_the_workers_leave(
    season: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, baseline: bool
) -> None:
    """The diff reads the records while its workers replay them: DuckDB on the cores they
    leave (one here: the replay in this process on a machine of four cores, less one),
    and the database's own setting set back after."""
    from cuelog import diff
    from cuelog.ingest import cores

    monkeypatch.setattr(cores, "usable_cores", lambda: 4)
    seen: list[int] = []
    real = diff.loaded_matches

    def recorded(con, ids):  # type: ignore[no-untyped-def]
        asking = con.cursor()  # the connection itself is reading the records
        for item in real(con, ids):
            seen.append(int(asking.execute("SELECT current_setting('threads')").fetchall()[0][0]))
            yield item
        asking.close()

    monkeypatch.setattr(diff, "loaded_matches", recorded)
    draft = derive("threads-min5", "snooker/shootout-2024", {"minimum": 5})
    con = connect(season)
    con.execute("SET threads = 7")
    try:
        if baseline:
            _, diffs = diff.diff_baseline(con, [], draft, events=["Shootout"], workers=1)
        else:
            _, diffs = diff.diff_db(con, draft, events=["Shootout"], workers=1)
        assert int(con.execute("SELECT current_setting('threads')").fetchall()[0][0]) == 7
    finally:
        con.close()
    # Against the recorded rules the minimum of five turns one match; against a stored
    # replay of nothing, every replayed match differs.
    changed = [d.match for d in diffs if any(f.changed for f in d.frames)]
    assert changed == (["d1-shootout", "d4-clock"] if baseline else ["d1-shootout"])
    assert len(seen) == 2 and set(seen) == {3}
