"""The optional Three Point Break Rule (WPA 2.3(c)) and the edition's parameters (WPA 2.3,
2.4, 6.14) switched by a derived ruleset, as a ruleset file does."""

from __future__ import annotations

from typing import Any

from cuelog.replay.model import PUSH_OUT_ERROR, UNSUPPORTED_FOUL
from cuelog.schemas.records import Stroke

from ._build import derived, end, fold, foul, kinds, replay, stroke

THREE_POINT = derived("nineball/wpa", three_point_break=True)


def _break(*, behind: int, **kw: Any) -> Stroke:
    """A break pocketing nothing, five balls to a rail, ``behind`` object balls at rest
    behind the head string (y < 635 mm on the nine-foot table)."""
    rest = [("white", 640.0, 1500.0)]
    rest += [(str(b), 200.0 + 100 * b, 400.0 if b <= behind else 1400.0) for b in range(1, 10)]
    return stroke(1, "A", ["1"], cushions=5, positions=rest, **kw)


def test_wpa_2_3c_three_point_break_two_balls_across_is_a_dry_break() -> None:
    """WPA 2.3(c): under the Three Point Break Rule, nothing pocketed and two balls across
    the head string: a dry break, no foul; the turn passes and the push out stays open (2.4)."""
    result, (o,) = replay(_break(behind=2), rules=THREE_POINT)
    st = fold(_break(behind=2), rules=THREE_POINT)
    assert dict(o.detail) == {"dry_break": True} and not o.foul and o.next_striker == "B"
    assert st.push_allowed and kinds(result) == []


def test_wpa_2_3c_three_balls_across_is_no_dry_break() -> None:
    """WPA 2.3(c): three balls across the head string meet the rule."""
    _, (o,) = replay(_break(behind=3), rules=THREE_POINT)
    assert o.detail == () and not o.foul


def test_wpa_2_3c_the_rule_applies_only_when_used() -> None:
    """WPA 2.3(c) "only when Three Point Break Rule is used": nineball/wpa does not use it."""
    _, (o,) = replay(_break(behind=0))
    assert o.detail == ()


def test_wpa_2_3c_a_dry_break_called_a_foul_is_unsupported() -> None:
    """WPA 2.3(c) against 2.3(b): the dry break is not a foul (only (b) says "or the shot is a
    foul"); a foul called for it is an unsupported_foul."""
    result, (o,) = replay(_break(behind=1, call=foul()), rules=THREE_POINT)
    assert dict(o.detail) == {"dry_break": True} and kinds(result) == [(1, UNSUPPORTED_FOUL)]


def test_wpa_2_3b_break_rails_parameter() -> None:
    """WPA 2.3(b): four balls to a rail; a ruleset asking for five makes four a foul."""
    five = derived("nineball/wpa", break_rails=5)
    _, (o,) = replay(stroke(1, "A", ["1"], cushions=4, call=foul()), rules=five)
    assert o.reasons == ("unfair_break",)
    _, (o,) = replay(stroke(1, "A", ["1"], cushions=4))
    assert not o.foul


def test_wpa_2_4_push_out_parameter_off() -> None:
    """WPA 2.4: a ruleset without the push out reports one declared after the break."""
    rules = derived("nineball/wpa", push_out=False)
    result, outcomes = replay(
        stroke(1, "A", ["1"], cushions=5), stroke(2, "B", ["1"], rail=True, push_out=True), rules=rules
    )
    assert kinds(result) == [(2, PUSH_OUT_ERROR)] and outcomes[-1].next_striker == "A"


def test_wpa_6_14_warning_not_required() -> None:
    """WPA 6.14: a ruleset that drops the warning loses the rack on the third foul without it."""
    rules = derived("nineball/wpa", warning_required=False)
    recs = [stroke(1, "A", ["1"], cushions=5), stroke(2, "B", [], call=foul())]
    recs += [stroke(3, "A", ["1"], rail=True), stroke(4, "B", [], call=foul())]
    recs += [stroke(5, "A", ["1"], rail=True), stroke(6, "B", [], call=foul(loss=True))]
    result, outcomes = replay(*recs, end("A", "loss_of_frame"), rules=rules)
    assert outcomes[-1].loss_of_frame and result.winner == "A" and kinds(result) == []
