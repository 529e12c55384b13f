"""Standard fouls and their penalty, edition by edition (WE K, G; EPF K; WPA 3.9, 6.x;
BB 5.13), condonation (WPA 6) and the penalty comparison."""

from __future__ import annotations

import pytest

from cuelog.replay.model import CONDONED_FOUL, UNSUPPORTED_FOUL, VISITS_ERROR

from ._build import BB, GROUP_EDITIONS, WORLD, WPA, foul, groups_decided, kinds, own, replay, stroke

ALL = (*GROUP_EDITIONS, WPA, BB)


def _penalty(rules: str) -> dict[str, object]:
    """The call a correct referee makes for a standard foul without a scratch."""
    return {WPA: {"in_hand": True}, BB: {}}.get(rules, {"visits": 2})  # type: ignore[return-value]


@pytest.mark.parametrize("rules", ALL)
def test_wrong_ball_first_we_g1a_wpa_6_2_bb_6_2(rules: str) -> None:
    """WE G(1)(a), EPF G(1)(a), WPA 6.2, BB 6.2: A, on yellow/stripes, hits B's ball first."""
    s = stroke(4, "A", [own(rules, "B")], rail=True, call=foul(**_penalty(rules)))  # type: ignore[arg-type]
    result, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert outcomes[-1].reasons == ("wrong_ball_first",) and outcomes[-1].next_striker == "B"
    assert kinds(result) == []


@pytest.mark.parametrize("rules", ALL)
def test_no_contact_we_g1a_wpa_6_2_bb_6_3(rules: str) -> None:
    """WE G(1)(a), WPA 6.2, BB 6.3: the cue ball hits nothing."""
    _, outcomes = replay(*groups_decided(rules), stroke(4, "A", []), rules=rules)
    assert outcomes[-1].reasons == ("no_contact",)


@pytest.mark.parametrize("rules", ALL)
def test_no_rail_after_contact_we_g1b_wpa_6_3(rules: str) -> None:
    """WE G(1)(b), WPA 6.3, BB 6.3: own ball hit, nothing potted, no ball to a cushion."""
    _, outcomes = replay(*groups_decided(rules), stroke(4, "A", [own(rules, "A")], rail=False), rules=rules)
    assert outcomes[-1].reasons == ("no_rail",)


@pytest.mark.parametrize("rules", ALL)
def test_no_rail_unknown_without_cushion_facts(rules: str) -> None:
    """FORMAT 1.2: cushions not recorded: no foul is invented."""
    result, outcomes = replay(*groups_decided(rules), stroke(4, "A", [own(rules, "A")]), rules=rules)
    assert not outcomes[-1].foul and kinds(result) == []


def test_we_g1b_potting_a_ball_not_on_does_not_make_the_shot_legal() -> None:
    """WE G(1)(b): the pot must be of a ball "On"; WPA 6.3 takes any pot (next test)."""
    s = stroke(4, "A", ["yellow"], ["red"], rail=False)
    _, outcomes = replay(*groups_decided(WORLD), s)
    assert outcomes[-1].reasons == ("no_rail", "opponent_ball")


def test_wpa_6_3_any_pot_satisfies_the_rail_rule() -> None:
    """WPA 6.3: "If no object ball is pocketed": a pocketed opponent ball is enough, and WPA
    eight ball does not make it a foul."""
    result, outcomes = replay(*groups_decided(WPA), stroke(4, "A", ["9"], ["2"], rail=False, nominated="9"), rules=WPA)
    assert not outcomes[-1].foul and kinds(result) == []


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_k3_potting_opponent_ball_is_a_foul(rules: str) -> None:
    """WE K(3), EPF K(3): potting an opponent's ball, even with an own ball, is a standard foul."""
    s = stroke(4, "A", ["yellow"], ["yellow", "red"], call=foul(2))
    result, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert outcomes[-1].reasons == ("opponent_ball",) and outcomes[-1].visits == 2 and kinds(result) == []


def test_bb_5_13_1_opponent_ball_without_own_is_a_foul() -> None:
    """BB 5.13.1: an opponent's ball pocketed without one of your own: foul."""
    _, outcomes = replay(*groups_decided(BB), stroke(4, "A", ["yellow"], ["red"]), rules=BB)
    assert outcomes[-1].reasons == ("opponent_ball",)


