"""``cuelog replay``'s human line for a pool rack: a rack has no points, so the line gives
the winner by the rules beside the recorded winner and the scoreboard as kept, never an
"official" score set against a match tally (docs/pool.md)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tests.ingest.conftest import write

NOT_COMPARED = "(not compared: a rack has no points)"


def replay(log: Path) -> list[str]:
    from cuelog.cli import app

    result = CliRunner().invoke(app, ["replay", str(log)], terminal_width=200)
    assert result.exit_code in (0, 1), result.output
    return [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("frame ")]


def test_eightball_racks_give_both_winners_and_the_scoreboard_as_kept() -> None:
    assert replay(EXAMPLES / "eightball-league.jsonl") == [
        f"frame 1: winner B by the rules, recorded winner A, scoreboard 1-0 {NOT_COMPARED}",
        f"frame 2: winner A by the rules, recorded winner A, scoreboard 2-0 {NOT_COMPARED}",
    ]


def _cushions(n: int) -> dict[str, object]:
    return {"objects": n, "after_contact": True}


def test_nineball_rack_won_on_the_break_and_a_rack_not_finished(tmp_path: Path) -> None:
    log = write(
        tmp_path / "n9.jsonl",
        [
            {"type": "match", "format": "cuelog/1", "match": "n9", "rules": "nineball/wpa", "sides": {"A": "a", "B": "b"}},
            {"type": "frame", "frame": 1, "breaker": "A"},
            # WPA 2.3: the 9 pocketed on a legal break wins the rack.
            {"type": "stroke", "frame": 1, "n": 1, "striker": "A", "first": ["1"], "potted": ["9"],
             "cushions": _cushions(4), "score": [1, 0]},
            {"type": "frame_end", "frame": 1, "winner": "A", "score": [1, 0], "reason": "pot"},
            {"type": "frame", "frame": 2, "breaker": "B"},
            {"type": "stroke", "frame": 2, "n": 1, "striker": "B", "first": ["1"], "potted": [],
             "cushions": _cushions(4)},
        ],
    )  # fmt: skip
    assert replay(log) == [
        f"frame 1: winner A by the rules, recorded winner A, scoreboard 1-0 {NOT_COMPARED}",
        "frame 2: not finished (no winner by the rules), no recorded winner",
    ]


def test_straight_pool_is_scored_in_points_and_keeps_the_official_score(tmp_path: Path) -> None:
    log = write(
        tmp_path / "s.jsonl",
        [
            {"type": "match", "format": "cuelog/1", "match": "s", "rules": "straight-pool/wpa",
             "sides": {"A": "a", "B": "b"}, "target": 100},
            {"type": "frame", "frame": 1, "breaker": "A"},
            {"type": "stroke", "frame": 1, "n": 1, "striker": "A", "first": ["1"], "potted": [],
             "cushions": _cushions(2), "score": [0, 0]},
        ],
    )  # fmt: skip
    assert replay(log) == ["frame 1: official 0-0, recorded 0-0, not finished (no winner by the rules)"]


def test_watch_says_a_rack_result_as_the_replay_does() -> None:
    """``cuelog watch`` of the eight-ball example: each rack's result line gives both winners
    and the scoreboard as kept; a snooker frame keeps its official and recorded score."""
    from cuelog.cli import app

    racks = CliRunner().invoke(app, ["watch", str(EXAMPLES / "eightball-league.jsonl"), "--until-end", "--settle", "0"])
    said = [line for line in racks.stdout.splitlines() if " result: " in line]
    assert said == [
        f"frame 1 result: winner B by the rules, recorded winner A, scoreboard 1-0 {NOT_COMPARED}, 4 finding(s)  (line 14)",
        f"frame 2 result: winner A by the rules, recorded winner A, scoreboard 2-0 {NOT_COMPARED}, 1 finding(s)  (line 23)",
    ]
    frames = CliRunner().invoke(
        app, ["watch", str(EXAMPLES / "snooker-officiating.jsonl"), "--until-end", "--settle", "0"]
    )
    assert [line for line in frames.stdout.splitlines() if " result: " in line] == [
        "frame 1 result: official 15-37, recorded 15-34, winner B, 3 finding(s)  (line 20)"
    ]
