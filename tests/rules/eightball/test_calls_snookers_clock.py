"""Call shot (WPA 3.6, 1.6), snookers (WE G(3)(b), P; BB 5.10; WPA: no relief) and the
shot clock (WE I; WPA 6.15)."""

from __future__ import annotations

import pytest

from cuelog.replay.model import CONDONED_FOUL, TIME_FOUL_ERROR, TIME_FOUL_UNCALLED

from ._build import BB, GROUP_EDITIONS, WORLD, WPA, clock, end, event, foul, groups_decided, kinds, replay, stroke

# -- call shot ---------------------------------------------------------------------------


def test_wpa_3_6_called_ball_in_called_pocket_continues() -> None:
    """WPA 3.6, 1.6: the 9 called in TL and pocketed there: the shooter continues."""
    s = stroke(4, "A", ["9"], ["9"], nominated="9", pocket_called="TL", pockets=["TL"])
    _, outcomes = replay(*groups_decided(WPA), s, rules=WPA)
    assert outcomes[-1].next_striker == "A"


def test_wpa_3_6_called_ball_in_another_pocket_ends_the_inning() -> None:
    """WPA 1.6: the 9 called in TL went into BR: not a legal pocketing, no foul, play passes."""
    s = stroke(4, "A", ["9"], ["9"], nominated="9", pocket_called="TL", pockets=["BR"])
    result, outcomes = replay(*groups_decided(WPA), s, rules=WPA)
    assert not outcomes[-1].foul and outcomes[-1].next_striker == "B" and kinds(result) == []


def test_wpa_3_6_safety_play_passes_pocketed_ball_stays() -> None:
    """WPA 3.6: a called safety: play passes and a ball pocketed on it stays pocketed."""
    from ._build import fold

    s = stroke(4, "A", ["9"], ["9"], nominated="safety")
    st = fold(*groups_decided(WPA), s, rules=WPA)
    assert st.striker == "B" and st.table["9"] == 0


def test_wpa_3_6_extra_ball_pocketed_with_called_ball_continues() -> None:
    """WPA 3.5: the called ball pocketed with another of the group: the shooter continues."""
    s = stroke(4, "A", ["9"], ["9", "10"], nominated="9", pocket_called="TL", pockets=["TL", "BL"])
    _, outcomes = replay(*groups_decided(WPA), s, rules=WPA)
    assert outcomes[-1].next_striker == "A"


@pytest.mark.parametrize("rules", [*GROUP_EDITIONS, BB])
def test_we_d1_bb_5_no_calls_any_pocket(rules: str) -> None:
    """WE D(1), BB 5: no calls; a ball of the group in any pocket continues the visit."""
    s = stroke(4, "A", ["yellow"], ["yellow"], pockets=["MR"])
    _, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert outcomes[-1].next_striker == "A"


# -- snookers ----------------------------------------------------------------------------


def test_we_g3b_total_snooker_needs_only_first_contact() -> None:
    """WE G(3)(b)(iii): the referee rules a Total Snooker: hitting a ball on is enough."""
    s = stroke(4, "A", ["yellow"], rail=False)
    result, outcomes = replay(*groups_decided(WORLD), event(3, "referee_call", call="total_snooker"), s)
    assert not outcomes[-1].foul and kinds(result) == []


def test_bb_5_10_declared_snooker_suspends_6_3() -> None:
    """BB 5.10: a snooker declared by the referee suspends 6.3 for the shot."""
    s = stroke(4, "A", ["yellow"], rail=False)
    result, outcomes = replay(*groups_decided(BB), event(3, "referee_call", call="snookered"), s, rules=BB)
    assert not outcomes[-1].foul and kinds(result) == []


def test_wpa_no_snooker_relief() -> None:
    """WPA eight ball has no snooker relief: 6.3 applies whatever is declared."""
    s = stroke(4, "A", ["9"], rail=False, nominated="9")
    _, outcomes = replay(*groups_decided(WPA), event(3, "referee_call", call="snookered"), s, rules=WPA)
    assert outcomes[-1].reasons == ("no_rail",)


