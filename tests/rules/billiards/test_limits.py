"""S3 R11 fifteen consecutive hazards, S3 R10 seventy-five consecutive cannons, the referee's calls."""

from __future__ import annotations

from tests.rules.billiards._build import call, foul, kinds, replay, stroke


def _in_offs(first: int, count: int, striker: str = "A", **kw: object) -> list[object]:
    """``count`` in-offs off the Red from in-hand: a run of hazards (S2 R10(b))."""
    return [stroke(n, striker, ["red"], ["white"], placement="legal", **kw) for n in range(first, first + count)]  # type: ignore[arg-type]


def test_fifteen_hazards_are_allowed_s3_r11() -> None:
    result, _outcomes = replay(*_in_offs(1, 15))  # type: ignore[arg-type]
    assert kinds(result) == []
    assert result.score == (45, 0)


def test_sixteenth_hazard_is_a_foul_s3_r15k() -> None:
    """The sixteenth consecutive hazard, not called: limit_exceeded; the stroke stands as played."""
    result, outcomes = replay(*_in_offs(1, 16))  # type: ignore[arg-type]
    assert outcomes[15].foul and outcomes[15].reasons == ("hazards",)
    assert kinds(result) == [(16, "limit_exceeded")]
    assert result.findings[0].rule == "S3 R15(k)" and result.findings[0].points == 2


def test_sixteenth_hazard_called_foul() -> None:
    strokes = [*_in_offs(1, 15), stroke(16, "A", ["red"], ["white"], placement="legal", call=foul())]
    result, outcomes = replay(*strokes)  # type: ignore[arg-type]
    assert kinds(result) == []
    assert result.score == (45, 2)
    assert outcomes[15].next_striker == "B"


def test_late_ten_hazards_call_allows_five_more_s3_r11a() -> None:
    """TEN HAZARDS called after the twelfth: the striker may make five more, seventeen in all."""
    strokes = [*_in_offs(1, 12), call(12, "ten_hazards"), *_in_offs(13, 6)]
    result, _ = replay(*strokes)  # type: ignore[arg-type]
    assert kinds(result) == [(18, "limit_exceeded")]


def test_call_made_after_the_fifteenth_still_counts_s3_r11a() -> None:
    """The call first made after the sixteenth hazard: the sixteenth was legal."""
    strokes = [*_in_offs(1, 16), call(16, "ten_hazards")]
    result, _ = replay(*strokes)  # type: ignore[arg-type]
    assert kinds(result) == []


def test_a_cannon_ends_the_run_of_hazards_s3_r11() -> None:
    """A cannon between hazards starts the count again (consecutive hazards only)."""
    strokes = [
        stroke(1, "A", ["red"], placement="legal", score=[0, 0]),
        stroke(2, "B", ["red"], placement="legal", score=[0, 0]),
        *[stroke(n, "A", ["red"], ["red"]) for n in range(3, 13)],
        stroke(13, "A", ["red"], then=["yellow"]),
        *[stroke(n, "A", ["red"], ["red"]) for n in range(14, 29)],
    ]
    result, _ = replay(*strokes)  # type: ignore[arg-type]
    assert [k for k in kinds(result) if k[1] == "limit_exceeded"] == []


def test_opponents_ball_spotted_after_the_fifteenth_hazard_s3_r11c() -> None:
    """B's ball, off the table, goes on the Middle of the Baulk-line after A's fifteenth hazard."""
    strokes = [
        *_in_offs(1, 14),
        stroke(15, "A", ["red"], ["white"], placement="legal", respots=[("yellow", "baulk_middle")]),
    ]
    strokes.append(stroke(16, "A", ["red"], then=["yellow"], placement="legal"))
    result, outcomes = replay(*strokes)  # type: ignore[arg-type]
    assert outcomes[14].respots == (("yellow", "baulk_middle"),)
    assert outcomes[15].scored == 2  # a cannon with the Yellow now in play
    assert kinds(result) == []


def test_opponents_ball_not_spotted_after_the_fifteenth_hazard() -> None:
    strokes = [*_in_offs(1, 14), stroke(15, "A", ["red"], ["white"], placement="legal", respots=[])]
    result, _ = replay(*strokes)  # type: ignore[arg-type]
    assert kinds(result) == [(15, "respot_missing")]
    assert result.findings[0].rule == "S3 R11(c)"


def test_ball_potted_by_the_striker_is_not_spotted_s3_r11c() -> None:
    """B's Yellow potted by B's opponent in this break stays off: only a ball off the table
    from its owner's last turn is spotted."""
    strokes = [
        stroke(1, "A", ["red"], placement="legal", score=[0, 0]),
        stroke(2, "B", ["red"], placement="legal", score=[0, 0]),
        stroke(3, "A", ["yellow"], ["yellow"]),
        *[stroke(n, "A", ["red"], ["red"]) for n in range(4, 18)],
    ]
    result, outcomes = replay(*strokes)  # type: ignore[arg-type]
    assert all(b != "yellow" for o in outcomes for b, _ in o.respots)
    assert kinds(result) == []


def _cannons(first: int, count: int) -> list[object]:
    return [stroke(n, "A", ["red"], then=["yellow"]) for n in range(first, first + count)]


def test_seventy_five_cannons_s3_r10() -> None:
    opening = [stroke(1, "A", ["red"], placement="legal"), stroke(2, "B", ["red"], placement="legal")]
    result, _ = replay(*opening, *_cannons(3, 75))  # type: ignore[arg-type]
    assert kinds(result) == []
    result, outcomes = replay(*opening, *_cannons(3, 76))  # type: ignore[arg-type]
    assert kinds(result) == [(78, "limit_exceeded")]
    assert result.findings[0].rule == "S3 R15(l)"
    assert outcomes[-1].reasons == ("cannons",)


def test_late_seventy_cannons_call_s3_r10a() -> None:
    """SEVENTY CANNONS called after the seventy-second: five more, seventy-seven in all."""
    opening = [stroke(1, "A", ["red"], placement="legal"), stroke(2, "B", ["red"], placement="legal")]
    result, _ = replay(*opening, *_cannons(3, 72), call(74, "seventy_cannons"), *_cannons(75, 5))  # type: ignore[arg-type]
    assert kinds(result) == []
    result, _ = replay(*opening, *_cannons(3, 72), call(74, "seventy_cannons"), *_cannons(75, 6))  # type: ignore[arg-type]
    assert kinds(result) == [(80, "limit_exceeded")]
