"""The ball on and scoring: S3 R3(g),(h), S2 R11, R12, S3 R1(c)."""

from __future__ import annotations

from cuelog.replay.model import CONDONED_FOUL, PENALTY_VALUE

from ._build import foul, kinds, replay, stroke


def test_s3_r3g_several_reds_in_one_stroke_all_score() -> None:
    """S3 R3(g): every Red potted in the same stroke is scored."""
    result, (o,) = replay(stroke(1, "A", ["red"], ["red", "red", "red"], score=[3, 0]))
    assert o.scored == 3 and not o.foul and not o.turn_ends and o.ball_on == "red"
    assert result.score == (3, 0) and kinds(result) == []


def test_s3_r3g_two_reds_hit_simultaneously_is_legal() -> None:
    """S3 R6: two Reds may be hit simultaneously when Red is on."""
    _, (o,) = replay(stroke(1, "A", ["red", "red"], ["red"]))
    assert not o.foul and o.scored == 1


def test_s3_r3h_nominated_colour_scores_and_is_spotted() -> None:
    """S3 R3(h)(i): after a Red the nominated colour scores its value and is spotted."""
    result, (_, o) = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]),
    )
    assert o.scored == 6 and o.ball_on == "pink" and o.respots == (("pink", "pink"),)
    assert result.score == (7, 0)


def test_ruling_colour_hit_first_is_the_nominated_colour() -> None:
    """S2 R12, S3 R3(h): no nomination recorded: the colour hit first is taken as nominated."""
    result, (_, o) = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["blue"], ["blue"], respots=[("blue", "blue")], score=[6, 0]),
    )
    assert not o.foul and o.scored == 5 and o.ball_on == "blue"
    assert kinds(result) == []


def test_s3_r11b_nominated_colour_but_another_colour_hit_first() -> None:
    """S3 R11(b)(iv): nominated green, hit black first: the higher of ball on and ball concerned, 7."""
    result, (_, o) = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["black"], nominated="green", call=foul(4)),
    )
    assert o.foul and o.penalty == 7
    assert kinds(result) == [(2, PENALTY_VALUE)]
    assert result.score == (1, 7)


def test_s3_r11b_pot_of_a_colour_not_nominated() -> None:
    """S3 R11(b)(iii): nominated yellow, hit yellow, potted pink: pink is not on, 6."""
    _, (_, o) = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["yellow"], ["pink"], nominated="yellow", call=foul(6), respots=[("pink", "pink")]),
    )
    assert o.foul and o.penalty == 6 and o.reasons == ("ball_not_on_potted",)


def test_s3_r11d_iii_playing_at_a_red_after_a_red_is_seven() -> None:
    """S3 R11(d)(iii): no colour nominated and the Red hit first straight after a Red: seven."""
    result, (_, o) = replay(stroke(1, "A", ["red"], ["red"]), stroke(2, "A", ["red"], call=foul(7)))
    assert o.penalty == 7 and o.reasons == ("reds_successive",)
    assert kinds(result) == []


def test_s3_r3h_ii_colour_after_last_red_then_sequence() -> None:
    """S3 R3(h)(ii),(iii): after the last Red a colour of choice, then Yellow upward."""
    _, outcomes = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]),
        stroke(3, "A", ["yellow"], ["yellow"], respots=[]),
        stroke(4, "A", ["green"], ["green"], respots=[]),
        reds=1,
    )
    assert [o.ball_on for o in outcomes] == ["red", "pink", "yellow", "green"]
    assert [o.scored for o in outcomes] == [1, 6, 2, 3]
    assert outcomes[2].respots == ()


def test_s3_r3h_ii_colour_after_last_red_missed_still_starts_sequence() -> None:
    """S3 R3(h)(ii): "a colour has been played at" after the last Red: the next player is on Yellow."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["black"], nominated="black"),
        stroke(3, "B", ["yellow"], ["yellow"], respots=[]),
        reds=1,
    )
    assert outcomes[2].ball_on == "yellow" and outcomes[2].scored == 2
    assert kinds(result) == []


def test_s3_r3h_iii_sequence_out_of_order_is_a_foul() -> None:
    """S3 R3(h)(iii), R11(b)(iv): Yellow on, Green hit first: max(4, 2, 3) = 4."""
    result, (o,) = replay(stroke(1, "A", ["green"]), reds=0)
    assert o.foul and o.penalty == 4 and o.ball_on == "yellow"
    assert kinds(result) == [(1, CONDONED_FOUL)]


def test_s3_r1c_d_pots_to_striker_penalties_to_opponent() -> None:
    """S3 R1(c),(d): points potted go to the striker, penalty points to the opponent."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
        stroke(3, "A", ["pink"], call=foul(6)),
    )
    assert result.score == (8, 6)
