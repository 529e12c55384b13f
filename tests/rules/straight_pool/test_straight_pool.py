"""14.1 continuous, rule by rule (WPA 4.3-4.11, 6): points, fouls, spotting, re-racks."""

from __future__ import annotations

from cuelog.replay.model import (
    CONDONED_FOUL,
    FRAME_END_ERROR,
    PENALTY_VALUE,
    RESPOT_MISSING,
    SCORE_MISMATCH,
    UNSUPPORTED_FOUL,
)

from ._build import choice, end, event, fold, foul, kinds, opening, replay, stroke


def test_wpa_4_7_called_ball_and_extra_ball_score_two() -> None:
    """WPA 4.7: one point for the called ball, one for each other ball on the shot."""
    s = stroke(2, "B", ["3"], ["3", "7"], nominated="3", pocket_called="TL", pockets=["TL", "BR"], score=[0, 2])
    result, outcomes = replay(opening(), s)
    assert outcomes[-1].scored == 2 and outcomes[-1].next_striker == "B"
    assert result.score == (0, 2) and kinds(result) == []


def test_wpa_4_7_scoreboard_slip_is_reported_once() -> None:
    """WPA 4.7: the scoreboard gives 3 for a two-ball shot: one score_mismatch, then it follows."""
    recs = [
        opening(),
        stroke(2, "B", ["3"], ["3", "7"], nominated="3", score=[0, 3]),
        stroke(3, "B", ["4"], ["4"], nominated="4", score=[0, 4]),
    ]
    result, _ = replay(*recs)
    assert kinds(result) == [(2, SCORE_MISMATCH)] and result.score == (0, 3)


def test_wpa_4_5_4_6_uncalled_pot_is_spotted_and_scores_nothing() -> None:
    """WPA 4.5, 4.6: the 3 called, the 7 pocketed: no point, the 7 spotted, the turn passes."""
    s = stroke(2, "B", ["3"], ["7"], nominated="3", respots=["7"])
    result, outcomes = replay(opening(), s)
    assert outcomes[-1].scored == 0 and outcomes[-1].respots == (("7", "foot"),)
    assert outcomes[-1].next_striker == "A" and kinds(result) == []


def test_wpa_4_5_safety_ball_spotted() -> None:
    """WPA 4.5: a ball pocketed on a called safety is spotted; not spotting it is reported."""
    result, _ = replay(opening(), stroke(2, "B", ["3"], ["3"], nominated="safety", respots=[]))
    assert kinds(result) == [(2, RESPOT_MISSING)]


def test_wpa_4_9_standard_foul_minus_one_cue_ball_in_position() -> None:
    """WPA 4.9: a standard foul costs one point; the opponent plays from the position."""
    result, outcomes = replay(opening(), stroke(2, "B", ["3"], rail=False, call=foul(1), score=[0, -1]))
    assert outcomes[-1].penalty == 1 and outcomes[-1].in_hand is None
    assert result.score == (0, -1) and kinds(result) == []


def test_wpa_4_7_scores_may_be_negative_and_6_1_scratch_in_hand_behind_head_string() -> None:
    """WPA 4.7, 4.9 (6.1): a scratch: minus one, negative score, cue ball in hand behind the head string."""
    result, outcomes = replay(opening(), stroke(2, "B", ["3"], ["white"], call=foul(1)))
    assert outcomes[-1].in_hand == "head" and result.score == (0, -1)


def test_wpa_4_9_foul_called_for_two_is_a_penalty_value() -> None:
    """WPA 4.9: one point, not two: penalty_value; the score keeps the rules' value."""
    result, _ = replay(opening(), stroke(2, "B", ["3"], rail=False, call=foul(2), score=[0, -2]))
    assert kinds(result) == [(2, PENALTY_VALUE)] and result.score == (0, -1)


def test_wpa_6_condoned_foul_and_unsupported_foul() -> None:
    """WPA 6: a foul not called is condoned (worth 1); a foul called on a legal shot is unsupported."""
    recs = [opening(), stroke(2, "B", ["3"], rail=False), stroke(3, "A", ["3"], rail=True, call=foul(1))]
    result, _ = replay(*recs)
    assert kinds(result) == [(2, CONDONED_FOUL), (3, UNSUPPORTED_FOUL)]
    assert result.findings[0].points == 1


