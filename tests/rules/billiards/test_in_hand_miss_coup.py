"""S3 R6 playing from in-hand, S2 R16 / S3 R17 the miss, S2 R17 running a coup."""

from __future__ import annotations

from tests.rules.billiards._build import foul, kinds, miss, replay, stroke

# After A's opening stroke the Red and the White rest in Baulk; B is in-hand.
IN_BAULK = [("red", 889.0, 600.0), ("white", 700.0, 500.0)]
RED_OUT = [("red", 889.0, 2000.0), ("white", 700.0, 500.0)]


def _after_opening(*rest: object, positions: list[tuple[str, float, float]] = IN_BAULK) -> tuple:  # type: ignore[type-arg]
    return replay(stroke(1, "A", ["red"], placement="legal", score=[0, 0], positions=positions), *rest)  # type: ignore[arg-type]


def test_illegal_placement_is_a_foul_s3_r15f() -> None:
    """Played from outside the D: foul, 2 points, no score for the stroke (S3 R6, R15(f), R16(b))."""
    result, outcomes = replay(stroke(1, "A", ["red"], ["red"], placement="illegal", call=foul(), score=[0, 2]))
    assert kinds(result) == []
    assert outcomes[0].foul and outcomes[0].reasons == ("in_hand",)
    assert (outcomes[0].scored, outcomes[0].penalty) == (0, 2)
    assert outcomes[0].respots == (("red", "spot"),)
    assert result.score == (0, 2)


def test_object_ball_in_baulk_played_directly_s3_r6f() -> None:
    """From in-hand, B plays directly at the Red in Baulk: a foul the referee missed."""
    result, _ = _after_opening(stroke(2, "B", ["red"], placement="legal", cue_first=False, score=[0, 0]))
    assert kinds(result) == [(2, "condoned_foul")]
    assert result.findings[0].rule == "S3 R15(f)" and result.findings[0].points == 2


def test_object_ball_in_baulk_played_off_a_cushion_raises_nothing_s3_r6d() -> None:
    """Off a cushion first it is legal only if the cushion was out of Baulk (S3 R6(d),(e)), which
    the facts do not say: neither a call nor its absence is reported."""
    result, _ = _after_opening(stroke(2, "B", ["red"], placement="legal", cue_first=True, score=[0, 0]))
    assert kinds(result) == []
    result, _ = _after_opening(stroke(2, "B", ["red"], placement="legal", cue_first=True, call=foul(), score=[2, 0]))
    assert kinds(result) == []


def test_object_ball_out_of_baulk_played_directly_is_legal_s3_r6c() -> None:
    result, _ = _after_opening(
        stroke(2, "B", ["red"], placement="legal", cue_first=False, call=foul(), score=[2, 0]), positions=RED_OUT
    )
    assert kinds(result) == [(2, "unsupported_foul")]


def test_miss_is_two_points_not_a_foul_s2_r16_s3_r17() -> None:
    """In-hand, no object ball out of Baulk, none hit: MISS, 2 points, play from the position left."""
    result, outcomes = _after_opening(
        stroke(2, "B", [], placement="legal", cue_first=True, call=miss(), score=[2, 0]),
        stroke(3, "A", ["red"], score=[2, 0]),
    )
    assert kinds(result) == []
    assert outcomes[1].miss and not outcomes[1].foul and outcomes[1].penalty == 2
    assert outcomes[1].next_striker == "A"


def test_miss_called_as_foul_is_a_miss_error() -> None:
    """The same stroke called FOUL: the points agree but the call is wrong (S2 R16: not a foul)."""
    result, _ = _after_opening(stroke(2, "B", [], placement="legal", cue_first=True, call=foul(), score=[2, 0]))
    assert kinds(result) == [(2, "miss_error")]
    assert result.score == (2, 0)


def test_miss_not_called() -> None:
    """No call for a miss: miss_error, two points at stake (S3 R17)."""
    result, _ = _after_opening(stroke(2, "B", [], placement="legal", cue_first=True, score=[0, 0]))
    assert kinds(result) == [(2, "miss_error")]
    assert result.findings[0].points == 2


def test_failing_to_hit_with_a_ball_out_of_baulk_is_a_foul_s3_r15o() -> None:
    """The Red is out of Baulk: hitting nothing is a foul, and a MISS call is wrong."""
    result, outcomes = _after_opening(
        stroke(2, "B", [], placement="legal", cue_first=True, call=miss(), score=[2, 0]), positions=RED_OUT
    )
    assert outcomes[1].foul and outcomes[1].reasons == ("no_contact",)
    assert kinds(result) == [(2, "miss_error")]


def test_failing_to_hit_when_not_in_hand_is_a_foul_s3_r15o() -> None:
    """Not in-hand, the cue ball hits nothing: foul (the miss needs in-hand, S2 R16)."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[3, 0]),
        stroke(2, "A", [], call=foul(), score=[3, 2]),
    )
    assert kinds(result) == []
    assert outcomes[1].reasons == ("no_contact",)


def test_running_a_coup_is_a_foul_s2_r17_s3_r15g() -> None:
    """In-hand, nothing out of Baulk, the cue ball straight into a pocket: a coup, a foul, not a miss."""
    result, outcomes = _after_opening(
        stroke(2, "B", [], ["yellow"], placement="legal", cue_first=False, call=miss(), score=[2, 0])
    )
    assert outcomes[1].reasons == ("coup",)
    assert kinds(result) == [(2, "miss_error")]


def test_cue_ball_off_a_flat_cushion_into_a_pocket_is_a_miss_s2_r17() -> None:
    """Off a flat face first and then into a pocket is not a coup (S2 R17): a miss."""
    result, outcomes = _after_opening(
        stroke(2, "B", [], ["yellow"], placement="legal", cue_first=True, call=miss(), score=[2, 0])
    )
    assert kinds(result) == []
    assert outcomes[1].miss


def test_unknown_positions_raise_nothing_for_a_called_miss() -> None:
    """Without positions the engine cannot tell a miss from a foul: the call is trusted (docs/format.md 1.2)."""
    result, _ = replay(
        stroke(1, "A", ["red"], placement="legal", score=[0, 0]),
        stroke(2, "B", [], placement="legal", call=miss(), score=[2, 0]),
    )
    assert kinds(result) == []
