"""Striking before the referee has completed spotting a colour: S3 R3(h)(iv), R3(l),
R7(c)(ii), R11(a)(i), R11(b)(ii)."""

from __future__ import annotations

from cuelog.replay.model import CONDONED_FOUL

from ._build import foul, kinds, replay, stroke

RED = stroke(1, "A", ["red"], ["red"], score=[1, 0])
PINK = stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")], score=[7, 0])


def test_s3_r3h_iv_r11b_ii_colour_not_scored_and_penalty_of_the_colour() -> None:
    """S3 R3(h)(iv), R11(b)(ii): in a break, A plays the next Red before the Pink is back on
    its spot. The Pink's six points are not scored; the foul is worth the ball on or the
    Pink, whichever is higher (six); A's break is the Red alone."""
    result, outcomes = replay(
        RED,
        PINK,
        stroke(3, "A", ["red"], infringements=["before_spotted"], call=foul(6), score=[1, 6]),
    )
    o = outcomes[2]
    assert o.foul and o.penalty == 6 and o.reasons == ("before_spotted",)
    assert o.turn_ends and o.next_striker == "B"
    assert result.score == (1, 6)
    assert kinds(result) == []
    assert [(b.side, b.points) for b in result.breaks] == [("A", 1)]
    assert [f.rule for f in result.findings] == []


def test_s3_r3h_iv_scoreboard_keeping_the_colour_is_a_mismatch() -> None:
    """S3 R3(h)(iv): the marker takes the penalty off but leaves the Pink on A's score: the
    scoreboard is six points out."""
    result, _ = replay(
        RED,
        PINK,
        stroke(3, "A", ["red"], infringements=["before_spotted"], call=foul(6), score=[7, 6]),
    )
    assert [(f.n, f.kind, f.points) for f in result.findings] == [(3, "score_mismatch", 6)]


def test_s3_r11a_i_before_spotting_a_free_ball_is_the_value_of_the_ball_on() -> None:
    """S3 R3(h)(iv), R11(a)(i): Blue potted as a free ball (a Red, one point); B strikes
    before it is spotted, at the Yellow nominated: the foul is the value of the ball on
    (four, not the Blue's five) and the free ball's point is not scored."""
    result, outcomes = replay(
        stroke(1, "A", ["brown"], call=foul(4, free_ball=True), score=[0, 4]),
        stroke(2, "B", ["blue"], ["blue"], nominated="blue", respots=[("blue", "blue")], score=[0, 5]),
        stroke(3, "B", ["yellow"], nominated="yellow", infringements=["before_spotted"], call=foul(4), score=[4, 4]),
    )
    o = outcomes[2]
    assert o.penalty == 4 and o.foul
    assert result.score == (4, 4)
    assert kinds(result) == []


def test_s3_r11b_ii_called_at_five_after_a_free_ball_is_a_penalty_value_error() -> None:
    """S3 R11(a)(i) against (b)(ii): five points for striking before a free ball was spotted
    is one too many."""
    result, _ = replay(
        stroke(1, "A", ["brown"], call=foul(4, free_ball=True)),
        stroke(2, "B", ["blue"], ["blue"], nominated="blue", respots=[("blue", "blue")]),
        stroke(3, "B", ["yellow"], nominated="yellow", infringements=["before_spotted"], call=foul(5)),
    )
    assert [(f.n, f.kind, f.rule, f.points) for f in result.findings] == [(3, "penalty_value", "S3 R11(a)(i)", 1)]


def test_s3_r3l_incoming_player_before_spotting_keeps_the_opponents_points() -> None:
    """S3 R3(l): after A's break ends with the Black potted in a foul (in-off), B strikes
    before the Black is spotted: B is penalised as the striker (seven, the Black), and
    nothing comes off A's score, since nothing was scored with the Black."""
    result, outcomes = replay(
        RED,
        stroke(2, "A", ["black"], ["black", "white"], nominated="black", respots=[("black", "black")], call=foul(7)),
        stroke(3, "B", ["red"], infringements=["before_spotted"], call=foul(7)),
    )
    assert outcomes[2].penalty == 7
    assert result.score == (8, 7)
    assert kinds(result) == []


def test_s3_r3h_iv_not_called_is_condoned_and_the_colour_counts() -> None:
    """S3 R10(c): nobody calls the early stroke: the foul is condoned, the Pink's points stand."""
    result, _ = replay(RED, PINK, stroke(3, "A", ["red"], ["red"], infringements=["before_spotted"]))
    assert kinds(result) == [(3, CONDONED_FOUL)]
    assert result.findings[0].points == 6
    assert result.score == (8, 0)


def test_s3_r7c_ii_missing_colour_spotted_subject_to_penalty() -> None:
    """S3 R7(c)(ii): the Pink was left off (respot_missing); while the referee puts it back
    the striker plays at the Yellow: a foul worth the Pink (six, R11(b)(ii)), and nothing
    taken back, since the Pink was not potted in the stroke before."""
    result, outcomes = replay(
        RED,
        stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[]),
        stroke(3, "A", ["red"], ["red"]),
        stroke(4, "A", ["yellow"], nominated="yellow", infringements=[("before_spotted", "pink")], call=foul(6)),
    )
    assert outcomes[3].foul and outcomes[3].penalty == 6
    assert result.score == (8, 6)
    assert kinds(result) == [(2, "respot_missing")]
