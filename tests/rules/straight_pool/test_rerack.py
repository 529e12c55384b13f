"""The re-rack after the fourteenth ball when the cue ball or the fifteenth ball is in the
way (WPA 4.8). Positions on the nine-foot table (1270 x 2540 mm): the rack outline around
the foot spot (635, 1905), the head string at 635 mm, the head spot (635, 635)."""

from __future__ import annotations

from typing import Any

from cuelog.replay.model import RESPOT_IN_ERROR, RESPOT_MISSING, RESPOT_WRONG_SPOT
from cuelog.schemas.records import Stroke

from ._build import fold, kinds, replay, stroke

IN_RACK = (600.0, 1980.0)
IN_RACK_TOO = (670.0, 2060.0)
IN_FRONT = (300.0, 1200.0)
"""In front of the head string, clear of the rack."""
BEHIND = (300.0, 400.0)
"""Behind the head string."""
ON_HEAD_SPOT = (650.0, 620.0)


def _rack(cue: tuple[float, float] | None, fifteenth: tuple[float, float] | None, **kw: Any) -> list[Stroke]:
    """A pockets the 1 to the 14 on called shots; the 15 is left; the fourteenth stroke's
    rest positions put the cue ball and the 15 where given (``None``: not recorded)."""
    recs = [stroke(i, "A", [str(i)], [str(i)], nominated=str(i)) for i in range(1, 14)]
    rest = [] if cue is None else [("white", *cue)]
    rest += [] if fifteenth is None else [("15", *fifteenth)]
    positions = rest or None
    recs.append(stroke(14, "A", ["14"], ["14"], nominated="14", positions=positions, **kw))
    return recs


def test_wpa_4_8b_both_interfere_all_fifteen_reracked_cue_ball_in_hand() -> None:
    """WPA 4.8(b): both balls in the rack area: fifteen re-racked, the cue ball in hand behind
    the head string."""
    recs = _rack(IN_RACK, IN_RACK_TOO, respots=["15"], spot="rack")
    result, outcomes = replay(*recs)
    st = fold(*recs)
    assert outcomes[-1].in_hand == "head" and outcomes[-1].respots == () and outcomes[-1].next_striker == "A"
    assert st.in_hand and len(st.table) == 15 and kinds(result) == []


def test_wpa_4_8b_fifteenth_put_on_the_head_spot_is_the_wrong_spot() -> None:
    """WPA 4.8(b): the fifteenth ball belongs in the rack, not on the head spot."""
    result, _ = replay(*_rack(IN_RACK, IN_RACK_TOO, respots=["15"], spot="head"))
    assert kinds(result) == [(14, RESPOT_WRONG_SPOT)] and result.findings[0].rule == "WPA 4.8(b)"


def test_wpa_4_8c_only_the_fifteenth_interferes_head_spot() -> None:
    """WPA 4.8(c): only the object ball in the way: it goes on the head spot; the cue ball
    stays where it lies."""
    result, outcomes = replay(*_rack(IN_FRONT, IN_RACK, respots=["15"], spot="head"))
    assert outcomes[-1].respots == (("15", "head"),) and outcomes[-1].in_hand is None and kinds(result) == []
    assert not fold(*_rack(IN_FRONT, IN_RACK, respots=["15"], spot="head")).in_hand


def test_wpa_4_8c_fifteenth_not_placed_is_missing() -> None:
    """WPA 4.8(c): the referee left the fifteenth ball in the rack area: respot_missing."""
    result, _ = replay(*_rack(IN_FRONT, IN_RACK, respots=[]))
    assert kinds(result) == [(14, RESPOT_MISSING)] and result.findings[0].rule == "WPA 4.8(c)"


def test_wpa_4_8c_cue_ball_on_the_head_spot_center_spot() -> None:
    """WPA 4.8(c): "or the center spot if the cue ball blocks the head spot"."""
    result, outcomes = replay(*_rack(ON_HEAD_SPOT, IN_RACK, respots=["15"], spot="head"))
    assert outcomes[-1].respots == (("15", "center"),) and kinds(result) == [(14, RESPOT_WRONG_SPOT)]


def test_wpa_4_8d_cue_ball_interferes_object_ball_in_front_in_hand() -> None:
    """WPA 4.8(d): only the cue ball in the way, the object ball in front of the head string:
    the cue ball in hand behind the head string; spotting it instead is an error."""
    _, outcomes = replay(*_rack(IN_RACK, IN_FRONT, respots=[]))
    assert outcomes[-1].in_hand == "head" and outcomes[-1].respots == ()
    result, _ = replay(*_rack(IN_RACK, IN_FRONT, respots=["white"], spot="head"))
    assert kinds(result) == [(14, RESPOT_IN_ERROR)] and "in hand behind the head string" in result.findings[0].message


def test_wpa_4_8d_object_ball_behind_head_string_cue_ball_on_head_spot() -> None:
    """WPA 4.8(d): the object ball behind the head string: the cue ball on the head spot, or
    the center spot when the head spot is blocked."""
    result, outcomes = replay(*_rack(IN_RACK, BEHIND, respots=["white"], spot="head"))
    assert outcomes[-1].respots == (("white", "head"),) and outcomes[-1].in_hand is None and kinds(result) == []
    result, outcomes = replay(*_rack(IN_RACK, ON_HEAD_SPOT, respots=["white"], spot="head"))
    assert outcomes[-1].respots == (("white", "center"),) and kinds(result) == [(14, RESPOT_WRONG_SPOT)]


def test_wpa_4_8_no_interference_nothing_moves() -> None:
    """WPA 4.8: neither ball in the way: fourteen racked, the fifteenth stays where it lies."""
    result, outcomes = replay(*_rack(IN_FRONT, BEHIND, respots=["15"], spot="head"))
    assert outcomes[-1].respots == () and kinds(result) == [(14, RESPOT_IN_ERROR)]


def test_wpa_4_8a_cue_ball_in_the_way_of_fifteen_in_hand() -> None:
    """WPA 4.8(a), ruling C7: the fifteenth pocketed with the fourteenth and the cue ball in
    the rack area: all fifteen re-racked, the cue ball in hand behind the head string."""
    recs = [stroke(i, "A", [str(i)], [str(i)], nominated=str(i)) for i in range(1, 14)]
    last = stroke(14, "A", ["14"], ["14", "15"], nominated="14", positions=[("white", *IN_RACK)])
    _, outcomes = replay(*recs, last)
    assert outcomes[-1].in_hand == "head" and fold(*recs, last).in_hand


def test_wpa_4_8_without_positions_placements_are_not_judged() -> None:
    """WPA 4.8, ruling C7: without rest positions interference is unknown; the referee's
    placement stands unjudged."""
    result, outcomes = replay(*_rack(None, None, respots=["15"], spot="head"))
    assert outcomes[-1].respots == () and kinds(result) == []