def test_bb_5_13_1_opponent_ball_with_own_is_not_a_foul() -> None:
    """BB 5.13.1: with a ball of your own as well, no foul; the player continues (5.7)."""
    result, outcomes = replay(*groups_decided(BB), stroke(4, "A", ["yellow"], ["red", "yellow"]), rules=BB)
    assert not outcomes[-1].foul and outcomes[-1].next_striker == "A" and kinds(result) == []


@pytest.mark.parametrize(("rules", "rule"), [(WORLD, "WE K(22)"), ("eightball/wepf", "EPF K(22)"), (BB, "BB 5.13.3")])
def test_jump_shot_is_a_foul_we_k22_bb_5_13_3(rules: str, rule: str) -> None:
    """WE K(22), EPF K(22), BB 5.13.3: a jump shot is a foul."""
    s = stroke(4, "A", [own(rules, "A")], rail=True, infringements=["jump_shot"])
    result, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert outcomes[-1].reasons == ("jump_shot",) and [f.rule for f in result.findings] == [rule]


def test_wpa_jump_shot_is_not_an_eight_ball_foul() -> None:
    """WPA 3.9 lists no jump-shot foul: a legal jump raises nothing."""
    s = stroke(4, "A", ["9"], rail=True, infringements=["jump_shot"], nominated="9")
    result, outcomes = replay(*groups_decided(WPA), s, rules=WPA)
    assert not outcomes[-1].foul and kinds(result) == []


@pytest.mark.parametrize(
    ("rules", "rule"), [(WPA, "WPA 6.8"), (BB, "WPA 6.8"), (WORLD, "WE K(15)"), ("eightball/wepf", "EPF K(15)")]
)
def test_push_shot_wpa_6_8_we_k15(rules: str, rule: str) -> None:
    """WPA 6.8 (eight ball and black ball): a push shot is a foul; WE N, K(15): only the push
    the referee judges a foul (recorded as ``push_stroke``)."""
    s = stroke(4, "A", [own(rules, "A")], rail=True, infringements=["push_stroke"])
    result, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert outcomes[-1].reasons == ("push_stroke",) and [f.rule for f in result.findings] == [rule]


@pytest.mark.parametrize(
    ("rules", "code"),
    [(WORLD, "touching_ball_moved"), ("eightball/wepf", "touching_ball_moved"), (BB, "touching_ball_moved")],
)
def test_touching_ball_we_r1a_k19_bb_5_9(rules: str, code: str) -> None:
    """WE R(1)(a), K(19), EPF R, K(19): failing to play away from a touching ball; BB 5.9:
    playing toward it."""
    s = stroke(4, "A", [own(rules, "A")], rail=True, infringements=[code])
    _, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert outcomes[-1].reasons == (code,)


def test_wpa_6_7_frozen_ball_may_be_shot_into() -> None:
    """WPA 6.7: a frozen legal ball may be shot into; WPA eight ball has no play-away rule."""
    s = stroke(4, "A", ["9"], rail=True, infringements=["touching_ball_moved"], nominated="9")
    _, outcomes = replay(*groups_decided(WPA), s, rules=WPA)
    assert not outcomes[-1].foul


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_k1_in_off_two_visits_from_baulk(rules: str) -> None:
    """WE K(1), S(3)(a): in-off: two visits, the incoming player plays from Baulk."""
    s = stroke(4, "A", ["yellow"], ["white"], call=foul(2, in_hand=True))
    result, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert outcomes[-1].visits == 2 and outcomes[-1].in_hand == "baulk" and kinds(result) == []


def test_wpa_3_9_foul_ball_in_hand_anywhere() -> None:
    """WPA 3.9, 1.5: after a standard foul the cue ball is in hand anywhere."""
    s = stroke(4, "A", ["9"], ["white"], nominated="9", call=foul(in_hand=True))
    result, outcomes = replay(*groups_decided(WPA), s, rules=WPA)
    assert outcomes[-1].in_hand == "anywhere" and outcomes[-1].visits == 1 and kinds(result) == []


def test_wpa_3_9_foul_without_ball_in_hand_is_a_visits_error() -> None:
    """WPA 3.9: the foul called but the cue ball left in position: the wrong penalty."""
    s = stroke(4, "A", ["1"], rail=True, nominated="9", call=foul(in_hand=False))
    result, _ = replay(*groups_decided(WPA), s, rules=WPA)
    assert kinds(result) == [(4, VISITS_ERROR)]


