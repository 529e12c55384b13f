"""Free ball: S3 R12(a)-(f), S2 R13."""

from __future__ import annotations

from cuelog.replay.model import FREE_BALL_ERROR

from ._build import choice, foul, kinds, replay, stroke

FOUL_FB = stroke(1, "A", ["blue"], call=foul(5, free_ball=True))


def test_s3_r12a_c_free_ball_as_red_potted_scores_one_and_is_spotted() -> None:
    """S3 R12(a)(ii),(c), R3(g): Red on, Green nominated as free ball and potted: one point, Green spotted."""
    result, (_, o) = replay(
        FOUL_FB, stroke(2, "B", ["green"], ["green"], nominated="green", respots=[("green", "green")])
    )
    assert not o.foul and o.scored == 1 and o.respots == (("green", "green"),)
    assert kinds(result) == [] and result.score == (0, 6)


def test_s3_r12_free_ball_then_colour() -> None:
    """S3 R3(h)(i): a free ball potted as a Red is followed by a colour."""
    _, (_, _, o) = replay(
        FOUL_FB,
        stroke(2, "B", ["green"], ["green"], nominated="green", respots=[("green", "green")]),
        stroke(3, "B", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
    )
    assert o.ball_on == "black" and o.scored == 7


def test_s3_r12e_free_ball_and_red_both_potted_each_scores() -> None:
    """S3 R12(e): free ball (as Red) and a Red potted together: each scores."""
    _, (_, o) = replay(FOUL_FB, stroke(2, "B", ["pink"], ["pink", "red"], nominated="pink", respots=[("pink", "pink")]))
    assert o.scored == 2 and not o.foul


def test_s3_r12e_free_ball_and_colour_on_potted_only_ball_on_scores() -> None:
    """S3 R12(e): colours; Yellow on, Pink free ball: both potted, only Yellow (2) scores, Pink spotted."""
    result, (_, o) = replay(
        stroke(1, "A", ["green"], call=foul(4, free_ball=True)),
        stroke(2, "B", ["pink"], ["pink", "yellow"], nominated="pink", respots=[("pink", "pink")]),
        reds=0,
    )
    assert o.scored == 2 and o.respots == (("pink", "pink"),)
    assert kinds(result) == []


def test_s3_r12d_ball_on_potted_after_free_ball_hit_first() -> None:
    """S3 R12(d): Yellow on, Pink nominated, Pink hit, Yellow potted: scores 2, Yellow stays off."""
    _, (_, o) = replay(
        stroke(1, "A", ["green"], call=foul(4, free_ball=True)),
        stroke(2, "B", ["pink"], ["yellow"], nominated="pink", respots=[]),
        reds=0,
    )
    assert o.scored == 2 and o.respots == ()


def test_s3_r12b_i_free_ball_not_hit_first_is_a_foul() -> None:
    """S3 R11(b)(iv), R12(a)(ii),(b)(i): free ball Pink nominated, the Red hit first: foul.

    The free ball takes the value of the ball on (Red), so the penalty is four, not six.
    """
    result, (_, o) = replay(FOUL_FB, stroke(2, "B", ["red"], nominated="pink", call=foul(6)))
    assert o.foul and o.penalty == 4
    assert kinds(result) == [(2, "penalty_value")]


def test_s3_r12_free_ball_with_ball_on_hit_simultaneously_is_legal() -> None:
    """S3 R6, R12(b)(i): the free ball and a ball on hit simultaneously is not a foul."""
    _, (_, o) = replay(FOUL_FB, stroke(2, "B", ["pink", "red"], ["red"], nominated="pink"))
    assert not o.foul and o.scored == 1


def test_ruling_free_ball_hit_first_taken_as_nominated() -> None:
    """S3 R12(a): FREE BALL called, no nomination recorded: the ball hit first is the free ball."""
    result, (_, o) = replay(FOUL_FB, stroke(2, "B", ["brown"], ["brown"], respots=[("brown", "brown")]))
    assert not o.foul and o.scored == 1 and kinds(result) == []


def test_s3_r12f_free_ball_void_when_offender_plays_again() -> None:
    """S3 R12(f): the offender asked to play again has no free ball: a colour hit first is a foul."""
    result, (_, o) = replay(
        FOUL_FB,
        choice(1, "B", "return"),
        stroke(2, "A", ["green"], ["green"], nominated="green", respots=[("green", "green")]),
    )
    assert o.foul
    assert kinds(result) == [(2, FREE_BALL_ERROR)]


def test_free_ball_taken_without_call() -> None:
    """S3 R12: no FREE BALL called: a nominated colour hit first with Red on is a foul."""
    result, _ = replay(
        stroke(1, "A", ["blue"], call=foul(5)),
        stroke(2, "B", ["green"], ["green"], nominated="green", respots=[("green", "green")], score=[1, 5]),
    )
    assert kinds(result) == [(2, FREE_BALL_ERROR)]


def test_free_ball_nominated_with_the_choice() -> None:
    """S3 R12(a),(b)(i), FORMAT ``choice.nominated``: Green named as the free ball with the choice;
    hitting the Pink first is then a foul (without the nomination the Pink would be the free ball)."""
    from cuelog.schemas.records import Choice

    result, (_, o) = replay(
        FOUL_FB,
        Choice(frame=1, after=1, side="B", option="play", nominated="green"),
        stroke(2, "B", ["pink"], call=foul(6)),
    )
    assert o.foul and o.penalty == 6 and kinds(result) == []


def test_s3_r12c_free_ball_scored_at_face_value() -> None:
    """S3 R12(a)(ii),(c): the Green taken as a free ball (Red on) scored 3 instead of 1: free_ball_error."""
    result, _ = replay(
        stroke(1, "A", ["blue"], call=foul(5, free_ball=True), score=[0, 5]),
        stroke(2, "B", ["green"], ["green"], nominated="green", respots=[("green", "green")], score=[0, 8]),
    )
    assert kinds(result) == [(2, FREE_BALL_ERROR)]
    assert result.findings[0].points == 2 and result.score == (0, 6)
