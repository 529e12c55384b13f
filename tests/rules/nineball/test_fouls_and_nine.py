"""Lowest ball first and the standard fouls (WPA 2.7, 6.x), the nine (WPA 2.5, 2.6),
three consecutive fouls (WPA 6.14, 2.8), stalemate and concession (WPA 2.9, 1.11)."""

from __future__ import annotations

from cuelog.replay.model import (
    CONDONED_FOUL,
    FRAME_END_ERROR,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    UNSUPPORTED_FOUL,
    VISITS_ERROR,
)
from cuelog.replay.pool.nineball import new_frame, replay_frame
from cuelog.schemas.records import Frame, Match

from ._build import RULES, end, event, fold, foul, kinds, legal_break, replay, stroke


def test_wpa_6_2_lowest_ball_first() -> None:
    """WPA 6.2 (nine ball): the first ball contacted must be the lowest on the table."""
    result, outcomes = replay(legal_break(), stroke(2, "B", ["2"], rail=True, call=foul()))
    assert (
        outcomes[0].ball_on == "break"
        and outcomes[-1].ball_on == "1"
        and outcomes[-1].reasons == ("wrong_ball_first",)
        and kinds(result) == []
    )


def test_wpa_6_2_lowest_ball_moves_up_as_balls_go() -> None:
    """WPA 6.2: with the 1 pocketed the 2 is the lowest."""
    recs = [stroke(1, "A", ["1"], ["1"]), stroke(2, "A", ["3"], rail=True, call=foul())]
    _, outcomes = replay(*recs)
    assert outcomes[-1].ball_on == "2" and outcomes[-1].reasons == ("wrong_ball_first",)


def test_wpa_6_3_no_rail_after_contact() -> None:
    """WPA 6.3: nothing pocketed, no ball to a rail after the contact: foul."""
    _, outcomes = replay(legal_break(), stroke(2, "B", ["1"], rail=False, call=foul()))
    assert outcomes[-1].reasons == ("no_rail",)


def test_wpa_2_7_ball_in_hand_anywhere() -> None:
    """WPA 2.7: after a standard foul the cue ball is in hand anywhere; not given: visits_error."""
    result, _ = replay(legal_break(), stroke(2, "B", ["1"], ["white"], call=foul(in_hand=False)))
    assert kinds(result) == [(2, VISITS_ERROR)]


def test_wpa_6_condoned_and_unsupported() -> None:
    """WPA 6: a foul not called is condoned; a foul called on a legal shot is unsupported."""
    result, _ = replay(legal_break(), stroke(2, "B", ["3"], rail=True), stroke(3, "A", ["1"], rail=True, call=foul()))
    assert kinds(result) == [(2, CONDONED_FOUL), (3, UNSUPPORTED_FOUL)]


def test_wpa_2_5_legal_nine_wins_on_any_shot() -> None:
    """WPA 2.5: the 9 pocketed legally (a combination off the lowest ball) wins."""
    result, outcomes = replay(legal_break(), stroke(2, "B", ["1"], ["9"]), end("B"))
    assert outcomes[-1].frame_over and result.winner == "B" and result.score == (0, 1) and kinds(result) == []


def test_wpa_2_5_nine_on_the_break_wins() -> None:
    """WPA 2.5 ("on any shot"): the 9 on a legal break wins the rack."""
    result, _ = replay(stroke(1, "A", ["1"], ["9"]), end("A"))
    assert result.winner == "A" and kinds(result) == []


def test_wpa_2_6_nine_on_a_foul_is_spotted() -> None:
    """WPA 2.6: the 9 pocketed on a foul is spotted; not spotting it is reported."""
    result, outcomes = replay(legal_break(), stroke(2, "B", ["3"], ["9"], call=foul(), respots=[]))
    assert outcomes[-1].respots == (("9", "foot"),) and not outcomes[-1].frame_over
    assert kinds(result) == [(2, RESPOT_MISSING)]


