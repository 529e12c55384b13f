"""The older edition (seed 000): the differences the facts can show (RULES-DIGEST DIFFERENCES A)."""

from __future__ import annotations

from cuelog.replay.model import FRAME_END_ERROR, MISS_ERROR
from cuelog.schemas.records import FrameRecord

from ._build import choice, event, foul, kinds, replay, stroke
from .test_frame_end import _tie_on_black

OLD = "snooker/classic"
TO_BLACK = [
    stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue", "pink"])
]


def test_classic_penalties_are_numbered_rule_12() -> None:
    """O S3 R12(a)(vii): the older book numbers the penalty values Rule 12."""
    _, (o,) = replay(stroke(1, "A", ["red"], ["white"], call=foul(4)), rules=OLD)
    result, _ = replay(stroke(1, "A", ["black"], call=foul(4)), rules=OLD)
    assert o.penalty == 4
    assert result.findings[0].rule == "S3 R12(b)(iv)"


def test_classic_no_award_to_the_non_striker() -> None:
    """DIFF A1, O S2 R1(b): only the striker may claim; play on with Black only 20 behind is legal."""
    result, _ = replay(*TO_BLACK, stroke(6, "A", ["black"]), stroke(7, "B", ["black"]), rules=OLD, reds=0)
    assert kinds(result) == [] and not result.end_reason


def test_classic_no_miss_with_black_only() -> None:
    """DIFF A3, O S3 R14: no FOUL AND A MISS when only the Black remains."""
    records = [stroke(1, "A", ["yellow"], ["yellow"], respots=[]), stroke(2, "A", ["green"])]
    records += [stroke(3 + i, "B", [c], [c], respots=[]) for i, c in enumerate(["green", "brown", "blue", "pink"])]
    records += [stroke(7, "B", ["black"]), stroke(8, "A", [], call=foul(7, miss=True))]
    result, _ = replay(*records, rules=OLD, reds=0)
    assert kinds(result) == [(8, MISS_ERROR)]


def test_classic_concession_only_by_the_striker() -> None:
    """DIFF A18, O S4 R5(a): a player may concede only during their own turn."""
    records = [*TO_BLACK[:4], stroke(5, "A", ["pink"]), event(5, "concede", "A")]
    result, _ = replay(*records, rules=OLD, reds=0)
    assert kinds(result) == [(5, FRAME_END_ERROR)] and result.findings[0].rule == "S4 R5(a)"


def test_classic_no_replacement_after_foul_before_striking() -> None:
    """DIFF A9: the replace-all option after a foul before the stroke (S3 R10(i)) is new in 2024."""
    records = [event(0, "foul", "A", code="touched_ball", ball="red", points=4), choice(0, "B", "replace_play")]
    result, _ = replay(*records, rules=OLD)
    assert kinds(result) == [(0, MISS_ERROR)]
    result, _ = replay(*records)
    assert kinds(result) == []


def test_classic_playing_out_of_turn_is_a_foul() -> None:
    """DIFF A12, O S3 R12(a)(iv): playing out of turn is a foul worth the ball on (here four)."""
    _, (_, o) = replay(stroke(1, "A", ["red"]), stroke(2, "A", ["red"], call=foul(4)), rules=OLD)
    assert o.foul and o.reasons == ("out_of_turn",) and o.penalty == 4
    result, _ = replay(stroke(1, "A", ["red"]), stroke(2, "A", ["red"], call=foul(4)), rules=OLD)
    assert kinds(result) == []
    result, _ = replay(stroke(1, "A", ["red"]), stroke(2, "A", ["red"]), rules=OLD)
    assert kinds(result) == [(2, "wrong_striker")]
    _, (_, o) = replay(stroke(1, "A", ["red"]), stroke(2, "A", ["red"]))
    assert not o.foul


# -- DIFFERENCES A2, A5-A8, A10, A11, A15, A17, A19-A21 ------------------------------------

NEW = "snooker/wpbsa-2024"


def _failure(n: int) -> list[FrameRecord]:
    return [stroke(n, "A", ["blue"], call=foul(5, miss=True)), choice(n, "B", "replace_return")]


