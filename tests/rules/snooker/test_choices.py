"""Choices after a foul: S3 R10(f),(h),(i), R12(f), R13, R14(b), R16."""

from __future__ import annotations

from cuelog.replay.model import MISS_ERROR, WRONG_STRIKER

from ._build import choice, event, foul, kinds, replay, stroke


def test_s3_r10h_default_incoming_player_plays() -> None:
    """S3 R10(f),(h): with no choice recorded the incoming player plays from the position left."""
    result, (o, _) = replay(stroke(1, "A", ["blue"], call=foul(5)), stroke(2, "B", ["red"], ["red"]))
    assert o.next_striker == "B" and kinds(result) == []


def test_s3_r10h_ii_return_offender_plays_again_on_red() -> None:
    """S3 R10(h)(ii), R13: asked to play again the offender plays, Red on, and scores normally."""
    result, (_, o) = replay(
        stroke(1, "A", ["blue"], call=foul(5)),
        choice(1, "B", "return"),
        stroke(2, "A", ["red"], ["red"]),
    )
    assert o.ball_on == "red" and o.scored == 1 and kinds(result) == []
    assert result.score == (1, 5)


def test_offender_playing_without_recorded_choice_is_a_return() -> None:
    """FORMAT 1.2: the offender played next with no choice recorded: taken as asked to play again."""
    result, _ = replay(stroke(1, "A", ["blue"], call=foul(5)), stroke(2, "A", ["red"], ["red"]))
    assert kinds(result) == []


def test_s3_r14b_replace_return_restores_reds_and_ball_on() -> None:
    """S3 R14(b): FOUL AND A MISS, balls replaced: the Red pocketed in the foul is back on the table."""
    result, outcomes = replay(
        stroke(1, "A", ["blue"], ["red"], call=foul(5, miss=True)),
        choice(1, "B", "replace_return"),
        stroke(2, "A", ["red"], ["red"]),
        stroke(3, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
        reds=1,
    )
    assert outcomes[1].ball_on == "red" and outcomes[1].scored == 1
    assert outcomes[2].scored == 7 and outcomes[2].respots == (("black", "black"),)
    assert kinds(result) == [] and result.score == (8, 5)


def test_s3_r14b_iii_replaced_colour_after_red_keeps_colour_on() -> None:
    """S3 R14(b)(iii): the foul was on a colour after a Red: replaced, the offender is on a colour again."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["red"], call=foul(7, miss=True)),
        choice(2, "B", "replace_return"),
        stroke(3, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]),
    )
    assert outcomes[2].ball_on == "pink" and outcomes[2].scored == 6
    assert result.score == (7, 7) and kinds(result) == []


def test_replacing_without_a_miss_or_foul_before_striking_is_reported() -> None:
    """S3 R14(b), R10(i): balls may be replaced only after FOUL AND A MISS or a foul before striking."""
    result, _ = replay(
        stroke(1, "A", ["blue"], call=foul(5)), choice(1, "B", "replace_return"), stroke(2, "A", ["red"])
    )
    assert kinds(result) == [(1, MISS_ERROR)]


def test_s3_r10i_foul_before_striking_replace_play() -> None:
    """S3 R10(i): after a foul before the stroke the non-offender may have the balls replaced and play."""
    result, _ = replay(
        event(0, "foul", "A", code="touched_ball", ball="red", points=4),
        choice(0, "B", "replace_play"),
        stroke(1, "B", ["red"], ["red"]),
    )
    assert kinds(result) == [] and result.score == (0, 5)


def test_choice_by_the_offender_is_reported() -> None:
    """S3 R10(h): the choice belongs to the player next in turn, not the offender."""
    result, _ = replay(stroke(1, "A", ["blue"], call=foul(5)), choice(1, "A", "play"))
    assert kinds(result) == [(1, WRONG_STRIKER)]
