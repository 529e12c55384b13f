"""Winning and losing on the black: WE D(1), M; EPF M; WPA 3.5, 3.8; BB 5.7, 5.14."""

from __future__ import annotations

import pytest

from cuelog.replay.model import FRAME_END_ERROR
from cuelog.schemas.records import FrameRecord

from ._build import BB, GROUP_EDITIONS, WORLD, WPA, black, end, foul, groups_decided, kinds, own, replay, stroke

ALL = (*GROUP_EDITIONS, WPA, BB)


def cleared(rules: str, *, leave: int = 0) -> list[FrameRecord]:
    """Groups decided (strokes 1-3), then A pots all but ``leave`` of its seven balls (strokes
    from 4). Returns the records; A is to play next."""
    recs = list(groups_decided(rules))
    balls = [str(i) for i in range(9, 16)] if rules == WPA else ["yellow"] * 7
    for i, b in enumerate(balls[: 7 - leave]):
        recs.append(stroke(4 + i, "A", [b], [b], nominated=b if rules == WPA else None))
    return recs


def _call(rules: str) -> dict[str, str]:
    return {"nominated": "8", "pocket_called": "TL"} if rules == WPA else {}


@pytest.mark.parametrize("rules", ALL)
def test_we_d1_wpa_3_5_bb_5_7_black_potted_legally_wins(rules: str) -> None:
    """WE D(1), WPA 3.5, BB 5.7: the group cleared, then the black legally potted: the frame."""
    b = black(rules)
    recs = [*cleared(rules), stroke(11, "A", [b], [b], pockets=["TL"], **_call(rules)), end("A")]
    result, outcomes = replay(*recs, rules=rules)
    assert outcomes[-1].frame_over and result.winner == "A" and result.score == (1, 0) and kinds(result) == []


@pytest.mark.parametrize("rules", ALL)
def test_we_m1_wpa_3_8a_bb_5_14a_black_and_a_foul_loses(rules: str) -> None:
    """WE M(1), WPA 3.8(a), BB 5.14(a): the black potted on a foul shot (here an in-off) loses."""
    b = black(rules)
    s = stroke(11, "A", [b], [b, "white"], pockets=["TL", "BL"], call=foul(loss=True), **_call(rules))
    result, outcomes = replay(*cleared(rules), s, end("B", "loss_of_frame"), rules=rules)
    assert outcomes[-1].loss_of_frame and result.winner == "B" and kinds(result) == []


@pytest.mark.parametrize("rules", ALL)
def test_we_m2_wpa_3_8b_bb_5_14b_black_before_group_cleared_loses(rules: str) -> None:
    """WE M(2), WPA 3.8(b), BB 5.14(b): the black potted with own balls on the table loses."""
    b = black(rules)
    s = stroke(11, "A", [own(rules, "A")], [b], rail=True)
    result, outcomes = replay(*cleared(rules, leave=2), s, end("B", "loss_of_frame"), rules=rules)
    assert outcomes[-1].loss_of_frame and result.winner == "B" and kinds(result) == []


@pytest.mark.parametrize("rules", ALL)
def test_black_potted_on_open_table_loses(rules: str) -> None:
    """WE M(2), WPA 3.8(b), BB 5.14(b) on an open table (docs/rulings.md): no group is cleared."""
    b = black(rules)
    s = stroke(2, "B", [own(rules, "B")], [b], rail=True)
    from ._build import fair_break

    result, outcomes = replay(fair_break(), s, end("A", "loss_of_frame"), rules=rules)
    assert outcomes[-1].loss_of_frame and result.winner == "A"


@pytest.mark.parametrize("rules", [*GROUP_EDITIONS, WPA])
def test_we_m3_wpa_3_6_black_with_last_own_ball_loses(rules: str) -> None:
    """WE M(3), EPF M(3); WPA 3.6 (the 8 callable only after the shot that clears the group),
    3.8(b): the black and the last own ball in one shot lose."""
    b = black(rules)
    last = "15" if rules == WPA else "yellow"
    s = stroke(10, "A", [last], [last, b], nominated=last if rules == WPA else None)
    result, outcomes = replay(*cleared(rules, leave=1), s, end("B", "loss_of_frame"), rules=rules)
    assert outcomes[-1].loss_of_frame and result.winner == "B" and kinds(result) == []


def test_bb_5_14b_black_with_last_own_ball_wins() -> None:
    """BB 5.14(b) (docs/rulings.md): the black with the last own ball on a legal shot leaves no
    own ball on the table: not a loss, the frame is won."""
    s = stroke(10, "A", ["yellow"], ["yellow", "black"])
    result, outcomes = replay(*cleared(BB, leave=1), s, end("A"), rules=BB)
    assert not outcomes[-1].loss_of_frame and result.winner == "A" and kinds(result) == []


