"""The break: where it is played from, when it is fair, what a bad break or the black on
the break brings (WE F, EPF F, WPA 3.3, BB 5.5)."""

from __future__ import annotations

import pytest

from cuelog.replay.model import CONDONED_FOUL, UNSUPPORTED_FOUL, VISITS_ERROR

from ._build import BB, GROUP_EDITIONS, WPA, choice, fold, foul, kinds, replay, stroke

# A black-ball table is 2540 mm long by default: the centre string is at y = 1270.
HEAD_HALF = 600.0
FOOT_HALF = 2000.0


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_f4a_fair_break_four_balls_to_a_cushion(rules: str) -> None:
    """WE F(4)(a)(ii), EPF F(4)(a): four object balls to a cushion, nothing potted: fair; the turn passes."""
    result, (o,) = replay(stroke(1, "A", ["red"], cushions=4), rules=rules)
    assert not o.foul and o.next_striker == "B" and kinds(result) == []


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_f4b_unfair_break_two_visits_rerack_opponent_breaks(rules: str) -> None:
    """WE F(4)(b), EPF F(4)(b): three to a cushion and nothing potted: foul, two visits, the
    balls re-racked and the opponent breaks (F(4)(b)(iii))."""
    result, (o,) = replay(stroke(1, "A", ["red"], cushions=3, call=foul(2)), rules=rules)
    assert o.foul and o.reasons == ("unfair_break",) and o.visits == 2 and o.next_striker == "B"
    st = fold(stroke(1, "A", ["red"], cushions=3, call=foul(2)), rules=rules)
    assert st.breaking and st.breaker == "B" and st.visits_left == 2 and sum(st.table.values()) == 15
    assert kinds(result) == []


def test_we_f4b_the_rebreak_is_the_first_of_the_two_visits() -> None:
    """WE F(4)(b)(iii) with (b)(i) (docs/rulings.md): B re-breaks fairly, pots nothing, and
    still has a second visit."""
    _, outcomes = replay(
        stroke(1, "A", ["red"], cushions=2, call=foul(2)),
        stroke(2, "B", ["red"], cushions=5),
    )
    assert outcomes[1].next_striker == "B"


def test_we_f4b_unfair_break_not_called() -> None:
    """WE F(4)(b): an unfair break nobody called is condoned; play goes on from the position."""
    result, (o,) = replay(stroke(1, "A", ["red"], cushions=2))
    assert o.foul and kinds(result) == [(1, CONDONED_FOUL)]


def test_we_f4b_wrong_number_of_visits() -> None:
    """WE F(4)(b)(i): one visit awarded for an unfair break instead of two."""
    result, _ = replay(stroke(1, "A", ["red"], cushions=2, call=foul(1)))
    assert kinds(result) == [(1, VISITS_ERROR)]


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_f4a_i_a_colour_potted_is_fair_breaker_continues(rules: str) -> None:
    """WE F(4)(a)(i): one colour potted makes the break fair whatever the cushions; the breaker
    continues (C(5)) and must nominate a colour (H(2)(b))."""
    st = fold(stroke(1, "A", ["red"], ["yellow"], cushions=0), rules=rules)
    assert st.striker == "A" and st.must_nominate == "A"


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_f5_black_on_break_rerack_same_breaker(rules: str) -> None:
    """WE F(5), EPF F(5): the black on the break: re-rack, the same player breaks again; the
    rest of the shot (here an in-off) is ignored."""
    result, (o,) = replay(stroke(1, "A", ["red"], ["black", "white"], cushions=4), rules=rules)
    st = fold(stroke(1, "A", ["red"], ["black", "white"], cushions=4), rules=rules)
    assert not o.foul and not o.frame_over and o.next_striker == "A"
    assert st.breaking and st.breaker == "A" and sum(st.table.values()) == 15 and kinds(result) == []


def test_we_f5_foul_called_on_black_break_is_unsupported() -> None:
    """WE F(5): "all other aspects of the shot are ignored": a foul called for the in-off is not supported."""
    result, _ = replay(stroke(1, "A", ["red"], ["black", "white"], call=foul(2)))
    assert kinds(result) == [(1, UNSUPPORTED_FOUL)]


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_f4c_i_in_off_on_fair_break_turn_passes_one_visit(rules: str) -> None:
    """WE F(4)(c)(i): the cue ball potted on a Fair Break: the turn passes (one visit, not two),
    the cue ball from Baulk (K(1))."""
    result, (o,) = replay(stroke(1, "A", ["red"], ["red", "white"], call=foul(1)), rules=rules)
    assert o.foul and o.visits == 1 and o.in_hand == "baulk" and o.next_striker == "B"
    assert kinds(result) == []