def test_bb_5_13_foul_free_shot_in_position_or_in_baulk() -> None:
    """BB 5.13, 5.1: the incoming player has a free shot, in position or in hand in baulk:
    either call of ball in hand stands."""
    for in_hand in (True, False):
        s = stroke(4, "A", ["red"], rail=True, call=foul(in_hand=in_hand))
        result, outcomes = replay(*groups_decided(BB), s, rules=BB)
        assert outcomes[-1].foul and outcomes[-1].in_hand is None and kinds(result) == []


def test_bb_5_13_scratch_free_shot_from_baulk() -> None:
    """BB 5.13, 5.8: after a scratch the free shot is from hand in baulk."""
    s = stroke(4, "A", ["yellow"], ["white"], call=foul(in_hand=False))
    result, outcomes = replay(*groups_decided(BB), s, rules=BB)
    assert outcomes[-1].in_hand == "baulk" and kinds(result) == [(4, VISITS_ERROR)]


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_k_one_visit_instead_of_two(rules: str) -> None:
    """WE K, X(5)(a)(i) "Foul, Two Visits": one visit awarded is the wrong penalty."""
    s = stroke(4, "A", ["red"], rail=True, call=foul(1))
    result, _ = replay(*groups_decided(rules), s, rules=rules)
    assert kinds(result) == [(4, VISITS_ERROR)]


@pytest.mark.parametrize("rules", ALL)
def test_wpa_6_condoned_foul_play_goes_on(rules: str) -> None:
    """WPA 6: a foul not called before the next shot is assumed not to have happened: reported
    as condoned, and the striker (who potted an own ball) plays on."""
    mine = own(rules, "A")
    s = stroke(4, "A", [own(rules, "B")], [mine], nominated=mine if rules == WPA else None)
    result, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert kinds(result) == [(4, CONDONED_FOUL)] and outcomes[-1].next_striker == "A"


@pytest.mark.parametrize("rules", ALL)
def test_unsupported_foul(rules: str) -> None:
    """A foul called on a legal shot is not supported by the facts; the turn passes as called."""
    mine = own(rules, "A")
    s = stroke(4, "A", [mine], rail=True, call=foul(), nominated=mine if rules == WPA else None)
    result, _ = replay(*groups_decided(rules), s, rules=rules)
    assert kinds(result) == [(4, UNSUPPORTED_FOUL)]


@pytest.mark.parametrize("rules", ALL)
def test_wpa_6_14_three_fouls_not_applied_in_eight_ball(rules: str) -> None:
    """WPA 6.14 ("Some games such as eight ball do not include this rule"), WE/EPF: none, BB:
    not listed: three fouls in a row by one side do not lose the frame."""
    recs = list(groups_decided(rules))
    n = 4
    for _ in range(3):
        recs.append(stroke(n, "A", [], call=foul(**_penalty(rules))))  # type: ignore[arg-type]
        recs.append(
            stroke(n + 1, "B", [own(rules, "B")], rail=True, nominated=own(rules, "B") if rules == WPA else None)
        )
        if rules in GROUP_EDITIONS:
            recs.append(stroke(n + 2, "B", [own(rules, "B")], rail=True))
            n += 1
        n += 2
    result, outcomes = replay(*recs, rules=rules)
    assert not any(o.frame_over for o in outcomes) and result.winner is None


def test_ruling_simultaneous_first_contact_needs_every_ball_on() -> None:
    """WE G(1)(a), WPA 6.2 (docs/rulings.md P10): two balls hit at once: legal only when both are on."""
    _, outcomes = replay(*groups_decided(WORLD), stroke(4, "A", ["yellow", "red"], rail=True))
    assert outcomes[-1].reasons == ("wrong_ball_first",)
    _, outcomes = replay(*groups_decided(WORLD), stroke(4, "A", ["yellow", "yellow"], rail=True))
    assert not outcomes[-1].foul


def test_wpa_3_9_6_11_second_paragraph_is_an_eight_ball_foul() -> None:
    """WPA 3.9 lists 6.11: the cue ball from the kitchen neither crossing the head string nor
    hitting a ball in front of it is a standard foul, the cue ball in hand anywhere ("according
    to the rules of the specific game")."""
    s = stroke(4, "A", ["9"], rail=True, nominated="9", infringements=["head_string_not_crossed"])
    result, outcomes = replay(*groups_decided(WPA), s, rules=WPA)
    assert outcomes[-1].reasons == ("head_string_not_crossed",) and outcomes[-1].in_hand == "anywhere"
    assert kinds(result) == [(4, CONDONED_FOUL)] and result.findings[0].rule == "WPA 6.11"
