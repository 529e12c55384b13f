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


# A foul that leaves the incoming player snookered on the only Red: one Red at (400, 2500)
# hidden behind the Blue (test_snookered.py gives the geometry).
_HIDDEN = [("white", 400.0, 1000.0), ("red", 400.0, 2500.0), ("blue", 400.0, 1800.0), ("black", 889.0, 3245.0)]


def test_s2_r13_free_ball_due_but_not_called_is_one_finding_and_not_taken() -> None:
    """S2 R13, S3 R12(a)(i), FORMAT 7 "with the calls as made": FREE BALL was due after A's
    foul but not called. That is one ``free_ball_error`` on the foul; B's next stroke is
    judged without a free ball, so the Blue hit first is a foul (S3 R11(b)(iv)) and B's
    call of five for it is right."""
    result, (_, o) = replay(
        stroke(1, "A", [], call=foul(4), positions=_HIDDEN),
        stroke(2, "B", ["blue"], call=foul(5), infringements=[]),
        reds=1,
    )
    assert o.foul and o.penalty == 5 and o.reasons == ("first_contact",)
    assert kinds(result) == [(1, FREE_BALL_ERROR)]
    assert result.score == (5, 4)


def test_s3_r11b_iv_after_an_uncalled_free_ball_a_ball_not_on_hit_first_is_still_a_foul() -> None:
    """S3 R11(b)(iv), R12(a)(i): with no FREE BALL called the Blue is not on; B hitting it
    first and nothing called is a condoned foul, not a free ball taken."""
    result, (_, o) = replay(
        stroke(1, "A", [], call=foul(4), positions=_HIDDEN),
        stroke(2, "B", ["blue"]),
        reds=1,
    )
    assert o.foul and o.penalty == 5
    assert kinds(result) == [(1, FREE_BALL_ERROR), (2, "condoned_foul")]


def test_s3_r11b_iv_black_first_with_yellow_on_after_an_uncalled_free_ball() -> None:
    """S3 R11(b)(iv), (a)(vii): the colours, Yellow on; A's foul leaves B snookered on the
    Yellow behind the Pink and no FREE BALL is called. B hits the Black first and goes
    in-off: seven, as called; no ``penalty_value`` or ``unsupported_foul``."""
    hidden = [("white", 400.0, 1000.0), ("yellow", 400.0, 2500.0), ("pink", 400.0, 1800.0), ("black", 889.0, 3245.0)]
    result, (_, o) = replay(
        stroke(1, "A", [], call=foul(4), positions=hidden),
        stroke(2, "B", ["black"], ["white"], call=foul(7), infringements=[]),
        reds=0,
    )
    assert o.foul and o.penalty == 7
    assert kinds(result) == [(1, FREE_BALL_ERROR)]
    assert result.score == (7, 4)
