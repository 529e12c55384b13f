"""The turn at the table: visits (WE C(5),(6), X(5)(b)), continuing play (WPA 3.5, BB 5.7),
the free shot (BB 5.1, 5.13) and playing out of turn (WE K(4), WPA 6.13)."""

from __future__ import annotations

import pytest

from cuelog.replay.model import WRONG_STRIKER

from ._build import BB, GROUP_EDITIONS, WPA, choice, fold, foul, groups_decided, kinds, own, replay, stroke


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_c6_x5b_second_visit_after_a_miss(rules: str) -> None:
    """WE C(6), X(5)(b): after a standard foul the incoming player misses on the first visit
    and plays again ("Second Visit"); after the second miss the turn passes."""
    recs = [
        *groups_decided(rules),
        stroke(4, "A", ["red"], rail=True, call=foul(2)),
        stroke(5, "B", ["red"], rail=True),
        stroke(6, "B", ["red"], rail=True),
        stroke(7, "A", ["yellow"], rail=True),
    ]
    result, outcomes = replay(*recs, rules=rules)
    assert [o.next_striker for o in outcomes[3:]] == ["B", "B", "A", "B"] and kinds(result) == []
    assert result.visits == (3, 3)


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_c5_pots_continue_the_first_visit(rules: str) -> None:
    """WE C(5): a visit lasts until the player fails to pot a ball on: pots keep the first visit,
    the second still follows the first miss."""
    recs = [
        *groups_decided(rules),
        stroke(4, "A", ["red"], rail=True, call=foul(2)),
        stroke(5, "B", ["red"], ["red"]),
        stroke(6, "B", ["red"], rail=True),
        stroke(7, "B", ["red"], rail=True),
    ]
    st = fold(*recs, rules=rules)
    assert st.striker == "A" and st.visits_left == 1


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_k4_second_visit_taken_by_the_wrong_player(rules: str) -> None:
    """WE K(4), C(6): the fouled player's second visit played by the offender: out of turn."""
    recs = [
        *groups_decided(rules),
        stroke(4, "A", ["red"], rail=True, call=foul(2)),
        stroke(5, "B", ["red"], rail=True),
        stroke(6, "A", ["yellow"], rail=True),
    ]
    result, _ = replay(*recs, rules=rules)
    assert kinds(result) == [(6, WRONG_STRIKER)]


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_c6_foul_on_the_first_visit_loses_the_second(rules: str) -> None:
    """WE C(6), K: a foul on the first of two visits ends the turn: two visits to the opponent."""
    recs = [
        *groups_decided(rules),
        stroke(4, "A", ["red"], rail=True, call=foul(2)),
        stroke(5, "B", ["yellow"], rail=True, call=foul(2)),
    ]
    st = fold(*recs, rules=rules)
    assert st.striker == "A" and st.visits_left == 2


def test_wpa_3_5_continue_on_legal_pots_then_pass() -> None:
    """WPA 3.5: the shooter stays at the table while he legally pockets called balls."""
    recs = [
        *groups_decided(WPA),
        stroke(4, "A", ["9"], ["9"], nominated="9"),
        stroke(5, "A", ["10"], ["10"], nominated="10"),
        stroke(6, "A", ["11"], rail=True, nominated="11"),
    ]
    _, outcomes = replay(*recs, rules=WPA)
    assert [o.next_striker for o in outcomes[3:]] == ["A", "A", "B"]


def test_wpa_3_9_one_visit_after_a_foul() -> None:
    """WPA 3.9: the penalty is ball in hand, not extra visits: a miss passes the turn."""
    recs = [
        *groups_decided(WPA),
        stroke(4, "A", ["1"], rail=True, nominated="9", call=foul(in_hand=True)),
        stroke(5, "B", ["2"], rail=True, nominated="2"),
    ]
    st = fold(*recs, rules=WPA)
    assert st.striker == "A"


def test_bb_5_1_free_shot_suspends_wrong_ball_first() -> None:
    """BB 5.1, 5.13: on the free shot 6.2 is suspended: B may hit A's ball first; potting
    his own ball, he continues (5.7)."""
    recs = [
        *groups_decided(BB),
        stroke(4, "A", ["red"], rail=True, call=foul()),
        stroke(5, "B", ["yellow"], ["red"]),
        stroke(6, "B", ["red"], rail=True),
    ]
    result, outcomes = replay(*recs, rules=BB)
    assert not outcomes[4].foul and outcomes[4].ball_on == "any" and outcomes[4].next_striker == "B"
    assert not outcomes[5].foul and outcomes[5].next_striker == "A" and kinds(result) == []


def test_bb_5_13_only_one_free_shot() -> None:
    """BB 5.13: one free shot "as the first shot of his inning": the second shot is a normal shot."""
    recs = [
        *groups_decided(BB),
        stroke(4, "A", ["red"], rail=True, call=foul()),
        stroke(5, "B", ["red"], ["red"]),
        stroke(6, "B", ["yellow"], rail=True),
    ]
    _, outcomes = replay(*recs, rules=BB)
    assert outcomes[5].reasons == ("wrong_ball_first",)


@pytest.mark.parametrize("rules", [*GROUP_EDITIONS, BB])
def test_we_p3_bb_5_1_play_from_baulk_choice(rules: str) -> None:
    """WE P(3)(b), BB 5.1: after a foul the incoming player may choose to play from baulk."""
    recs = [*groups_decided(rules), stroke(4, "A", ["red"], rail=True, call=foul(2 if rules != BB else None))]
    result, _ = replay(*recs, choice(4, "B", "baulk"), rules=rules)
    assert kinds(result) == []
    result, _ = replay(*recs, choice(4, "A", "baulk"), rules=rules)
    assert kinds(result) == [(4, "invalid_record")]


@pytest.mark.parametrize("rules", [*GROUP_EDITIONS, WPA, BB])
def test_we_k4_wpa_6_13_out_of_turn(rules: str) -> None:
    """WE K(4), WPA 6.13: the side not entitled to play strikes: reported once."""
    mine = own(rules, "B")
    recs = [*groups_decided(rules), stroke(4, "B", [mine], rail=True, nominated=mine if rules == WPA else None)]
    result, _ = replay(*recs, rules=rules)
    assert kinds(result) == [(4, WRONG_STRIKER)]


def test_we_c5_scored_counts_the_balls_on_potted() -> None:
    """WE C(5), D(1): pool has no points; ``scored`` counts the balls on the striker legally
    potted (the statistics' balls per visit): an own ball yes, the opponent's no, none on a foul."""
    recs = [
        *groups_decided(WPA),
        stroke(4, "A", ["9"], ["9", "2"], nominated="9"),
        stroke(5, "A", ["10"], ["10", "white"], nominated="10", call=foul(in_hand=True)),
    ]
    _, outcomes = replay(*recs, rules=WPA)
    assert [o.scored for o in outcomes] == [0, 1, 0, 1, 0]
