"""WPA 6.11 at 14.1 (4.9: "For a foul under the second paragraph of 6.11, the cue ball is in
hand behind the head string for the incoming player") and the edition's numbers (WPA 4,
4.3(b), 4.9-4.11, 6.14) changed by a derived ruleset, as a ruleset file does."""

from __future__ import annotations

from cuelog.replay.model import CONDONED_FOUL, UNSUPPORTED_FOUL, VISITS_ERROR
from cuelog.schemas.records import Call

from ._build import derived, event, fold, foul, kinds, opening, replay, stroke


def _after_scratch(*infringements: str, call: Call | None) -> list:  # type: ignore[type-arg]
    """B scratches (6.1: A in hand behind the head string), then A plays from the kitchen."""
    return [
        opening(),
        stroke(2, "B", ["3"], ["white"], call=foul(1)),
        stroke(3, "A", [], placement="legal", infringements=list(infringements), call=call),
    ]


def test_wpa_6_11_second_paragraph_foul_in_hand_behind_head_string() -> None:
    """WPA 6.11 second paragraph, 4.9: the cue ball neither crossed the head string nor hit a
    ball in front of it: a standard foul (one point), and B has the cue ball in hand behind
    the head string."""
    recs = _after_scratch("head_string_not_crossed", call=foul(1))
    result, outcomes = replay(*recs)
    assert outcomes[-1].reasons[-1] == "head_string_not_crossed" and outcomes[-1].penalty == 1
    assert outcomes[-1].in_hand == "head" and outcomes[-1].next_striker == "B"
    assert fold(*recs).in_hand and result.score == (-1, -1) and kinds(result) == []


def test_wpa_6_11_second_paragraph_cue_ball_left_in_position_is_an_error() -> None:
    """WPA 4.9: the foul called with the cue ball in position: visits_error (wrong penalty)."""
    recs = _after_scratch("head_string_not_crossed", call=Call(foul=True, points=1, ball_in_hand=False))
    result, _ = replay(*recs)
    assert kinds(result) == [(3, VISITS_ERROR)] and result.findings[0].rule == "WPA 4.9"


def test_wpa_6_11_first_paragraph_foul_cue_ball_in_position() -> None:
    """WPA 6.11 first paragraph, 4.9: the first ball hit behind the head string before the cue
    ball crossed it: a standard foul, and the cue ball stays where it lies."""
    recs = [opening(), stroke(2, "B", ["3"], ["white"], call=foul(1))]
    recs.append(stroke(3, "A", ["2"], rail=True, placement="legal", infringements=["behind_head_string_first"]))
    result, outcomes = replay(*recs)
    assert outcomes[-1].reasons == ("behind_head_string_first",) and outcomes[-1].in_hand is None
    assert kinds(result) == [(3, CONDONED_FOUL)] and result.findings[0].rule == "WPA 6.11"


def test_wpa_2_7_nine_ball_has_no_6_11() -> None:
    """WPA 2.7 lists the nine-ball fouls without 6.11: the same fact is no foul there."""
    from tests.rules.nineball._build import legal_break
    from tests.rules.nineball._build import replay as replay_nine
    from tests.rules.nineball._build import stroke as nine_stroke

    s = nine_stroke(2, "B", ["1"], rail=True, infringements=["head_string_not_crossed"], call=Call(foul=True))
    result, outcomes = replay_nine(legal_break(), s)
    assert not outcomes[-1].foul and kinds(result) == [(2, UNSUPPORTED_FOUL)]


def test_wpa_4_9_standard_foul_points_parameter() -> None:
    """WPA 4.9: one point; a ruleset taking two makes a call of one a penalty_value."""
    rules = derived("straight-pool/wpa", standard_foul=2)
    result, outcomes = replay(opening(), stroke(2, "B", ["3"], rail=False, call=foul(2)), rules=rules)
    assert outcomes[-1].penalty == 2 and result.score == (0, -2) and kinds(result) == []


def test_wpa_4_11_serious_penalty_and_warning_parameters() -> None:
    """WPA 4.11, 6.14: a ruleset with a ten-point serious foul and no warning required."""
    rules = derived("straight-pool/wpa", serious_penalty=10, warning_required=False)
    recs = [opening(), stroke(2, "B", ["3"], rail=True)]
    recs += [stroke(3, "A", ["3"], rail=False, call=foul(1)), stroke(4, "B", ["3"], rail=True)]
    recs += [stroke(5, "A", ["3"], rail=False, call=foul(1)), stroke(6, "B", ["3"], rail=True)]
    recs.append(stroke(7, "A", ["3"], rail=False, call=foul(11)))
    result, outcomes = replay(*recs, rules=rules)
    st = fold(*recs, rules=rules)
    assert outcomes[-1].penalty == 11 and result.score == (-13, 0) and st.opening and st.striker == "A"
    assert kinds(result) == []
    assert fold(*recs[:6], event(6, "warning", "A", reason="three_fouls")).warned == frozenset({"A"})


def test_wpa_4_target_parameter_for_a_match_without_target() -> None:
    """WPA 4: "the first player to reach the required score wins": a ruleset's target when
    the match record gives none; the match's own target wins over it."""
    rules = derived("straight-pool/wpa", target=2)
    recs = [stroke(1, "A", ["1"], ["1", "2"], nominated="1")]
    _, outcomes = replay(*recs, target=None, rules=rules)
    assert outcomes[-1].frame_over and outcomes[-1].winner == "A"
    _, outcomes = replay(*recs, target=5, rules=rules)
    assert not outcomes[-1].frame_over
    _, outcomes = replay(*recs, target=None)
    assert not outcomes[-1].frame_over