def test_wpa_2_6_no_other_ball_is_spotted() -> None:
    """WPA 2.6, 6.5: "No other object ball is ever spotted": the 4 off the table stays off."""
    result, _ = replay(legal_break(), stroke(2, "B", ["1"], off_table=["4"], call=foul(), respots=["4"]))
    assert kinds(result) == [(2, RESPOT_IN_ERROR)]


def test_wpa_6_5_nine_off_the_table_is_spotted() -> None:
    """WPA 2.6, 6.5: the 9 driven off the table is spotted."""
    result, outcomes = replay(legal_break(), stroke(2, "B", ["1"], off_table=["9"], call=foul(), respots=["9"]))
    assert outcomes[-1].respots == (("9", "foot"),) and kinds(result) == []


def _three_fouls(*, warned: bool, loss: bool | None) -> list:  # type: ignore[type-arg]
    recs: list = [legal_break()]  # type: ignore[type-arg]
    recs += [stroke(2, "B", [], call=foul()), stroke(3, "A", ["1"], rail=True)]
    recs += [stroke(4, "B", [], call=foul()), stroke(5, "A", ["1"], rail=True)]
    if warned:
        recs.append(event(5, "warning", "B", reason="three_fouls"))
    recs.append(stroke(6, "B", [], call=foul(loss=loss)))
    return recs


def test_wpa_6_14_third_foul_after_warning_loses_the_rack() -> None:
    """WPA 6.14, 2.8: three fouls in a row with the warning given on two: loss of rack."""
    result, outcomes = replay(*_three_fouls(warned=True, loss=True), end("A", "loss_of_frame"))
    assert outcomes[-1].loss_of_frame and result.winner == "A" and kinds(result) == []


def test_wpa_6_14_third_foul_needs_warning() -> None:
    """WPA 6.14: without the warning the third foul counts as the second; ending the rack is an error."""
    result, outcomes = replay(*_three_fouls(warned=False, loss=True))
    assert not outcomes[-1].loss_of_frame and kinds(result) == [(6, FRAME_END_ERROR)]


def test_wpa_6_14_third_foul_not_ending_the_rack() -> None:
    """WPA 6.14: warned, third foul, play went on: one frame_end_error on the third foul."""
    recs = [*_three_fouls(warned=True, loss=None), stroke(7, "A", ["1"], rail=True)]
    result, _ = replay(*recs)
    assert kinds(result) == [(6, FRAME_END_ERROR)]


def test_wpa_6_14_a_legal_shot_resets_the_count() -> None:
    """WPA 6.14: "without making an intervening legal shot"."""
    recs = [legal_break(), stroke(2, "B", [], call=foul()), stroke(3, "A", ["1"], rail=True)]
    recs += [stroke(4, "B", ["1"], rail=True), stroke(5, "A", ["1"], rail=True)]
    st = fold(*recs, stroke(6, "B", [], call=foul()))
    assert st.fouls["B"] == 1


def test_wpa_2_9_stalemate_original_breaker_breaks() -> None:
    """WPA 2.9: after a stalemate the original breaker breaks again."""
    st = fold(legal_break(), stroke(2, "B", ["1"], ["1"]), event(2, "rerack"))
    assert st.breaking and st.striker == "A" and len(st.table) == 9


def test_wpa_1_11_concession() -> None:
    """WPA 1.11: the conceding player loses."""
    result, _ = replay(legal_break(), event(1, "concede", "B"), end("A", "concede"))
    assert result.winner == "A" and kinds(result) == []


def test_wpa_2_1_break_alternates_and_replay_frame() -> None:
    """WPA 2.1: alternate breaks; replay_frame is the public seam."""
    m = Match(format="cuelog/1", match="t", rules=RULES, sides={"A": "a", "B": "b"})
    first = replay_frame(m, Frame(frame=1, breaker="A"), [stroke(1, "A", ["1"], ["9"]), end("A")], None)
    assert first.winner == "A" and new_frame(m, Frame(frame=2), first).striker == "B"