def test_we_f4c_ii_in_off_on_unfair_break_two_visits() -> None:
    """WE F(4)(c)(ii): in-off and not a fair break: the bad-break penalty (two visits, re-rack)."""
    _, (o,) = replay(stroke(1, "A", ["red"], ["white"], cushions=1, call=foul(2)))
    assert o.reasons == ("unfair_break",) and o.visits == 2


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_k2_break_not_from_baulk(rules: str) -> None:
    """WE K(2), F(3): the break is played from Baulk; placed outside it is a standard foul (two visits)."""
    _, (o,) = replay(stroke(1, "A", ["red"], cushions=4, placement="illegal", call=foul(2)), rules=rules)
    assert o.reasons == ("placement",) and o.visits == 2


def test_wpa_3_3d_illegal_break_is_not_a_foul_incoming_options() -> None:
    """WPA 3.3(d): nothing pocketed and three to a rail: illegal break, no foul; the incoming
    player may accept the table."""
    result, (o, o2) = replay(
        stroke(1, "A", ["1"], cushions=3),
        choice(1, "B", "accept"),
        stroke(2, "B", ["1"], rail=True, nominated="1"),
        rules=WPA,
    )
    assert not o.foul and o.next_striker == "B" and o2.striker == "B" and kinds(result) == []


def test_wpa_3_3d_2_rerack_and_break() -> None:
    """WPA 3.3(d)(2): the incoming player re-racks and breaks."""
    st = fold(stroke(1, "A", ["1"], cushions=3), choice(1, "B", "rerack"), rules=WPA)
    assert st.breaking and st.breaker == "B" and st.striker == "B"


def test_wpa_3_3d_3_offender_breaks_again() -> None:
    """WPA 3.3(d)(3): the incoming player has the offender break again."""
    st = fold(stroke(1, "A", ["1"], cushions=3), choice(1, "B", "rerack_opponent"), rules=WPA)
    assert st.breaking and st.breaker == "A" and st.striker == "A"


def test_wpa_3_3d_foul_called_on_illegal_break_is_unsupported() -> None:
    """WPA 3.3(d): an illegal break is not a foul: a foul call is not supported."""
    result, _ = replay(stroke(1, "A", ["1"], cushions=3, call=foul(in_hand=True)), rules=WPA)
    assert kinds(result) == [(1, UNSUPPORTED_FOUL)]


def test_wpa_3_3e_eight_on_legal_break_breaker_spots_and_continues() -> None:
    """WPA 3.3(e)(1): the 8 on a legal break is no foul; re-spotted, the breaker accepts and plays on."""
    result, (o, _) = replay(
        stroke(1, "A", ["1"], ["8"], respots=["8"]),
        choice(1, "A", "accept"),
        stroke(2, "A", ["1"], rail=True, nominated="1"),
        rules=WPA,
    )
    assert not o.foul and o.respots == (("8", "foot"),) and o.next_striker == "A" and kinds(result) == []


def test_wpa_3_3e_2_eight_on_break_breaker_rebreaks() -> None:
    """WPA 3.3(e)(2): the breaker chooses to re-break."""
    st = fold(stroke(1, "A", ["1"], ["8"], respots=["8"]), choice(1, "A", "rerack"), rules=WPA)
    assert st.breaking and st.breaker == "A"


def test_wpa_3_3f_eight_and_scratch_on_break_opponent_chooses() -> None:
    """WPA 3.3(f): the 8 and a scratch on the break: a foul; the opponent chooses, cue ball
    in hand behind the head string; a choice by the breaker is not his to make."""
    result, (o,) = replay(
        stroke(1, "A", ["1"], ["8", "white"], respots=["8"], call=foul(in_hand=True)),
        choice(1, "A", "accept"),
        rules=WPA,
    )
    assert o.foul and o.in_hand == "head" and o.next_striker == "B"
    assert [f.rule for f in result.findings] == ["WPA 3.3(f)"]


