"""Balls off the table and their spotting: WE S, EPF S, BB 5.11, WPA 3.7 and 1.4."""

from __future__ import annotations

import pytest

from cuelog.replay.model import RESPOT_IN_ERROR, RESPOT_MISSING, RESPOT_WRONG_SPOT

from ._build import BB, GROUP_EDITIONS, WPA, fold, foul, groups_decided, kinds, replay, stroke


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_s2e_epf_s_spotting_order_black_reds_yellows(rules: str) -> None:
    """WE S(2)(e), EPF S: the black first, then reds, then yellows."""
    s = stroke(
        4, "A", ["yellow"], off_table=["yellow", "red", "black"], respots=["black", "red", "yellow"], call=foul(2)
    )
    result, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert [b for b, _ in outcomes[-1].respots] == ["black", "red", "yellow"] and kinds(result) == []


def test_wpa_numbered_spotting_order_is_numerical() -> None:
    """WE S(2)(e)(ii),(iii) for numbered balls is numerical; BB 5.11 with numbers: the next
    shooter's group first. Here the shared order function on WPA numbers: 8, 1-7, 9-15."""
    from cuelog.replay.pool.common import spot_order

    assert spot_order(["12", "3", "8", "1"], ["8", *(str(i) for i in range(1, 16))]) == ["8", "1", "3", "12"]


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_s3b_object_ball_off_table_is_spotted(rules: str) -> None:
    """WE S(3)(b): an object ball off the table is spotted; not spotting it is reported."""
    s = stroke(4, "A", ["yellow"], off_table=["red"], respots=[], call=foul(2))
    result, outcomes = replay(*groups_decided(rules), s, rules=rules)
    assert outcomes[-1].reasons == ("ball_off_table",) and outcomes[-1].respots == (("red", "foot"),)
    assert kinds(result) == [(4, RESPOT_MISSING)]


def test_we_s_the_table_follows_the_referee() -> None:
    """WE S: a ball the referee did not spot stays off the table for the rest of the frame."""
    s = stroke(4, "A", ["yellow"], off_table=["red"], respots=[], call=foul(2))
    st = fold(*groups_decided("eightball/world-2015"), s)
    assert st.table["red"] == 5


def test_we_s_ball_spotted_on_a_wrong_spot() -> None:
    """WE S(2)(d): balls are spotted on the Spot (the foot spot), never elsewhere by name."""
    s = stroke(4, "A", ["yellow"], off_table=["red"], respots=["red"], spot="centre", call=foul(2))
    result, _ = replay(*groups_decided("eightball/world-2015"), s)
    assert kinds(result) == [(4, RESPOT_WRONG_SPOT)]


@pytest.mark.parametrize("rules", [*GROUP_EDITIONS, WPA, BB])
def test_we_s_wpa_3_7_balls_potted_are_never_spotted(rules: str) -> None:
    """WE S(3), WPA 3.7 ("No other object ball is ever spotted"), BB 5.11: a potted ball stays down."""
    ball = "9" if rules == WPA else "yellow"
    s = stroke(4, "A", [ball], [ball], respots=[ball], nominated=ball if rules == WPA else None)
    result, _ = replay(*groups_decided(rules), s, rules=rules)
    assert kinds(result) == [(4, RESPOT_IN_ERROR)]


def test_wpa_3_7_object_ball_off_table_stays_off() -> None:
    """WPA 3.7, 6.5: an object ball driven off the table after the break is a foul and stays off."""
    s = stroke(4, "A", ["9"], off_table=["10"], respots=[], nominated="9", call=foul(in_hand=True))
    result, outcomes = replay(*groups_decided(WPA), s, rules=WPA)
    assert outcomes[-1].reasons == ("ball_off_table",) and outcomes[-1].respots == () and kinds(result) == []


def test_bb_5_11_black_then_next_shooter_group() -> None:
    """BB 5.11: the black, then the next shooter's group (B, on red, after A's foul), then the rest."""
    s = stroke(
        4, "A", ["yellow"], off_table=["yellow", "red", "black"], respots=["black", "red", "yellow"], call=foul()
    )
    result, outcomes = replay(*groups_decided(BB), s, rules=BB)
    assert [b for b, _ in outcomes[-1].respots] == ["black", "red", "yellow"] and kinds(result) == []


def test_bb_5_11_open_table_red_group_first() -> None:
    """BB 5.11: on an open table the red group comes before the others."""
    s = stroke(2, "B", ["yellow"], off_table=["yellow", "red"], respots=["red", "yellow"], call=foul())
    from ._build import fair_break

    _, outcomes = replay(fair_break(), s, rules=BB)
    assert [b for b, _ in outcomes[-1].respots] == ["red", "yellow"]