def test_wpa_4_3b_breaking_foul_minus_two_rebreak() -> None:
    """WPA 4.3(b), 4.10: no called ball and one ball to a rail: minus two; the non-breaker
    has the breaker break again."""
    recs = [stroke(1, "A", ["1"], cushions=1, call=foul(2)), choice(1, "B", "rerack_opponent")]
    result, outcomes = replay(*recs)
    st = fold(*recs)
    assert outcomes[0].reasons == ("breaking_foul",) and result.score == (-2, 0)
    assert st.opening and st.striker == "A" and kinds(result) == []


def test_wpa_4_10_scratch_on_the_break_is_a_breaking_foul() -> None:
    """WPA 4.10: a standard foul and a breaking foul on one shot: a breaking foul (two points)."""
    _, (o,) = replay(stroke(1, "A", ["1"], ["white"], cushions=3, call=foul(2)))
    assert o.reasons == ("breaking_foul",) and o.penalty == 2


def test_wpa_4_3b_accepting_the_table() -> None:
    """WPA 4.3(b): the non-breaker accepts the table and shoots."""
    st = fold(stroke(1, "A", ["1"], cushions=1, call=foul(2)), choice(1, "B", "accept"))
    assert not st.opening and st.striker == "B"


def _three(*, warned: bool) -> list:  # type: ignore[type-arg]
    recs: list = [opening(), stroke(2, "B", ["3"], rail=True)]  # type: ignore[type-arg]
    recs += [stroke(3, "A", ["3"], rail=False, call=foul(1)), stroke(4, "B", ["3"], rail=True)]
    recs += [stroke(5, "A", ["3"], rail=False, call=foul(1)), stroke(6, "B", ["3"], rail=True)]
    if warned:
        recs.append(event(6, "warning", "A", reason="three_fouls"))
    recs.append(stroke(7, "A", ["3"], rail=False, call=foul(16 if warned else 1)))
    return recs


def test_wpa_4_11_third_foul_minus_sixteen_rerack_offender_breaks() -> None:
    """WPA 4.11, 6.14: the third consecutive foul after the warning: one and fifteen more,
    fifteen balls re-racked, the offender breaks under the opening rules."""
    result, outcomes = replay(*_three(warned=True))
    st = fold(*_three(warned=True))
    assert outcomes[-1].penalty == 16 and result.score == (-18, 0) and outcomes[-1].in_hand == "head"
    assert st.opening and st.striker == "A" and st.fouls["A"] == 0 and kinds(result) == []


def test_wpa_6_14_third_foul_needs_warning() -> None:
    """WPA 6.14: without the warning the third foul is only the second: one point."""
    result, outcomes = replay(*_three(warned=False))
    assert outcomes[-1].penalty == 1 and result.score == (-3, 0) and kinds(result) == []


def test_wpa_4_4_fourteen_pocketed_rerack_shooter_continues() -> None:
    """WPA 4.4: after the fourteenth ball the balls are re-racked and the shooter continues."""
    recs = [stroke(1, "A", ["1"], ["1"], nominated="1")]
    recs += [stroke(i, "A", [str(i)], [str(i)], nominated=str(i)) for i in range(2, 15)]
    st = fold(*recs)
    assert len(st.table) == 15 and st.striker == "A"
    result, _ = replay(*recs)
    assert result.score == (14, 0) and [(b.side, b.points) for b in result.breaks] == [("A", 14)]


def test_wpa_4_target_reached_wins_and_wrong_winner() -> None:
    """WPA 4: the first to the required score wins; the game recorded to the other side is an error."""
    recs = [stroke(1, "A", ["1"], ["1", "2"], nominated="1"), stroke(2, "A", ["3"], ["3"], nominated="3")]
    result, outcomes = replay(*recs, end("A"), target=3)
    assert outcomes[-1].frame_over and result.winner == "A" and kinds(result) == []
    result, _ = replay(*recs, end("B"), target=3)
    assert kinds(result) == [(2, FRAME_END_ERROR)]


def test_wpa_4_8a_fifteenth_with_the_fourteenth_all_fifteen_reracked() -> None:
    """WPA 4.8(a): the fifteenth ball pocketed on the shot that scored the fourteenth: all
    fifteen re-racked, two points, the shooter continues."""
    recs = [stroke(1, "A", ["1"], ["1"], nominated="1")]
    recs += [stroke(i, "A", [str(i)], [str(i)], nominated=str(i)) for i in range(2, 14)]
    recs.append(stroke(14, "A", ["14"], ["14", "15"], nominated="14"))
    st = fold(*recs)
    result, _ = replay(*recs)
    assert len(st.table) == 15 and st.striker == "A" and result.score == (15, 0)