def test_we_g3b_relief_lasts_one_shot() -> None:
    """WE G(3)(b): the ruling is for the shot out of the snooker only."""
    recs = [
        *groups_decided(WORLD),
        event(3, "referee_call", call="total_snooker"),
        stroke(4, "A", ["yellow"], ["yellow"]),
        stroke(5, "A", ["yellow"], rail=False),
    ]
    _, outcomes = replay(*recs)
    assert outcomes[-1].reasons == ("no_rail",)


def _foul_snookered(rules: str = WORLD) -> list:  # type: ignore[type-arg]
    return [
        *groups_decided(rules),
        stroke(4, "A", ["red"], rail=True, call=foul(2)),
        event(4, "referee_call", call="foul_snooker"),
    ]


def test_we_p4a_nominated_opponent_ball_counts_as_own() -> None:
    """WE P(4)(a)(ii), K(3): after a Foul Snooker B nominates A's yellow: hitting and potting it
    is neither a wrong ball nor an opponent's ball; B continues his first visit."""
    s = stroke(5, "B", ["yellow"], ["yellow"], nominated="yellow")
    result, outcomes = replay(*_foul_snookered(), s)
    assert not outcomes[-1].foul and outcomes[-1].next_striker == "B" and kinds(result) == []


def test_we_k17_opponent_ball_without_nomination() -> None:
    """WE K(17), K(3): foul snookered but no ball nominated: hitting A's yellow is a foul."""
    s = stroke(5, "B", ["yellow"], rail=True)
    result, _ = replay(*_foul_snookered(), s)
    assert kinds(result) == [(5, CONDONED_FOUL)]


def test_we_p5_nominated_black_potted_loses() -> None:
    """WE P(5): the black nominated after a Foul Snooker may be played, but potting it loses."""
    s = stroke(5, "B", ["black"], ["black"], nominated="black")
    result, outcomes = replay(*_foul_snookered(), s, end("A", "loss_of_frame"))
    assert outcomes[-1].loss_of_frame and result.winner == "A" and kinds(result) == []


def test_we_p_foul_snooker_only_for_the_first_shot() -> None:
    """WE P(4)(a)(ii): the nomination holds for the first shot of the first visit only."""
    recs = [
        *_foul_snookered(),
        stroke(5, "B", ["yellow"], ["yellow"], nominated="yellow"),
        stroke(6, "B", ["yellow"], ["yellow"], nominated="yellow"),
    ]
    _, outcomes = replay(*recs)
    assert outcomes[-1].reasons == ("wrong_ball_first", "opponent_ball")


# -- shot clock --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_i4_shot_over_sixty_seconds_not_called(rules: str) -> None:
    """WE I(1),(4): more than sixty seconds on the clock and no time foul recorded."""
    recs = [*groups_decided(rules), clock(4, 61.5), stroke(4, "A", ["yellow"], rail=True)]
    result, _ = replay(*recs, rules=rules)
    assert kinds(result) == [(4, TIME_FOUL_UNCALLED)]


def test_we_i4_time_foul_called_within_time() -> None:
    """WE I(4): a time foul recorded but the clock shows 40 s."""
    recs = [*groups_decided(WORLD), event(3, "time_foul", "A"), clock(4, 40.0), stroke(4, "B", ["red"], rail=True)]
    result, _ = replay(*recs)
    assert kinds(result) == [(4, TIME_FOUL_ERROR)]


def test_we_i4_time_foul_two_visits() -> None:
    """WE I(4): a time foul: the incoming player has two visits."""
    from ._build import fold

    recs = [*groups_decided(WORLD), event(3, "time_foul", "A"), clock(4, 62.0), stroke(4, "B", ["red"], rail=True)]
    result, _ = replay(*recs)
    st = fold(*recs)
    assert kinds(result) == [] and st.striker == "B" and st.visits_left == 1