def test_classic_a2_respotted_black_ends_on_a_foul_before_the_stroke_in_both_editions() -> None:
    """DIFF A2, S3 R4(b)(iv), O S3 R4(b)(iv), O S2 R16: "pot or infringement" and "score or
    foul" give the same call, since the older book calls every infringement a foul: B touches
    a ball before A plays the re-spotted Black, A wins on the penalty."""
    for rules in (OLD, NEW):
        result, _ = replay(
            *_tie_on_black(),
            event(10, "respot_black", "A"),
            event(10, "foul", "B", code="touched_ball", ball="black", points=7),
            rules=rules,
            reds=1,
        )
        assert result.winner == "A" and result.score == (21, 14) and result.end_reason == "foul", rules


def test_classic_a6_play_from_the_position_left_starts_the_sequence_again() -> None:
    """DIFF A6, O S3 R14(c)(iii), S3 R14(d)(iii): "starts again" and "ends" are the same call:
    after a ``return`` the next miss is the first of a new sequence, so a Warning is early."""
    for rules in (OLD, NEW):
        records = [
            *_failure(1),
            stroke(2, "A", ["blue"], call=foul(5, miss=True)),
            choice(2, "B", "return"),
            stroke(3, "A", ["blue"], call=foul(5, miss=True)),
            event(3, "warning", "A", reason="miss"),
        ]
        result, _ = replay(*records, rules=rules)
        assert kinds(result) == [(3, MISS_ERROR)], rules


def test_classic_a7_warning_survives_a_foul_before_the_stroke_played_from_the_position_left() -> None:
    """DIFF A7, O S3 R14(d)(iv),(vi): warned after the second miss, A touches a ball before
    striking and is asked to play again from the position left: the Warning stays, and the
    next miss loses the frame. Under S3 R14(e) the Warning lapses unless all balls are
    replaced, so the award is an error there."""
    records = [
        *_failure(1),
        *_failure(2),
        event(2, "warning", "A", reason="miss"),
        event(2, "foul", "A", code="touched_ball", ball="red", points=4),
        choice(2, "B", "return"),
        stroke(3, "A", ["blue"], call=foul(5, miss=True)),
        event(3, "award", "B", reason="miss"),
    ]
    result, _ = replay(*records, rules=OLD)
    assert kinds(result) == [] and result.winner == "B"
    result, _ = replay(*records, rules=NEW)
    assert kinds(result) == [(3, FRAME_END_ERROR)]


def test_classic_a7_replacement_after_a_foul_before_the_stroke_within_a_sequence() -> None:
    """O S3 R14(d)(v): within a miss sequence the balls may be replaced after a foul before
    the stroke (outside one they may not, DIFF A9), and the Warning remains."""
    records = [
        *_failure(1),
        *_failure(2),
        event(2, "warning", "A", reason="miss"),
        event(2, "foul", "A", code="touched_ball", ball="red", points=4),
        choice(2, "B", "replace_return"),
        stroke(3, "A", ["blue"], call=foul(5, miss=True)),
        event(3, "award", "B", reason="miss"),
    ]
    result, _ = replay(*records, rules=OLD)
    assert kinds(result) == [] and result.winner == "B"


