"""The break (WPA 2.3) and the push out (WPA 2.4)."""

from __future__ import annotations

from cuelog.replay.model import CONDONED_FOUL, PUSH_OUT_ERROR, WRONG_STRIKER

from ._build import choice, end, fold, foul, kinds, legal_break, replay, stroke


def test_wpa_2_3b_four_balls_to_rails_is_a_legal_break() -> None:
    """WPA 2.3(b): nothing pocketed, five balls to rails: legal; the turn passes."""
    result, (o,) = replay(legal_break())
    assert not o.foul and o.next_striker == "B" and kinds(result) == []


def test_wpa_2_3b_fewer_than_four_is_a_foul_ball_in_hand() -> None:
    """WPA 2.3(b), 2.7: nothing pocketed, three to rails: a foul, ball in hand anywhere."""
    result, (o,) = replay(stroke(1, "A", ["1"], cushions=3, call=foul()))
    assert o.reasons == ("unfair_break",) and o.in_hand == "anywhere" and kinds(result) == []


def test_wpa_6_2_break_must_hit_the_one_first() -> None:
    """WPA 6.2 on the break: the lowest ball, the 1, first."""
    result, (o,) = replay(stroke(1, "A", ["3"], ["5"]))
    assert o.reasons == ("wrong_ball_first",) and kinds(result) == [(1, CONDONED_FOUL)]


def test_wpa_2_3a_6_10_break_from_outside_the_kitchen() -> None:
    """WPA 2.3(a), 6.10: the break from outside the head string is a foul."""
    _, (o,) = replay(stroke(1, "A", ["1"], cushions=5, placement="illegal", call=foul()))
    assert o.reasons == ("placement",)


def test_wpa_2_3_pot_on_the_break_continues() -> None:
    """WPA 2.5: a ball legally pocketed on the break: the breaker continues."""
    _, (o,) = replay(stroke(1, "A", ["1"], ["4"]))
    assert o.next_striker == "A"


def test_wpa_2_4_push_out_suspends_6_2_and_6_3() -> None:
    """WPA 2.4: the shot after a legal break may be a push out: no ball first, no rail needed."""
    result, outcomes = replay(legal_break(), stroke(2, "B", ["6"], rail=False, push_out=True))
    assert not outcomes[-1].foul and outcomes[-1].next_striker == "A" and kinds(result) == []


def test_wpa_2_4_other_player_chooses_who_shoots() -> None:
    """WPA 2.4: after the push out the other player may hand the shot back (``return``)."""
    st = fold(legal_break(), stroke(2, "B", ["6"], push_out=True), choice(2, "A", "return"))
    assert st.striker == "B"
    st = fold(legal_break(), stroke(2, "B", ["6"], push_out=True), choice(2, "A", "play"))
    assert st.striker == "A"


def test_wpa_2_4_choice_by_the_pusher_is_not_his() -> None:
    """WPA 2.4: the choice belongs to the player who did not push."""
    result, _ = replay(legal_break(), stroke(2, "B", ["6"], push_out=True), choice(2, "B", "return"))
    assert kinds(result) == [(2, "invalid_record")]


def test_wpa_2_4_push_out_later_in_the_rack_is_an_error() -> None:
    """WPA 2.4: only the second shot of the rack may be a push out; later it is a normal shot."""
    recs = [legal_break(), stroke(2, "B", ["1"], rail=True), stroke(3, "A", ["6"], rail=False, push_out=True)]
    result, outcomes = replay(*recs)
    assert (3, PUSH_OUT_ERROR) in kinds(result) and outcomes[-1].reasons == ("wrong_ball_first",)


def test_wpa_2_4_no_push_out_after_a_foul_on_the_break() -> None:
    """WPA 2.4: "If no foul is committed on the break shot": after a break foul, no push out."""
    recs = [stroke(1, "A", ["1"], cushions=2, call=foul()), stroke(2, "B", ["1"], rail=True, push_out=True)]
    result, _ = replay(*recs)
    assert kinds(result) == [(2, PUSH_OUT_ERROR)]


def test_wpa_2_4_push_out_pots_count_nothing_and_the_stroke_says_it_was_one() -> None:
    """WPA 2.4: "Any balls pocketed on a push out do not count and remain pocketed". The
    stroke's detail keeps the push out as a fact (what the nine-ball report counts)."""
    result, outcomes = replay(legal_break(), stroke(2, "B", ["6"], ["3"], rail=False, push_out=True))
    o = outcomes[-1]
    assert o.scored == 0 and not o.foul and o.next_striker == "A" and kinds(result) == []
    assert dict(o.detail) == {"push_out": True}


def test_wpa_2_4_a_refused_push_out_is_a_normal_shot_whose_pots_count() -> None:
    """WPA 2.4 ("If no foul is committed on the break shot"): after a break foul a push out is
    refused, the stroke judged as a normal shot: the 1 first, the 2 pocketed, one ball scored
    and the shooter continues (2.5). The detail says a push out was declared and refused."""
    recs = [stroke(1, "A", ["1"], cushions=2, call=foul()), stroke(2, "B", ["1"], ["2"], push_out=True)]
    result, outcomes = replay(*recs)
    o = outcomes[-1]
    assert kinds(result) == [(2, PUSH_OUT_ERROR)]
    assert o.scored == 1 and not o.foul and o.next_striker == "B"
    assert dict(o.detail) == {"push_out": False}


def test_wpa_2_4_a_stroke_without_a_push_out_has_no_push_out_detail() -> None:
    """WPA 2.4: only a stroke that declared a push out says so."""
    _, outcomes = replay(legal_break(), stroke(2, "B", ["1"], rail=True))
    assert "push_out" not in dict(outcomes[-1].detail)


def test_wpa_2_4_2_6_nine_on_a_push_out_is_spotted_not_a_win() -> None:
    """WPA 2.4, 2.5, 2.6: the 9 pocketed on a push out does not win; it is spotted."""
    result, outcomes = replay(legal_break(), stroke(2, "B", ["6"], ["9"], push_out=True, respots=["9"]))
    assert not outcomes[-1].frame_over and outcomes[-1].respots == (("9", "foot"),) and kinds(result) == []


def test_wpa_6_13_wrong_player_after_push_out() -> None:
    """WPA 6.13: the other player took the shot, the pusher played."""
    recs = [
        legal_break(),
        stroke(2, "B", ["6"], push_out=True),
        choice(2, "A", "play"),
        stroke(3, "B", ["1"], rail=True),
    ]
    result, _ = replay(*recs, end("A", "concede"))
    assert (3, WRONG_STRIKER) in kinds(result)
