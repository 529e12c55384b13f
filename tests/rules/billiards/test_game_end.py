"""S3 R5 end of a game (points, time), S4 R4 concession, S4 R3(a) award, the recorded ``frame_end``."""

from __future__ import annotations

from tests.rules.billiards._build import end, event, foul, kinds, replay, stroke


def test_only_the_points_required_count_s3_r5d() -> None:
    """To 10: 9 then an in-off plus pot (6) -> 10 counted; the break keeps 15."""
    result, outcomes = replay(
        *[stroke(n, "A", ["red"], ["white"], placement="legal") for n in (1, 2, 3)],
        stroke(4, "A", ["red"], ["red", "white"], placement="legal"),
        end("A", "target", [10, 0]),
        target=10,
    )
    assert result.score == (10, 0) and result.winner == "A"
    assert result.breaks[-1].points == 15
    assert outcomes[-1].frame_over and outcomes[-1].scored == 1
    assert kinds(result) == []


def test_penalty_reaching_the_target_wins_s3_r5d() -> None:
    result, _ = replay(
        stroke(1, "A", ["red"], ["white"], placement="legal"),
        stroke(2, "A", ["red"], placement="illegal", call=foul()),
        stroke(3, "B", ["red"], placement="illegal", call=foul()),
        end("A", "target", [4, 2]),
        target=4,
    )
    # B's foul is worth 2 but A needed only 1.
    assert result.score == (4, 2) and result.winner == "A"
    assert kinds(result) == []


def test_wrong_winner_recorded() -> None:
    result, _ = replay(stroke(1, "A", ["red"], ["white"], placement="legal"), end("B", "target"), target=3)
    assert kinds(result) == [(1, "frame_end_error")]


def test_game_recorded_as_ended_before_the_target() -> None:
    result, _ = replay(stroke(1, "A", ["red"], ["white"], placement="legal"), end("A", "target"), target=30)
    assert kinds(result) == [(1, "frame_end_error")]
    assert result.findings[0].rule == "S3 R5(d)"


def test_stroke_after_the_game_ended() -> None:
    result, _ = replay(
        stroke(1, "A", ["red"], ["white"], placement="legal"),
        stroke(2, "A", ["red"], ["white"], placement="legal"),
        end("A", "target"),
        target=3,
    )
    assert kinds(result) == [(2, "frame_end_error")]
    assert result.score == (3, 0)


def test_time_limit_stroke_in_progress_finishes_s3_r5a() -> None:
    """A stroke struck within the time counts; one struck after it does not."""
    t = "2026-05-01T14:{:02d}:00.000Z"
    result, _ = replay(
        stroke(1, "A", ["red"], ["white"], placement="legal", t=t.format(0)),
        stroke(2, "A", ["red"], placement="legal", t=t.format(10)),
        stroke(3, "B", ["red"], ["yellow"], placement="legal", t=t.format(30)),
        stroke(4, "B", ["red"], ["yellow"], placement="legal", t=t.format(31)),
        end("B", "time"),
        time_limit_s=1800,
    )
    assert result.score == (3, 3) and result.winner is None
    assert kinds(result) == [(4, "frame_end_error")]


def test_time_limit_winner_is_the_leader_s3_r1f_i() -> None:
    result, _ = replay(
        stroke(1, "A", ["red"], ["white"], placement="legal", t="2026-05-01T14:00:00Z"),
        stroke(2, "A", ["red"], placement="legal", t="2026-05-01T14:01:00Z"),
        end("B", "time"),
        time_limit_s=3600,
    )
    assert result.winner == "A"
    assert kinds(result) == [(2, "frame_end_error")]


def test_concession_s4_r4() -> None:
    result, _ = replay(
        stroke(1, "A", ["red"], ["white"], placement="legal"), event(1, "concede", "B"), end("A", "concede")
    )
    assert result.winner == "A" and result.end_reason == "concede"
    assert kinds(result) == []


def test_award_forfeits_the_points_s4_r3a() -> None:
    """Game awarded for unsporting conduct in a points game: won by the target to nil."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["white"], placement="legal"),
        event(1, "award", "B", reason="unsporting"),
        end("B", "award", [100, 0]),
        target=100,
    )
    assert result.winner == "B" and result.score == (0, 100)
    assert kinds(result) == [(1, "score_mismatch")]  # the recorded [100, 0] is the wrong way round