def test_wpa_3_3g_ball_off_table_on_break_stays_off() -> None:
    """WPA 3.3(g), 3.7: an object ball off the table on the break is a foul and stays out; the
    8 alone is spotted; spotting the 3 is an error."""
    result, (o,) = replay(
        stroke(1, "A", ["1"], off_table=["3"], cushions=4, respots=["3"], call=foul(in_hand=True)),
        rules=WPA,
    )
    assert o.reasons == ("ball_off_table",) and o.respots == ()
    assert kinds(result) == [(1, "respot_in_error")]


def test_wpa_3_3a_6_10_break_not_behind_head_string() -> None:
    """WPA 3.3(a), 3.3(h): the break from outside the kitchen is a foul: accept or in hand behind the head string."""
    _, (o,) = replay(stroke(1, "A", ["1"], cushions=4, placement="illegal", call=foul(in_hand=True)), rules=WPA)
    assert o.reasons == ("placement",) and o.in_hand == "head"


def test_bb_5_5b_fair_break_two_balls_across_centre_string() -> None:
    """BB 5.5(b): nothing potted, two object balls at rest in the head half have crossed the
    centre string: fair."""
    positions = [("red", 600.0, HEAD_HALF), ("yellow", 700.0, HEAD_HALF), ("black", 635.0, FOOT_HALF)]
    result, (o,) = replay(stroke(1, "A", ["red"], positions=positions), rules=BB)
    assert not o.foul and kinds(result) == []


def test_bb_5_5b_5_13_unfair_break_is_a_foul_free_shot() -> None:
    """BB 5.5(b), 5.13: one ball across the centre string and nothing potted: foul; the
    opponent has a free shot."""
    positions = [("red", 600.0, HEAD_HALF), ("yellow", 700.0, FOOT_HALF)]
    result, (o,) = replay(stroke(1, "A", ["red"], positions=positions, call=foul()), rules=BB)
    st = fold(stroke(1, "A", ["red"], positions=positions, call=foul()), rules=BB)
    assert o.reasons == ("unfair_break",) and o.next_striker == "B" and st.free_shot and not st.breaking
    assert kinds(result) == []


def test_bb_5_5b_without_positions_fairness_is_unknown() -> None:
    """BB 5.5(b) with FORMAT 1.2: no positions, nothing potted: the crossing is unknown, no finding."""
    result, (o,) = replay(stroke(1, "A", ["red"]), rules=BB)
    assert not o.foul and kinds(result) == []


def test_bb_5_5c_black_on_break_rerack_same_breaker_scratch_ignored() -> None:
    """BB 5.5(c): the black on the break: re-rack, same breaker; 6.1 (the scratch) is ignored."""
    result, (o,) = replay(stroke(1, "A", ["red"], ["black", "white"]), rules=BB)
    assert not o.foul and o.next_striker == "A" and kinds(result) == []


def test_bb_5_5a_6_10_break_not_from_baulk_free_shot() -> None:
    """BB 5.5(a), 6.10: the break from outside baulk is a foul; the opponent has a free shot."""
    _, (o,) = replay(stroke(1, "A", ["red"], ["red"], placement="illegal", call=foul()), rules=BB)
    assert o.reasons == ("placement",) and o.next_striker == "B"


def test_ruling_wpa_3_3f_rerack_chosen_by_the_opponent_is_his_break() -> None:
    """WPA 3.3(f)(2) "re-breaking" (docs/rulings.md P3): the opponent who chooses the re-break breaks."""
    st = fold(
        stroke(1, "A", ["1"], ["8", "white"], respots=["8"], call=foul(in_hand=True)),
        choice(1, "B", "rerack"),
        rules=WPA,
    )
    assert st.breaking and st.breaker == "B"


def test_ruling_wpa_3_3h_accepting_keeps_the_cue_ball_in_position() -> None:
    """WPA 3.3(h) (docs/rulings.md P4): after a break foul the cue ball in hand behind the head
    string is an option: a call with or without ball in hand stands."""
    for in_hand in (True, False):
        s = stroke(1, "A", ["1"], cushions=5, infringements=["double_hit"], call=foul(in_hand=in_hand))
        result, _ = replay(s, rules=WPA)
        assert kinds(result) == []


def test_ruling_we_f4b_bad_break_not_called_play_goes_on() -> None:
    """WE F(4)(b) with condonation (docs/rulings.md P21): no re-rack when nobody called the
    bad break; the opponent plays from the position."""
    st = fold(stroke(1, "A", ["red"], cushions=2))
    assert not st.breaking and st.striker == "B" and st.visits_left == 1