def test_wpa_3_8c_eight_in_uncalled_pocket_loses() -> None:
    """WPA 3.8(c): the 8 called in TL, pocketed in BR: loss of rack."""
    s = stroke(11, "A", ["8"], ["8"], pockets=["BR"], nominated="8", pocket_called="TL")
    result, outcomes = replay(*cleared(WPA), s, end("B", "loss_of_frame"), rules=WPA)
    assert outcomes[-1].loss_of_frame and result.winner == "B" and kinds(result) == []


def test_wpa_3_8d_eight_off_table_loses() -> None:
    """WPA 3.8(d): the 8 driven off the table: loss of rack."""
    s = stroke(11, "A", ["8"], off_table=["8"], nominated="8", pocket_called="TL")
    result, outcomes = replay(*cleared(WPA), s, end("B", "loss_of_frame"), rules=WPA)
    assert outcomes[-1].loss_of_frame and result.winner == "B"


@pytest.mark.parametrize("rules", [*GROUP_EDITIONS, BB])
def test_we_s_bb_5_11_black_off_table_spotted_foul(rules: str) -> None:
    """WE S(1), S(3)(b); BB 6.5, 5.11: the black off the table: a standard foul, the black spotted."""
    s = stroke(
        11, "A", [black(rules)], off_table=[black(rules)], respots=[black(rules)], call=foul(2 if rules != BB else None)
    )
    result, outcomes = replay(*cleared(rules), s, rules=rules)
    assert outcomes[-1].foul and not outcomes[-1].loss_of_frame and outcomes[-1].respots == ((black(rules), "foot"),)
    assert kinds(result) == []


@pytest.mark.parametrize("rules", ALL)
def test_loss_of_frame_missed_frame_end_error(rules: str) -> None:
    """WE M(2), WPA 3.8(b), BB 5.14(b): the loss missed, the frame recorded to the offender:
    one frame_end_error on the stroke that lost it."""
    s = stroke(11, "A", [own(rules, "A")], [black(rules)], rail=True)
    later = stroke(12, "A", [own(rules, "A")], rail=True)
    result, _ = replay(*cleared(rules, leave=2), s, later, end("A"), rules=rules)
    assert kinds(result) == [(11, FRAME_END_ERROR)]


def test_we_m1_loss_called_false_is_reported_at_once() -> None:
    """WE M(1): the referee called the foul but explicitly not the loss of frame."""
    s = stroke(11, "A", ["black"], ["black", "white"], call=foul(2, loss=False))
    result, _ = replay(*cleared(WORLD), s, end("B", "loss_of_frame"))
    assert kinds(result) == [(11, FRAME_END_ERROR)]


def test_we_m_loss_called_without_grounds() -> None:
    """WE M: loss of frame called on a legal shot is a frame_end_error."""
    s = stroke(4, "A", ["yellow"], rail=True, call=foul(loss=True))
    result, _ = replay(*groups_decided(WORLD), s)
    assert (4, FRAME_END_ERROR) in kinds(result)


@pytest.mark.parametrize("rules", ALL)
def test_frame_recorded_to_the_wrong_winner(rules: str) -> None:
    """WE D(1), WPA 3.5, BB 5.7: the black won the frame for A; recorded to B."""
    b = black(rules)
    recs = [*cleared(rules), stroke(11, "A", [b], [b], pockets=["TL"], **_call(rules)), end("B")]
    result, _ = replay(*recs, rules=rules)
    assert kinds(result) == [(11, FRAME_END_ERROR)]


def test_ruling_bb_free_shot_black_with_own_balls_left_loses() -> None:
    """BB 5.1, 5.14(b) (docs/rulings.md P7): the free shot suspends 6.2 only; the black potted
    on it with own balls left still loses."""
    recs = [*groups_decided(BB), stroke(4, "A", ["red"], rail=True, call=foul()), stroke(5, "B", ["black"], ["black"])]
    result, outcomes = replay(*recs, end("A", "loss_of_frame"), rules=BB)
    assert outcomes[-1].loss_of_frame and result.winner == "A" and kinds(result) == []


def test_ruling_bb_free_shot_black_when_on_it_wins() -> None:
    """BB 5.1, 5.7 (docs/rulings.md P7): on the black, the free shot may pot it and win."""
    recs = [
        *cleared(BB),
        stroke(11, "A", ["red"], rail=True, call=foul()),
        stroke(12, "B", [], call=foul()),
    ]
    result, outcomes = replay(*recs, stroke(13, "A", ["red"], ["black"]), end("A"), rules=BB)
    assert not outcomes[-1].loss_of_frame and result.winner == "A" and kinds(result) == []
