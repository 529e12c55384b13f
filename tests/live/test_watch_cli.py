"""`cuelog watch` as a user runs it: Ctrl-C, bad lines, escaping, the shot clock, --help."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from cuelog.cli import COMMANDS, app
from cuelog.ingest.reader import MAX_LINE
from tests.conftest import EXAMPLES
from tests.live.conftest import log_lines, replay_doc, replayed, standing, start_watch, watch_while_recording


def test_ctrl_c_stops_cleanly_with_the_exit_code_of_the_findings(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    log.write_bytes((EXAMPLES / "snooker-officiating.jsonl").read_bytes())
    proc = start_watch(str(log))
    assert proc.stdout is not None
    lines = []
    while True:  # wait until the whole file has been read
        line = proc.stdout.readline()
        assert line, "watch ended before the frame result"
        lines.append(line)
        if line.startswith("frame 1 result"):
            break
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert err == ""
    assert out.splitlines()[-1] == "stopped: interrupted"
    assert sum("can still be put right" in x for x in lines) == 3


def test_no_findings_exit_0(tmp_path: Path) -> None:
    code, events, _ = watch_while_recording(tmp_path / "m.jsonl", EXAMPLES / "snooker-maximum.jsonl", "--settle", "1")
    assert code == 0
    assert not [e for e in events if e["event"] == "finding"]


def test_a_bad_line_while_recording_is_reported_and_the_watch_goes_on(tmp_path: Path) -> None:
    lines = (EXAMPLES / "snooker-officiating.jsonl").read_bytes().splitlines(keepends=True)
    lines.insert(4, b'{"type": "stroke", "frame": 1\n')
    source = tmp_path / "source.jsonl"
    source.write_bytes(b"".join(lines))
    code, events, err = watch_while_recording(tmp_path / "live.jsonl", source, "--settle", "1")
    assert code == 2 and err == ""
    (problem,) = [e for e in events if e["event"] == "problem"]
    assert problem["line"] == 5 and problem["code"] == "invalid_json" and problem["file"].endswith("live.jsonl")
    assert [e["n"] for e in events if e["event"] == "finding"] == [2, 5, 7]


def test_text_from_the_log_is_escaped_on_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    text = (EXAMPLES / "snooker-officiating.jsonl").read_text()
    log.write_text(text.replace('"Player A"', '"\\u001b[2JEvil\\u0007"', 1))
    r = CliRunner().invoke(app, ["watch", str(log), "--until-end", "--settle", "0.2", "--due"])
    assert r.exit_code == 1
    assert "\x1b" not in r.stdout and "\x07" not in r.stdout
    assert "\\x1b[2JEvil\\x07 v Player B" in r.stdout
    rj = CliRunner().invoke(app, ["watch", str(log), "--until-end", "--settle", "0.2", "--json"])
    first = json.loads(rj.stdout.splitlines()[0])
    assert first["sides"]["A"] == "\x1b[2JEvil\x07" and "\x1b" not in rj.stdout


def test_the_command_is_registered_with_help() -> None:
    assert "watch" in COMMANDS
    r = CliRunner().invoke(app, ["watch", "--help"])
    assert r.exit_code == 0
    for option in ("--clock", "--json", "--due", "--until-end"):
        assert option in r.stdout


@pytest.fixture(scope="module")
def clocked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("clocked")
    r = CliRunner().invoke(
        app,
        [
            "simulate",
            "--rules",
            "snooker/wpbsa-2024",
            "--matches",
            "1",
            "--seed",
            "11",
            "--out",
            str(root),
            "--best-of",
            "3",
        ],
    )
    assert r.exit_code == 0, r.output
    return root


def test_clock_shots_are_aligned_to_strokes_as_ingest_aligns_them(tmp_path: Path, clocked: Path) -> None:
    log = next((clocked / "logs").glob("*.jsonl"))
    csv = next((clocked / "clocks").glob("*.csv"))
    r = CliRunner().invoke(app, ["watch", str(log), "--clock", str(csv), "--until-end", "--json"])
    assert r.exit_code in (0, 1), r.output
    shots = {
        (e["match"], e["frame"], e["n"]): round(e["shot_s"], 3)
        for e in map(json.loads, r.stdout.splitlines())
        if e["event"] == "shot"
    }
    db = tmp_path / "c.duckdb"
    ing = CliRunner().invoke(app, ["ingest", str(log), "--clock", str(csv), "--db", str(db)])
    assert ing.exit_code == 0, ing.output
    with duckdb.connect(str(db)) as con:
        rows = con.sql("SELECT match_id, frame, n, shot_s FROM shot_clock").fetchall()
    assert shots == {(m, f, n): round(s, 3) for m, f, n, s in rows}
    assert len(shots) > 50


def test_a_malformed_clock_csv_is_exit_2_naming_the_line(tmp_path: Path) -> None:
    csv = tmp_path / "bad.csv"
    csv.write_text("table,ts,event\n1,yesterday,stop\n")
    r = CliRunner().invoke(app, ["watch", str(EXAMPLES / "snooker-maximum.jsonl"), "--clock", str(csv)])
    assert r.exit_code == 2
    assert "bad.csv" in r.output and "bad_time" in r.output


def _save_whole(log: Path, lines: list[bytes], pause: float) -> None:
    """A recorder that saves its whole log each time, through a new file renamed over it."""
    for k in range(1, len(lines) + 1):
        tmp = log.with_suffix(".tmp")
        tmp.write_bytes(b"".join(lines[:k]))
        os.replace(tmp, log)
        time.sleep(pause)


def test_a_log_saved_whole_after_every_stroke_is_watched_once(tmp_path: Path) -> None:
    log = tmp_path / "live.jsonl"
    source = EXAMPLES / "snooker-officiating.jsonl"
    proc = start_watch(str(log), "--json", "--until-end", "--settle", "1.5")
    saver = threading.Thread(target=_save_whole, args=(log, log_lines(source), 0.02))
    saver.start()
    out, err = proc.communicate(timeout=120)
    saver.join()
    events = [json.loads(x) for x in out.splitlines()]
    assert err == "" and proc.returncode == 1
    assert standing(events) == replayed(replay_doc(source)[1])
    assert [e["n"] for e in events if e["event"] == "finding"] == [2, 5, 7]
    assert not [e for e in events if e["event"] == "notice" and e["code"] in ("rewritten", "restart")]


def test_a_different_log_in_its_place_makes_the_watch_start_over(tmp_path: Path) -> None:
    log = tmp_path / "live.jsonl"
    log.write_bytes((EXAMPLES / "snooker-maximum.jsonl").read_bytes())
    proc = start_watch(str(log), "--json")
    assert proc.stdout is not None
    while json.loads(proc.stdout.readline())["event"] != "frame":
        pass
    tmp = tmp_path / "new.jsonl"
    tmp.write_bytes((EXAMPLES / "snooker-officiating.jsonl").read_bytes())
    os.replace(tmp, log)
    events = []
    while not any(e["event"] == "frame" for e in events):
        events.append(json.loads(proc.stdout.readline()))
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=30)
    codes = [e["code"] for e in events if e["event"] == "notice"]
    assert codes == ["rotated", "rewritten", "restart"]
    assert [e["n"] for e in events if e["event"] == "finding"] == [2, 5, 7]
    assert proc.returncode == 1
    assert json.loads(rest.splitlines()[-1])["code"] == "stopped"
    assert json.loads(rest.splitlines()[-1])["code"] == "stopped"


def _record_with_clock(log: Path, csv: Path, lines: list[bytes], rows: list[bytes]) -> None:
    """The recorder and the shot-clock device write at once: each device row before the
    first stroke that comes after it in time (the device's stop is the stroke's strike)."""
    header, *rows = rows
    csv.write_bytes(header)
    with log.open("ab", buffering=0) as lf, csv.open("ab", buffering=0) as cf:
        for line in lines:
            t = json.loads(line).get("t")
            while rows and t is not None and rows[0].split(b",")[1].decode() <= t:
                cf.write(rows.pop(0))
            lf.write(line)
            time.sleep(0.002)
        for row in rows:
            cf.write(row)


def test_a_growing_clock_log_is_read_again_and_aligned_as_ingest_aligns_it(tmp_path: Path, clocked: Path) -> None:
    source = next((clocked / "logs").glob("*.jsonl"))
    device = next((clocked / "clocks").glob("*.csv"))
    log, csv = tmp_path / "live.jsonl", tmp_path / "clock.csv"
    log.write_bytes(b"")
    rows = device.read_bytes().splitlines(keepends=True)
    csv.write_bytes(rows[0])
    proc = start_watch(str(log), "--clock", str(csv), "--json", "--until-end")
    writer = threading.Thread(target=_record_with_clock, args=(log, csv, log_lines(source), rows))
    writer.start()
    out, err = proc.communicate(timeout=300)
    writer.join()
    assert err == ""
    events = [json.loads(x) for x in out.splitlines()]
    shots = {(e["match"], e["frame"], e["n"]): round(e["shot_s"], 3) for e in events if e["event"] == "shot"}
    db = tmp_path / "c.duckdb"
    assert CliRunner().invoke(app, ["ingest", str(source), "--clock", str(device), "--db", str(db)]).exit_code == 0
    with duckdb.connect(str(db)) as con:
        rows_in = con.sql("SELECT match_id, frame, n, shot_s FROM shot_clock").fetchall()
    assert shots == {(m, f, n): round(s, 3) for m, f, n, s in rows_in}


def test_a_line_too_long_is_a_bad_line_and_the_watch_goes_on(tmp_path: Path) -> None:
    lines = (EXAMPLES / "snooker-officiating.jsonl").read_bytes().splitlines(keepends=True)
    lines.insert(2, b"x" * (MAX_LINE + 10) + b"\n")
    log = tmp_path / "m.jsonl"
    log.write_bytes(b"".join(lines))
    r = CliRunner().invoke(app, ["watch", str(log), "--json", "--until-end", "--settle", "0.2"])
    assert r.exit_code == 2
    events = [json.loads(x) for x in r.stdout.splitlines()]
    (problem,) = [e for e in events if e["event"] == "problem"]
    assert (problem["line"], problem["code"]) == (3, "line_too_long")
    assert [(e["n"], e["line"]) for e in events if e["event"] == "finding"] == [(2, 5), (5, 8), (7, 10)]


def test_an_uncertain_finding_is_said_as_such_and_does_not_set_the_exit_code(tmp_path: Path) -> None:
    """FORMAT 7: a finding one unrecorded fact could excuse is said with ``unless`` and leaves exit 0."""
    match = {"type": "match", "format": "cuelog/1", "match": "u", "rules": "billiards/wpbsa-2024"}
    lines = [
        {**match, "sides": {"A": "Ann", "B": "Bob"}},
        {"type": "frame", "frame": 1, "breaker": "A"},
        {"type": "stroke", "frame": 1, "n": 1, "striker": "A", "first": ["red"], "potted": ["red"]}
        | {"placement": "legal", "respots": [{"ball": "red", "spot": "pyramid"}], "score": [3, 0]},
        {"type": "frame_end", "frame": 1, "winner": "A", "score": [3, 0], "reason": "concede"},
    ]
    log = tmp_path / "u.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    r = CliRunner().invoke(app, ["watch", str(log), "--json", "--until-end", "--settle", "0.2"])
    assert r.exit_code == 0
    (finding,) = [e for e in map(json.loads, r.stdout.splitlines()) if e["event"] == "finding"]
    assert (finding["kind"], finding["certain"], finding["unless"]) == (
        "respot_wrong_spot",
        False,
        "the Spot was occupied",
    )
    text = CliRunner().invoke(app, ["watch", str(log), "--until-end", "--settle", "0.2"])
    assert text.exit_code == 0
    assert "UNCERTAIN (unless the Spot was occupied; not counted)" in text.stdout


def test_a_directory_is_a_usage_error_as_json_with_json(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["watch", str(tmp_path), "--json"])
    assert r.exit_code == 2
    assert json.loads(r.stdout) == {
        "ok": False,
        "error": {"code": "usage", "message": f"{tmp_path} is a directory; give the log file the recorder appends to"},
    }