@pytest.mark.parametrize("rules", [WPA, BB])
def test_wpa_6_15_shot_clock_only_where_imposed(rules: str) -> None:
    """WPA 6.15: a shot clock may be imposed; its reading's limit decides, none means no clock."""
    recs = [
        *groups_decided(rules),
        clock(4, 61.5),
        stroke(4, "A", ["9" if rules == WPA else "yellow"], rail=True, nominated="9" if rules == WPA else None),
    ]
    result, _ = replay(*recs, rules=rules)
    assert kinds(result) == []
    recs[3] = clock(4, 41.0, limit=40.0)
    result, _ = replay(*recs, rules=rules)
    assert kinds(result) == [(4, TIME_FOUL_UNCALLED)]


def _blocked(rules: str, *, blocker_at: float) -> list:  # type: ignore[type-arg]
    """Groups decided, then B misses leaving the cue ball at (635, 500), a red at
    (635, ``blocker_at``) and A's yellow far up the table at (635, 2000)."""
    rest = [("white", 635.0, 500.0), ("red", 635.0, blocker_at), ("yellow", 635.0, 2000.0)]
    recs = groups_decided(rules)
    recs[-1] = stroke(3, "B", ["red"], rail=True, positions=rest)
    return recs


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_g3b_total_snooker_read_from_positions(rules: str) -> None:
    """WE G(3)(b)(i), EPF G: a red touching-close in front of the cue ball hides every part of
    A's yellow: a Total Snooker; hitting the yellow without a cushion after is legal."""
    recs = [*_blocked(rules, blocker_at=558.0), stroke(4, "A", ["yellow"], rail=False)]
    result, outcomes = replay(*recs, rules=rules)
    assert not outcomes[-1].foul and kinds(result) == []


def test_we_g3b_an_open_line_is_no_total_snooker() -> None:
    """WE G(3)(b)(i): the red off the line: the yellow can be hit directly, the cushion rule holds."""
    recs = [*_blocked(WORLD, blocker_at=1500.0)]
    recs[-1] = stroke(
        3,
        "B",
        ["red"],
        rail=True,
        positions=[("white", 635.0, 500.0), ("red", 300.0, 1500.0), ("yellow", 635.0, 2000.0)],
    )
    _, outcomes = replay(*recs, stroke(4, "A", ["yellow"], rail=False))
    assert outcomes[-1].reasons == ("no_rail",)


def test_wpa_positions_give_no_snooker_relief() -> None:
    """WPA eight ball has no snooker relief, positions or not."""
    rest = [("white", 635.0, 500.0), ("2", 635.0, 558.0), ("9", 635.0, 2000.0)]
    recs = groups_decided(WPA)
    recs[-1] = stroke(3, "B", ["2"], rail=True, positions=rest, nominated="2")
    _, outcomes = replay(*recs, stroke(4, "A", ["9"], rail=False, nominated="9"), rules=WPA)
    assert outcomes[-1].reasons == ("no_rail",)


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_p1_foul_snooker_read_from_positions(rules: str) -> None:
    """WE P(1), O: A's foul leaves B's red hidden behind A's yellow (positions); B nominates
    the yellow (P(4)(a)), hits and pots it: no foul, B plays on."""
    rest = [("white", 635.0, 500.0), ("yellow", 635.0, 558.0), ("red", 635.0, 2000.0)]
    recs = [*groups_decided(rules), stroke(4, "A", ["red"], rail=True, call=foul(2), positions=rest)]
    result, outcomes = replay(*recs, stroke(5, "B", ["yellow"], ["yellow"], nominated="yellow"), rules=rules)
    assert not outcomes[-1].foul and outcomes[-1].next_striker == "B" and kinds(result) == []


def test_we_o1_not_snookered_nomination_does_not_help() -> None:
    """WE O(1), K(3): with the red open to both fine cuts there is no Foul Snooker: hitting the
    nominated yellow is a foul."""
    rest = [("white", 635.0, 500.0), ("yellow", 300.0, 1200.0), ("red", 635.0, 2000.0)]
    recs = [*groups_decided(WORLD), stroke(4, "A", ["red"], rail=True, call=foul(2), positions=rest)]
    _, outcomes = replay(*recs, stroke(5, "B", ["yellow"], ["yellow"], nominated="yellow"))
    assert outcomes[-1].reasons == ("wrong_ball_first", "opponent_ball")
