"""``cuelog replay --db``: replay the loaded matches and store the results for the reports."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from cuelog.cli import app
from cuelog.store import connect
from tests.analytics import kit

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    """Run the real command in a fresh process (worker pools need a real ``__main__``)."""
    return subprocess.run(
        [sys.executable, "-m", "cuelog", *args],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        check=False,
    )


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def wrong_penalty(match: str = "m5-wrong-penalty") -> kit.Log:
    """Ann hits the blue first with a red on: 5 is due (S3 R11(b)), 4 was called."""
    log = kit.Log(match, "Ann", "Bob", event="Autumn Cup").frame(breaker="A")
    log.safety("A")
    log.foul("B", ["blue"], 4)
    return log.safety("A")


@pytest.fixture
def snooker_db(tmp_path: Path) -> Path:
    return kit.load(tmp_path / "snooker.duckdb", kit.maximum(), kit.two_fifties(), kit.miss_sequence(), wrong_penalty())


# -- engine-free: usage and bad input --------------------------------------------------------


def test_files_and_db_together_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", "x.jsonl", "--db", str(tmp_path / "t.duckdb")])
    assert result.exit_code == 2 and "not both" in result.stderr


def test_nothing_to_replay_is_a_usage_error() -> None:
    result = runner.invoke(app, ["replay"])
    assert result.exit_code == 2 and "--db" in result.stderr


def test_match_without_db_is_a_usage_error(tmp_path: Path) -> None:
    log = kit.maximum().write(tmp_path / "m.jsonl")
    result = runner.invoke(app, ["replay", str(log), "--match", "m1-maximum"])
    assert result.exit_code == 2 and "--match needs --db" in result.stderr


def test_missing_database_is_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", "--db", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 2 and "no database at" in result.stderr
    assert not (tmp_path / "none.duckdb").exists()


def test_empty_database_is_exit_2(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "empty.duckdb")
    result = runner.invoke(app, ["replay", "--db", str(db)])
    assert result.exit_code == 2 and "no loaded matches" in result.stderr


def test_unknown_match_is_exit_2(snooker_db: Path) -> None:
    result = runner.invoke(app, ["replay", "--db", str(snooker_db), "--match", "m1-maximum", "--match", "nope"])
    assert result.exit_code == 2
    assert "no loaded match with id 'nope'" in result.stderr and "4 match(es)" in result.stderr


def test_unreadable_stored_record_names_file_line_and_field(snooker_db: Path) -> None:
    con = connect(snooker_db)
    # Stroke n=3 of m1 (record seq 4, line 5) loses its required `striker`.
    con.execute("UPDATE records SET body = json_remove(body, '$.striker') WHERE match_id = 'm1-maximum' AND seq = 4")
    con.close()
    result = runner.invoke(app, ["replay", "--db", str(snooker_db), "--json"])
    assert result.exit_code == 2
    problems = json.loads(result.stdout)["problems"]
    assert [(Path(p["file"]).name, p["line"]) for p in problems] == [("m1-maximum.jsonl", 5)]
    assert "striker" in problems[0]["found"] + problems[0]["field"]
    # Nothing was written.
    assert rows(snooker_db, "SELECT count(*) FROM replay_frames") == [(0,)]


# -- with the snooker engine ---------------------------------------------------------------


def test_db_stores_what_the_json_document_says(snooker_db: Path) -> None:
    result = runner.invoke(app, ["replay", "--db", str(snooker_db), "--json", "--workers", "1"])
    assert result.exit_code == 1, result.stderr  # the wrong penalty is a finding
    doc = json.loads(result.stdout)
    assert [m["match"] for m in doc["matches"]] == ["m1-maximum", "m2-two-fifties", "m3-misses", "m5-wrong-penalty"]
    for m in doc["matches"]:
        mid = m["match"]
        frames = rows(
            snooker_db,
            f"SELECT frame, score_a, score_b, recorded_a, recorded_b, winner FROM replay_frames "
            f"WHERE match_id = '{mid}' ORDER BY frame",
        )
        assert frames == [(f["frame"], *f["score"], *(f["recorded"] or [None, None]), f["winner"]) for f in m["frames"]]
        for f in m["frames"]:
            stored = rows(
                snooker_db,
                f"SELECT side, points, from_n, to_n FROM replay_breaks "
                f"WHERE match_id = '{mid}' AND frame = {f['frame']} ORDER BY from_n",
            )
            assert stored == [(b["side"], b["points"], b["from"], b["to"]) for b in f["breaks"]]
            found = rows(
                snooker_db,
                f"SELECT n, kind, rule, side, points, message FROM replay_findings "
                f"WHERE match_id = '{mid}' AND frame = {f['frame']} ORDER BY n, kind",
            )
            assert found == [
                (x["n"], x["kind"], x["rule"], x["side"], x["points"], x["message"]) for x in f["findings"]
            ]
            # The last stroke's official score is the frame's score.
            last = rows(
                snooker_db,
                f"SELECT score_a, score_b FROM replay_strokes WHERE match_id = '{mid}' AND frame = {f['frame']} "
                f"ORDER BY n DESC LIMIT 1",
            )
            assert last == [tuple(f["score"])]
    # One stored stroke per stroke of the logs: the 147 frame has 37.
    assert rows(snooker_db, "SELECT count(*) FROM replay_strokes WHERE match_id = 'm1-maximum'") == [(37,)]
    # The wrong penalty: Bob (side B) fouled; 5 was due, 4 called.
    assert rows(snooker_db, "SELECT kind, side FROM replay_findings WHERE match_id = 'm5-wrong-penalty'") == [
        ("penalty_value", "B")
    ]


def test_per_stroke_outcomes_of_the_maximum(snooker_db: Path) -> None:
    """A 147: every red 1, every black 7, the colours 2..7, one break of 147 by Ann (side A)."""
    runner.invoke(app, ["replay", "--db", str(snooker_db), "--match", "m1-maximum"])
    strokes = rows(
        snooker_db,
        "SELECT n, striker, scored, penalty, foul, score_a, score_b FROM replay_strokes "
        "WHERE match_id = 'm1-maximum' ORDER BY n",
    )
    assert strokes[0] == (1, "B", 0, 0, False, 0, 0)
    assert [s[2] for s in strokes[1:31]] == [1, 7] * 15
    assert [s[2] for s in strokes[31:]] == [2, 3, 4, 5, 6, 7]
    assert strokes[-1][5:] == (147, 0)
    # Every point Ann scored is in one visit and one break.
    assert (
        len(
            {
                s
                for s in rows(
                    snooker_db, "SELECT visit_id FROM replay_strokes WHERE match_id = 'm1-maximum' AND striker = 'A'"
                )
            }
        )
        == 1
    )
    assert rows(snooker_db, "SELECT side, points, from_n, to_n FROM replay_breaks WHERE match_id = 'm1-maximum'") == [
        ("A", 147, 2, 37)
    ]


def test_replaying_again_replaces_rather_than_adds(snooker_db: Path) -> None:
    runner.invoke(app, ["replay", "--db", str(snooker_db)])
    first = rows(snooker_db, "SELECT count(*) FROM replay_strokes")
    runner.invoke(app, ["replay", "--db", str(snooker_db)])
    runner.invoke(app, ["replay", "--db", str(snooker_db), "--match", "m2-two-fifties"])
    assert rows(snooker_db, "SELECT count(*) FROM replay_strokes") == first


def test_only_the_named_matches_are_replayed(snooker_db: Path) -> None:
    result = runner.invoke(app, ["replay", "--db", str(snooker_db), "--match", "m2-two-fifties", "--json"])
    assert result.exit_code == 0
    assert [m["match"] for m in json.loads(result.stdout)["matches"]] == ["m2-two-fifties"]
    assert rows(snooker_db, "SELECT DISTINCT match_id FROM replay_frames") == [("m2-two-fifties",)]


def test_human_output_has_scores_and_a_findings_table(snooker_db: Path) -> None:
    result = runner.invoke(app, ["replay", "--db", str(snooker_db), "--match", "m5-wrong-penalty"])
    assert result.exit_code == 1
    out = result.stdout
    assert "frame 1: official 5-0, recorded -, not finished" in out
    for header in ("stroke", "kind", "rule", "side", "points", "message"):
        assert header in out
    assert "penalty_value" in out
    assert "1 finding(s)" in out


def test_same_bytes_and_rows_whatever_the_worker_count(snooker_db: Path, tmp_path: Path) -> None:
    other = tmp_path / "copy.duckdb"
    shutil.copy(snooker_db, other)
    one = cli("replay", "--db", str(snooker_db), "--workers", "1", "--json")
    two = cli("replay", "--db", str(other), "--workers", "3", "--json")
    assert one.returncode == two.returncode == 1, one.stderr + two.stderr
    assert one.stdout == two.stdout
    human_one = cli("replay", "--db", str(snooker_db), "--workers", "1")
    human_two = cli("replay", "--db", str(other), "--workers", "2")
    assert human_one.stdout == human_two.stdout
    for table in ("replay_frames", "replay_strokes", "replay_breaks", "replay_findings"):
        sql = f"SELECT * FROM {table} ORDER BY ALL"
        assert rows(snooker_db, sql) == rows(other, sql), table


def test_db_replay_gives_the_same_document_as_replaying_the_files(snooker_db: Path, tmp_path: Path) -> None:
    files = [
        log.write(tmp_path / f"{i}.jsonl")
        for i, log in enumerate([kit.maximum(), kit.two_fifties(), kit.miss_sequence(), wrong_penalty()])
    ]
    from_files = cli("replay", *map(str, files), "--json")
    from_db = cli("replay", "--db", str(snooker_db), "--json")
    assert from_files.stdout == from_db.stdout


def test_loaded_match_without_records_is_reported_not_dropped(snooker_db: Path) -> None:
    con = connect(snooker_db)
    con.execute("DELETE FROM records WHERE match_id = 'm2-two-fifties'")
    con.close()
    result = runner.invoke(app, ["replay", "--db", str(snooker_db), "--json"])
    assert result.exit_code == 2
    problems = json.loads(result.stdout)["problems"]
    assert [(Path(p["file"]).name, p["code"]) for p in problems] == [("m2-two-fifties.jsonl", "no_match_record")]


def test_match_without_an_engine_stops_the_replay_and_says_which(tmp_path: Path, monkeypatch) -> None:
    # Every known ruleset has an engine today: take one away (in this process, one worker).
    from cuelog import replay as engines

    monkeypatch.delitem(engines.ENGINES, "straight-pool")
    pool = kit.Log("m7-pool", "Ann", "Bob", rules="straight-pool/wpa")
    db = kit.load(tmp_path / "t.duckdb", kit.maximum(), pool)
    result = runner.invoke(app, ["replay", "--db", str(db), "--workers", "1"], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "'m7-pool'" in result.stderr and "straight-pool/wpa" in result.stderr and "--match" in result.stderr
    assert rows(db, "SELECT count(*) FROM replay_frames") == [(0,)]
    # The others replay when named.
    result = runner.invoke(app, ["replay", "--db", str(db), "--match", "m1-maximum", "--workers", "1"])
    assert result.exit_code == 0
    assert rows(db, "SELECT DISTINCT match_id FROM replay_frames") == [("m1-maximum",)]


def _uncertain_log(path: Path) -> Path:
    """A billiards game whose Red goes on the Pyramid Spot where the Spot was due, with no
    positions to say whether the Spot was occupied (docs/rulings.md 34)."""
    lines = [
        {
            "type": "match",
            "format": "cuelog/1",
            "match": "uncertain-spot",
            "rules": "billiards/wpbsa-2024",
            "sides": {"A": "Ann", "B": "Bob"},
        },
        {"type": "frame", "frame": 1, "breaker": "A"},
        {
            "type": "stroke",
            "frame": 1,
            "n": 1,
            "striker": "A",
            "first": ["red"],
            "potted": ["red"],
            "placement": "legal",
            "respots": [{"ball": "red", "spot": "pyramid"}],
            "score": [3, 0],
        },
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_uncertain_findings_are_listed_apart_and_do_not_set_the_exit_code(tmp_path: Path) -> None:
    """FORMAT 7: a finding one unrecorded fact could excuse carries ``"certain": false`` and
    ``"unless"`` in the JSON, has a section of its own in the human output, and leaves exit 0."""
    log = _uncertain_log(tmp_path / "g.jsonl")
    result = runner.invoke(app, ["replay", str(log), "--json"])
    assert result.exit_code == 0, result.output
    (finding,) = json.loads(result.stdout)["matches"][0]["frames"][0]["findings"]
    assert finding["kind"] == "respot_wrong_spot"
    assert finding["certain"] is False and finding["unless"] == "the Spot was occupied"
    human = runner.invoke(app, ["replay", str(log)], env={"COLUMNS": "200"})
    assert human.exit_code == 0
    assert "uncertain (not counted)" in human.stdout
    assert "0 finding(s), 1 uncertain" in human.stdout


def test_certain_findings_keep_their_json_shape(tmp_path: Path) -> None:
    """FORMAT 7: certain findings carry no ``certain``/``unless`` keys (output unchanged)."""
    result = runner.invoke(app, ["replay", str(ROOT / "examples" / "snooker-officiating.jsonl"), "--json"])
    findings = json.loads(result.stdout)["matches"][0]["frames"][0]["findings"]
    assert findings and all(set(f) == {"n", "kind", "rule", "side", "points", "message"} for f in findings)


def test_human_output_says_kinds_in_words_and_the_corrections_applied_uncut(tmp_path):
    from tests.conftest import EXAMPLES

    fixes = EXAMPLES / "fixes.corrections.jsonl"
    result = CliRunner().invoke(
        app, ["replay", str(EXAMPLES / "snooker-officiating.jsonl"), "--corrections", str(fixes)]
    )
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert any('correction applied: frame 1 stroke 2: first = ["red"] (video review' in line for line in lines)
    assert "1 correction(s) applied" in lines[-1]
    row = next(line for line in lines if "penalty_value" in line)
    # The whole finding on one line, words and kind together, though it is wider than 80 columns.
    assert "foul called for the wrong points" in row and "black hit first with red on" in row
    assert "the rules give 7" in row and len(row.rstrip()) > 80


def test_a_frame_without_an_end_is_said_to_be_unfinished(tmp_path):
    log = tmp_path / "open.jsonl"
    log.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {
                    "type": "match",
                    "format": "cuelog/1",
                    "match": "m",
                    "rules": "snooker/wpbsa-2024",
                    "sides": {"A": "Ann", "B": "Bea"},
                },
                {"type": "frame", "frame": 1, "breaker": "A"},
                {
                    "type": "stroke",
                    "frame": 1,
                    "n": 1,
                    "striker": "A",
                    "first": ["red"],
                    "potted": ["red"],
                    "score": [1, 0],
                },
            ]
        )
        + "\n"
    )
    result = CliRunner().invoke(app, ["replay", str(log)])
    assert result.exit_code == 0
    assert "frame 1: official 1-0, recorded 1-0, not finished" in result.stdout


def test_replay_of_a_directory_shows_progress_on_a_terminal_only(tmp_path, monkeypatch):
    """The bar goes to stderr when it is a terminal; stdout is byte for byte the same either way."""
    import io

    from rich.console import Console

    import cuelog.cli.common as cli_common
    from tests.conftest import EXAMPLES

    plain = CliRunner().invoke(app, ["replay", str(EXAMPLES), "--json"])
    assert plain.exit_code == 1 and plain.stderr == ""
    screen = io.StringIO()
    monkeypatch.setattr(cli_common, "err_console", Console(file=screen, force_terminal=True, width=100))
    shown = CliRunner().invoke(app, ["replay", str(EXAMPLES), "--json"])
    assert shown.exit_code == 1
    assert shown.stdout == plain.stdout
    seen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue())  # the terminal's colour codes
    from tests.conftest import EXAMPLE_LOGS

    files = len(EXAMPLE_LOGS)
    records = sum(1 for p in EXAMPLE_LOGS for line in p.read_text().splitlines() if line.strip())
    assert "replaying" in seen and f"{files}/{files} files, {records} records" in seen


def test_human_output_bolds_each_match_id_on_a_terminal_only() -> None:
    """Each match's text as made; on a terminal its id in bold, on a file or pipe the same
    bytes with no escapes (a file of replayed output diffs and greps as plain text)."""
    import io

    from rich.console import Console

    from cuelog.cli.replay import Output
    from cuelog.replay.output import Rendered

    matches = [Rendered(f"m{i}", f"m{i}  A 1-0 B\n  frame 1\n", findings=i, uncertain=0, corrections=0) for i in (1, 2)]
    shown = {}
    for terminal in (True, False):
        out = io.StringIO()
        with Output(as_json=False, console=Console(file=out, force_terminal=terminal, color_system="standard")) as o:
            for m in matches:
                o.write(m)
        shown[terminal] = out.getvalue()

    assert shown[False] == "".join(m.text for m in matches)
    bold = "\x1b[1m"
    assert shown[True].count(bold) == 2
    assert re.sub(r"\x1b\[[0-9;]*m", "", shown[True]) == shown[False]
    assert shown[True].startswith(bold + "m1")