def test_classic_a8_replacing_after_a_miss_puts_back_the_cue_ball_not_a_potted_red() -> None:
    """DIFF A8, O S3 R14(f) against S3 R14(b): A misses the Reds, the Pink knocks a Red in.
    Replaced under 2024 all balls go back, two Reds remain; under the older book only the
    cue-ball goes back, so after A's Red and Black the last Red is gone and Yellow is on."""
    records = [
        stroke(1, "A", ["pink"], ["red"], call=foul(6, miss=True)),
        choice(1, "B", "replace_return"),
        stroke(2, "A", ["red"], ["red"]),
        stroke(3, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
        stroke(4, "A", ["yellow"]),
    ]
    result, outcomes = replay(*records, rules=OLD, reds=2)
    assert outcomes[3].ball_on == "yellow" and not outcomes[3].foul
    assert kinds(result) == []
    result, outcomes = replay(*records, rules=NEW, reds=2)
    assert outcomes[3].ball_on == "red" and outcomes[3].foul
    assert kinds(result) == [(4, "condoned_foul")]


def _fb_table(blue_y: float) -> list[tuple[str, float, float]]:
    return [("white", 400.0, 1000.0), ("red", 400.0, 2500.0), ("blue", 400.0, blue_y), ("black", 889.0, 3245.0)]


def test_classic_a10_free_ball_snooker_is_a_foul_after_a_scoring_stroke_too() -> None:
    """DIFF A10, O S3 R10(b)(ii) against S3 R12(b)(ii) ("after a non-scoring stroke"): B pots
    a Red off the nominated free ball (Blue) and leaves the last Red hidden behind the Blue."""
    records = [
        stroke(1, "A", [], call=foul(4, free_ball=True)),
        stroke(2, "B", ["blue"], ["red"], nominated="blue", positions=_fb_table(1700.0)),
    ]
    result, (_, o) = replay(*records, rules=OLD, reds=2)
    assert o.foul and o.reasons == ("free_ball_snooker",) and o.penalty == 4
    assert [(f.n, f.kind, f.rule) for f in result.findings] == [(2, "condoned_foul", "S3 R12(a)(viii)")]
    result, (_, o) = replay(*records, rules=NEW, reds=2)
    assert not o.foul and o.scored == 1 and kinds(result) == []


def test_classic_a10_two_ball_exception_is_pink_and_black_only() -> None:
    """DIFF A10: with Blue and Black the only object balls (the others off by a colour wrongly
    left off, S3 R7), the older exception (Pink and Black) does not apply; 2024's "Black and
    one other colour" does."""
    positions = [("white", 400.0, 1000.0), ("blue", 400.0, 2500.0), ("black", 400.0, 1700.0)]
    records = [
        *[stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown"])],
        stroke(4, "A", [], call=foul(5, free_ball=True)),
        stroke(5, "B", ["black"], nominated="black", positions=positions),
    ]
    _, outcomes = replay(*records, rules=OLD, reds=0)
    assert outcomes[-1].foul and outcomes[-1].reasons == ("free_ball_snooker",)
    _, outcomes = replay(*records, rules=NEW, reds=0)
    assert not outcomes[-1].foul


def test_classic_a11_replacement_voids_the_free_ball_in_both_editions() -> None:
    """DIFF A11, O S3 R10(f), S3 R12(f): the older book voids the free ball when the offender
    is asked to play again, and it replaces balls only for the offender to play again, so
    the call is the same: after ``replace_return`` a nominated free ball is no free ball."""
    for rules in (OLD, NEW):
        records = [
            stroke(1, "A", ["blue"], call=foul(5, miss=True, free_ball=True)),
            choice(1, "B", "replace_return"),
            stroke(2, "A", ["green"], ["green"], nominated="green", respots=[("green", "green")]),
        ]
        result, _ = replay(*records, rules=rules)
        assert kinds(result) == [(2, "free_ball_error")], rules


def test_classic_a15_non_striker_penalised_as_if_the_striker() -> None:
    """DIFF A15, O S3 R2(b)(ii): B touches a ball during A's break: penalised as if the
    striker (O S3 R12(b)(vi)), A's turn unaffected; 2024 cites the PENALTY of S3 R11(e)."""
    for rules, rule in ((OLD, "S3 R12(b)(vi)"), (NEW, "S3 R11(e)")):
        result, outcomes = replay(
            stroke(1, "A", ["red"], ["red"]),
            event(1, "foul", "B", code="touched_ball", ball="blue", points=4),
            stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
            rules=rules,
        )
        assert result.score == (13, 0) and not outcomes[1].foul
        assert [(f.kind, f.rule, f.points) for f in result.findings] == [("penalty_value", rule, 1)]


def test_classic_a17_no_deferred_points_for_a_colour_spotted_in_error() -> None:
    """DIFF A17, O S3 R7(b): the older book only removes the colour; the points for potting
    it again stand even when the error is discovered before the next stroke."""
    records = [
        stroke(1, "A", ["yellow"], ["yellow"], respots=[("yellow", "yellow")]),
        stroke(2, "A", ["yellow"], ["yellow"], respots=[]),
        event(2, "spot_correction", ball="yellow", remove=True),
    ]
    result, _ = replay(*records, rules=OLD, reds=0)
    assert result.score == (4, 0)
    result, _ = replay(*records, rules=NEW, reds=0)
    assert result.score == (2, 0)


def test_classic_a19_forfeited_frame_loses_the_points() -> None:
    """DIFF A19, O S4 R2(a)(ii): B's frame is forfeited for unsporting conduct: B's points
    are lost and A receives the balls left (Blue, Pink, Black: 18). Under S4 R4(a)(ii) that
    happens only where aggregate scores count."""
    records = [
        *[stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green"])],
        stroke(3, "A", ["brown"]),
        stroke(4, "B", ["brown"], ["brown"], respots=[]),
        event(4, "award", "A", reason="unsporting"),
    ]
    result, _ = replay(*records, rules=OLD, reds=0)
    assert result.score == (5 + 18, 0) and result.winner == "A"
    result, _ = replay(*records, rules=NEW, reds=0)
    assert result.score == (5, 4) and result.winner == "A"
    result, _ = replay(*records, rules=NEW, reds=0, aggregate=True)
    assert result.score == (5 + 18, 0)


def test_classic_a20_time_wasting_award_needs_no_warning() -> None:
    """DIFF A20, S4 R3(a),(b) against O S4 R1(a): in 2024 a frame is awarded for time wasting
    only after a Warning; the older referee may award it at once."""
    records = [stroke(1, "A", ["red"]), event(1, "award", "A", reason="time_wasting")]
    result, _ = replay(*records, rules=OLD)
    assert kinds(result) == [] and result.winner == "A"
    result, _ = replay(*records, rules=NEW)
    assert [(f.kind, f.rule, f.side) for f in result.findings] == [(FRAME_END_ERROR, "S4 R3(b)", "B")]
    result, _ = replay(stroke(1, "A", ["red"]), event(1, "warning", "B", reason="time_wasting"), *records[1:])
    assert kinds(result) == []


def test_classic_a21_stalemate_on_the_respotted_black_reracks_the_frame() -> None:
    """DIFF A21, O S3 R16 against S3 R17(d): a stalemate on the re-spotted Black re-racks the
    whole frame with the scores nullified in the older book; 2024 re-spots the Black only."""
    records = [*_tie_on_black(), event(10, "respot_black", "A"), event(10, "rerack")]
    result, _ = replay(*records, stroke(11, "A", ["red"], ["red"]), rules=OLD, reds=1)
    assert result.score == (1, 0) and kinds(result) == []
    result, _ = replay(*records, stroke(11, "A", ["black"], ["black"], placement="legal", respots=[]), reds=1)
    assert result.score == (21, 14) and result.winner == "A"


def test_classic_a14_seven_for_not_declaring_when_snookered() -> None:
    """DIFF A14, O S3 R12(d)(v): snookered on the Red (the Blue in the line), A hits the Blue
    with no declaration recorded: the older book allows seven (failing to declare when
    snookered; whether A declared is not in the facts). 2024 gives seven only on the
    referee's request (S3 R11(d)(v)): the Blue's five stands and seven is a penalty_value."""
    hidden = [("white", 400.0, 1000.0), ("red", 400.0, 2500.0), ("blue", 400.0, 1800.0)]
    records = [stroke(1, "B", ["red"], positions=hidden), stroke(2, "A", ["blue"], call=foul(7))]
    result, _ = replay(*records, rules=OLD, reds=1, breaker="B")
    assert kinds(result) == [] and result.score == (0, 7)
    result, _ = replay(*records, reds=1, breaker="B")
    assert [(f.kind, f.points) for f in result.findings] == [("penalty_value", 2)] and result.score == (0, 5)


def test_classic_a16_curved_cushion_face_by_a_pocket_leaves_free_ball_undecided() -> None:
    """DIFF A16, O S2 R17(e): a Red hidden behind the Blue but lying by the top-left pocket:
    a jaw may come between, which would mean not snookered in the older book. The log has
    no pocket geometry, so the older edition raises nothing; 2024 (a cushion never snookers
    or unsnookers, S2 R17(e)) reports the FREE BALL not called."""
    by_pocket = [("white", 300.0, 2800.0), ("red", 60.0, 3500.0), ("blue", 180.0, 3150.0)]
    records = [stroke(1, "A", [], call=foul(4), positions=by_pocket)]
    result, _ = replay(*records, rules=OLD, reds=1)
    assert kinds(result) == []
    result, (o,) = replay(*records, reds=1)
    assert o.free_ball and kinds(result) == [(1, "free_ball_error")]
