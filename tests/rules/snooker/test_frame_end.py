"""The end of the frame: S2 R1, S3 R1(f), R4, S4 R2, and the recorded ``frame_end``."""

from __future__ import annotations

import msgspec

from cuelog.replay.model import FRAME_END_ERROR
from cuelog.schemas.records import FrameRecord, Respot, Stroke

from ._build import end, event, foul, kinds, replay, stroke

COLOURS_TO_PINK = ["yellow", "green", "brown", "blue", "pink"]


def _a_clears_to_black() -> list[FrameRecord]:
    """Reds 0: A pots Yellow to Pink (20 points) and is on the Black."""
    return [stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(COLOURS_TO_PINK)]


def _tie_on_black() -> list[FrameRecord]:
    """Reds 1: A 14, B 7 and B on the Black; B pots it: 14-14."""
    return [
        stroke(1, "A", ["red"]),
        stroke(2, "B", ["red"], ["red"]),
        stroke(3, "B", ["yellow"], nominated="yellow"),
        *(stroke(4 + i, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue"])),
        stroke(8, "A", ["pink"]),
        stroke(9, "B", ["pink"], ["pink"], respots=[]),
        stroke(10, "B", ["black"], ["black"], respots=[]),
    ]


def test_s3_r4a_last_black_potted_ends_frame() -> None:
    """S3 R4(a), S3 R1(f)(i): the last Black potted ends the frame; the higher score wins."""
    result, outcomes = replay(
        *_a_clears_to_black(), stroke(6, "A", ["black"], ["black"], respots=[]), end("A", "pot"), reds=0
    )
    assert outcomes[-1].frame_over and outcomes[-1].winner == "A"
    assert result.score == (27, 0) and result.winner == "A" and kinds(result) == []


def test_s3_r4a_strokes_at_the_last_black_that_neither_score_nor_foul_play_on() -> None:
    """S3 R4(a): only the first score or foul ends the frame with the Black alone; safety
    strokes at it pass the turn, score nothing and leave the Black on, until one is potted
    (the scores seven apart or less, so that no frame is awarded: S2 R1(c))."""
    records = [stroke(1 + i, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown"])]
    records += [stroke(4, "A", ["blue"]), stroke(5, "B", ["blue"], ["blue"], respots=[])]
    records += [stroke(6, "B", ["pink"], ["pink"], respots=[], score=[9, 11])]
    records += [stroke(7, "B", ["black"], score=[9, 11]), stroke(8, "A", ["black"], score=[9, 11])]
    records += [stroke(9, "B", ["black"], ["black"], respots=[], score=[9, 18]), end("B", "pot", [9, 18])]
    result, outcomes = replay(*records, reds=0)
    assert [(o.striker, o.scored, o.ball_on, o.frame_over) for o in outcomes[6:]] == [
        ("B", 0, "black", False),
        ("A", 0, "black", False),
        ("B", 7, "black", True),
    ]
    assert [o.next_striker for o in outcomes[6:8]] == ["A", "B"]
    assert result.score == (9, 18) and result.winner == "B" and kinds(result) == []


def test_s3_r4a_foul_on_last_black_ends_frame() -> None:
    """S3 R4(a): with Black only the first foul ends the frame (penalty seven to the opponent)."""
    records = [stroke(1, "A", ["yellow"], ["yellow"], respots=[]), stroke(2, "A", ["green"])]
    records += [stroke(3 + i, "B", [c], [c], respots=[]) for i, c in enumerate(["green", "brown", "blue", "pink"])]
    records += [stroke(7, "B", [], call=foul(7))]
    result, outcomes = replay(*records, reds=0)
    assert outcomes[-1].frame_over
    assert result.score == (9, 18) and result.winner == "B" and result.end_reason == "foul"


def test_s3_r4b_tie_on_last_black_respots_black() -> None:
    """S3 R4(b): scores equal when the last Black goes: Black re-spotted, next player in hand; first pot wins."""
    result, outcomes = replay(
        *_tie_on_black(),
        event(10, "respot_black", "A"),
        stroke(11, "A", ["black"], ["black"], placement="legal", respots=[]),
        end("A", "pot", [21, 14]),
        reds=1,
    )
    assert not outcomes[9].frame_over and outcomes[9].score == (14, 14)
    assert outcomes[10].frame_over and result.winner == "A" and result.score == (21, 14)
    assert kinds(result) == []


def test_s3_r4b_iv_respotted_black_ends_on_a_foul() -> None:
    """S3 R4(b)(iv): on the re-spotted Black the first infringement ends the frame."""
    result, _ = replay(*_tie_on_black(), event(10, "respot_black", "A"), stroke(11, "A", [], call=foul(7)), reds=1)
    assert result.winner == "B" and result.score == (14, 21)


def test_s3_r4b_respot_black_without_a_tie() -> None:
    """S3 R4(b): a re-spotted Black recorded when the scores were not equal."""
    result, _ = replay(*_a_clears_to_black(), event(5, "respot_black", "B"), reds=0)
    assert kinds(result) == [(5, FRAME_END_ERROR)]


def test_s2_r1b_claim_black_only_more_than_seven_ahead() -> None:
    """S2 R1(b): the striker, Black only and 20 ahead, claims the frame."""
    result, _ = replay(*_a_clears_to_black(), event(5, "claim", "A"), end("A", "claim"), reds=0)
    assert result.winner == "A" and result.end_reason == "claim" and kinds(result) == []


def test_s2_r1b_claim_with_reds_on_table_is_an_error() -> None:
    """S2 R1(b): a claim needs Black only on the table."""
    result, _ = replay(stroke(1, "A", ["red"], ["red"]), event(1, "claim", "A"), end("A", "claim"))
    assert kinds(result) == [(1, FRAME_END_ERROR)]


def test_s2_r1c_black_only_non_striker_ahead_frame_awarded() -> None:
    """S2 R1(c): Black only, B to play 20 behind: the frame is A's; play after it is reported."""
    result, outcomes = replay(*_a_clears_to_black(), stroke(6, "A", ["black"]), stroke(7, "B", ["black"]), reds=0)
    assert outcomes[5].frame_over and outcomes[5].winner == "A"
    assert result.winner == "A" and result.end_reason == "award"
    assert kinds(result) == [(7, FRAME_END_ERROR)]


def test_s2_r1c_concession_after_the_award_confirms_it() -> None:
    """S2 R1(c), S4 R2: B concedes the frame S2 R1(c) already gave to A: no finding."""
    result, _ = replay(
        *_a_clears_to_black(), stroke(6, "A", ["black"]), event(6, "concede", "B"), end("A", "concede"), reds=0
    )
    assert kinds(result) == [] and result.winner == "A"


def test_s4_r2b_concession_without_needing_penalty_points() -> None:
    """S4 R2(b): conceding when nobody needs penalty points is against the rules (reported)."""
    result, _ = replay(stroke(1, "A", ["red"]), event(1, "concede", "B"), end("A", "concede"))
    assert kinds(result) == [(1, FRAME_END_ERROR)]
    assert result.findings[0].rule == "S4 R2(b)" and result.winner == "A"


def test_s4_r2b_concession_needing_snookers_is_legal() -> None:
    """S4 R2(b): B 20 behind with 13 on the table needs penalty points: the concession stands."""
    records = [stroke(1 + i, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue"])]
    result, _ = replay(*records, stroke(5, "A", ["pink"]), event(5, "concede", "B"), end("A", "concede"), reds=0)
    assert kinds(result) == [] and result.winner == "A"


def test_referee_award_stands() -> None:
    """S2 R1(e), S4 R1(b): the referee awards the frame for Unsporting Conduct: the winner is B."""
    result, _ = replay(stroke(1, "A", ["red"]), event(1, "award", "B", reason="unsporting"), end("B", "award"))
    assert kinds(result) == [] and result.winner == "B"


def test_frame_end_recorded_to_the_wrong_side() -> None:
    """S3 R1(f)(i): A cleared to 27-0 but the frame was recorded to B."""
    result, _ = replay(*_a_clears_to_black(), stroke(6, "A", ["black"], ["black"], respots=[]), end("B", "pot"), reds=0)
    assert kinds(result) == [(6, FRAME_END_ERROR)] and result.winner == "A"


def test_frame_end_recorded_while_the_frame_is_in_play() -> None:
    """S2 R1: a frame recorded as ended with Reds on the table and no concession or award."""
    result, _ = replay(stroke(1, "A", ["red"], ["red"]), end("A", "pot"))
    assert kinds(result) == [(1, FRAME_END_ERROR)]


def test_s3_r4b_i_black_respotted_on_tie_may_be_recorded_as_a_respot() -> None:
    """S3 R4(b)(i): the Black spotted after the tie, written in the stroke's respots: no finding."""
    records = _tie_on_black()
    last = records[-1]
    assert isinstance(last, Stroke)
    records[-1] = msgspec.structs.replace(last, respots=[Respot(ball="black", spot="black")])
    result, _ = replay(*records, stroke(11, "A", ["black"], ["black"], placement="legal", respots=[]), reds=1)
    assert kinds(result) == [] and result.winner == "A"


def test_concession_recorded_only_in_frame_end_is_checked_like_the_event() -> None:
    """S4 R2(b): a frame_end with reason ``concede`` and no event: legal when snookers are needed."""
    records = [stroke(1 + i, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue"])]
    result, _ = replay(*records, stroke(5, "A", ["pink"]), end("A", "concede"), reds=0)
    assert kinds(result) == [] and result.winner == "A" and result.end_reason == "concede"
    result, _ = replay(stroke(1, "A", ["red"]), end("A", "concede"))
    assert kinds(result) == [(1, FRAME_END_ERROR)] and result.findings[0].rule == "S4 R2(b)"


def test_s4_r2f_aggregate_concession_gives_the_balls_left() -> None:
    """S4 R2(f): aggregate scoring: B concedes with Pink and Black left; A receives their 13 points."""
    records = [stroke(1 + i, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue"])]
    result, _ = replay(*records, stroke(5, "A", ["pink"]), event(5, "concede", "B"), reds=0, aggregate=True)
    assert result.score == (27, 0) and result.winner == "A" and kinds(result) == []


def test_s2_r1b_no_claim_when_aggregate_points_count() -> None:
    """S2 R1(b): a claim needs "aggregate points are not relevant"."""
    result, _ = replay(*_a_clears_to_black(), event(5, "claim", "A"), reds=0, aggregate=True)
    assert kinds(result) == [(5, FRAME_END_ERROR)]


def test_s3_r4a_ii_aggregate_tie_ends_without_respotted_black() -> None:
    """S3 R4(a)(ii): with aggregate scores the frame ends level; S3 R4(c) may still re-spot after the last frame."""
    result, outcomes = replay(*_tie_on_black(), reds=1, aggregate=True)
    assert outcomes[-1].frame_over and result.winner is None and result.score == (14, 14)
    result, _ = replay(
        *_tie_on_black(),
        event(10, "respot_black", "A"),
        stroke(11, "A", ["black"], ["black"], respots=[]),
        reds=1,
        aggregate=True,
    )
    assert kinds(result) == [] and result.winner == "A"


def test_s3_r4a_foul_tying_on_the_last_black_goes_to_the_respotted_black_not_a_miss() -> None:
    """S3 R4(a),(b), R14: A, seven ahead with Black only, misses it (seven to B): the scores
    tie, the Black is re-spotted and the players draw lots, so no FOUL AND A MISS is due
    (there is no stroke to replay) and nobody chooses."""
    _, outcomes = replay(*_tie_on_black()[:-1], stroke(10, "B", ["black"]), stroke(11, "A", [], call=foul(7)), reds=1)
    o = outcomes[-1]
    assert o.foul and o.penalty == 7 and o.score == (14, 14)
    assert not o.miss and not o.frame_over and o.next_striker is None
