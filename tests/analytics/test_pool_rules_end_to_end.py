"""The 14.1 re-rack (WPA 4.8) and nine-ball's Three Point Break Rule (WPA 2.3(c)) through
the commands: a log validated and replayed from a file, a ruleset file switching the
optional rule on."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
from typer.testing import CliRunner

from cuelog.cli import app
from cuelog.replay.derived import under
from cuelog.replay.pool import nineball
from cuelog.rulesfile import load_ruleset_file
from cuelog.schemas.records import Frame, Match, Record, Stroke
from tests.analytics import kit

runner = CliRunner()


def _rerack_game() -> kit.Log:
    """Ann pockets the 1 to the 14; the 15 lies in the rack area, the cue ball clear of it:
    WPA 4.8(c) puts the 15 on the head spot, the referee put it on the center spot."""
    log = kit.Log("p4-rerack", "Ann", "Bob", rules="straight-pool/wpa", target=100)
    log.frame("A")
    for i in range(1, 14):
        log.stroke("A", [str(i)], [str(i)], nominated=str(i), score=[i, 0])
    rest = [["white", 300.0, 1200.0], ["15", 630.0, 1990.0]]
    log.stroke(
        "A", ["14"], ["14"], nominated="14", positions=rest, respots=[{"ball": "15", "spot": "center"}], score=[14, 0]
    )
    return log


def test_wpa_4_8c_wrong_spot_found_in_a_replayed_log(tmp_path: Path) -> None:
    path = _rerack_game().write(tmp_path / "rerack.jsonl")
    assert runner.invoke(app, ["validate", str(path)]).exit_code == 0
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 1, result.output
    (frame,) = json.loads(result.stdout)["matches"][0]["frames"]
    assert [(f["n"], f["kind"], f["rule"]) for f in frame["findings"]] == [(14, "respot_wrong_spot", "WPA 4.8(c)")]


def test_wpa_2_3c_ruleset_file_switches_the_three_point_break_on(tmp_path: Path) -> None:
    """A ruleset file turns the optional rule on: ``replay --rules`` runs under it, and the
    engine it installs marks the dry break (the break pocketing nothing, one ball across)."""
    rules = tmp_path / "three-point.toml"
    rules.write_text('name = "three-point"\nbase = "nineball/wpa"\n[params]\nthree_point_break = true\n')
    log = kit.Log("p5-dry", "Ann", "Bob", rules="nineball/wpa")
    log.frame("A")
    rest = [["white", 640.0, 1500.0], ["1", 300.0, 400.0]] + [[str(b), 200.0 + 100 * b, 1400.0] for b in range(2, 10)]
    log.stroke("A", ["1"], [], cushions={"objects": 5}, placement="legal", positions=rest)
    path = log.write(tmp_path / "nine.jsonl")
    result = runner.invoke(app, ["replay", str(path), "--rules", str(rules), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["matches"][0]["rules"] == "nineball/three-point"
    match, frame, stroke = (msgspec.json.decode(line.encode(), type=Record) for line in path.read_text().splitlines())
    assert isinstance(match, Match) and isinstance(frame, Frame) and isinstance(stroke, Stroke)
    for ruleset, detail in ((rules, (("dry_break", True),)), (None, ())):
        m = under(match, load_ruleset_file(ruleset)) if ruleset is not None else match
        (o,) = nineball.replay_frame(m, frame, [stroke], None).outcomes
        assert o.detail == detail and not o.foul
