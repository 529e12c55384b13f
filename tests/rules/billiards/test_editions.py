"""Where ``billiards/classic`` (seed 000) and ``billiards/one-red`` (seed 002) differ from WPBSA 2024.

Each difference is in RULES-DIGEST "DIFFERENCES B"; each test names the rules on both sides.
"""

from __future__ import annotations

from tests.rules.billiards._build import at, foul, kinds, miss, replay, stroke

OPENING = [stroke(1, "A", ["red"], placement="legal"), stroke(2, "B", ["red"], placement="legal")]
IN_BAULK = [("red", 889.0, 600.0), ("white", 700.0, 500.0)]


def _fives(first: int, count: int, crossed: bool | None = False, **kw: object) -> list[object]:
    return [
        stroke(n, "A", ["red"], ["red"], then=["yellow"], crossed_baulk=crossed, **kw)  # type: ignore[arg-type]
        for n in range(first, first + count)
    ]


def test_classic_has_no_baulk_line_rule() -> None:
    """OB has no Baulk-line crossing rule; B24 S3 R8 applies it when the match says so."""
    strokes = [*OPENING, *_fives(3, 20)]
    result, _ = replay(*strokes, baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == [(22, "limit_exceeded")]
    result, _ = replay(*strokes, rules="billiards/classic", baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == []


def test_classic_measuring_is_not_a_foul() -> None:
    """B24 S3 R15(s) adds measuring (and R15(r) using a ball off the table); OB S3 R14 has neither."""
    s = stroke(1, "A", ["red"], placement="legal", infringements=["measuring"], call=foul(), score=[0, 2])
    result, _ = replay(s)
    assert kinds(result) == []
    result, _ = replay(s, rules="billiards/classic")
    assert kinds(result) == [(1, "unsupported_foul")]


def test_classic_cites_its_own_rules() -> None:
    """The older book's numbering: fouls are OB S3 R14."""
    result, _ = replay(
        stroke(1, "A", ["red"], placement="legal", infringements=["push_stroke"], score=[0, 0]),
        rules="billiards/classic",
    )
    assert [(f.kind, f.rule) for f in result.findings] == [("condoned_foul", "S3 R14")]


def test_classic_fallback_to_spot_stays_in_the_sequence() -> None:
    """B24 S3 R9(b)(ii): back on the Spot is "not then part of a sequence"; OB S3 R8 says nothing,
    so there the count goes on: the next pot from the Spot is the third in succession (Centre)."""
    busy = [at("white", "centre"), at("yellow", "pyramid")]
    far = [("white", 300.0, 300.0), ("yellow", 1500.0, 1500.0)]
    strokes = [
        stroke(1, "A", ["red"], placement="legal", positions=[("red", 889, 3245), ("white", 300, 300)]),
        # The Red was hit at stroke 1: this pot is not from the Spot.
        stroke(2, "B", ["red"], ["red"], placement="legal", positions=far),
        stroke(3, "B", ["red"], ["red"], positions=far),  # first from the Spot
        stroke(4, "B", ["red"], ["red"], respots=[("red", "spot")], positions=busy),  # second: Centre due, occupied
        stroke(5, "B", ["red"], ["red"], positions=far),
        stroke(6, "B", ["red"], ["red"], positions=far),
    ]
    b24 = replay(*strokes)[1]  # type: ignore[arg-type]
    ob = replay(*strokes, rules="billiards/classic")[1]  # type: ignore[arg-type]
    # Stroke 4: the Centre is due but it and the Pyramid are occupied, so the Spot.
    assert [o.respots[0][1] for o in b24[1:]] == ["spot", "spot", "spot", "spot", "centre"]
    assert [o.respots[0][1] for o in ob[1:]] == ["spot", "spot", "spot", "centre", "spot"]


def test_classic_only_the_striker_may_concede() -> None:
    """OB S4 R6: a concession by the player not at the table; B24 S4 R4 allows any player."""
    from tests.rules.billiards._build import end, event

    records = [stroke(1, "A", ["red"], ["white"], placement="legal"), event(1, "concede", "B"), end("A", "concede")]
    assert kinds(replay(*records)[0]) == []  # type: ignore[arg-type]
    assert kinds(replay(*records, rules="billiards/classic")[0]) == [(1, "frame_end_error")]  # type: ignore[arg-type]


def test_one_red_missing_all_balls_is_a_foul() -> None:
    """1R 2.11(15): missing all object balls is a foul even from the D with both in the house;
    B24 S2 R16 makes it a MISS, not a foul."""
    records = [
        stroke(1, "A", ["red"], placement="legal", positions=IN_BAULK),
        stroke(2, "B", [], placement="legal", cue_first=True, call=miss(), score=[2, 0]),
    ]
    assert kinds(replay(*records)[0]) == []  # type: ignore[arg-type]
    result, outcomes = replay(*records, rules="billiards/one-red")  # type: ignore[arg-type]
    assert outcomes[1].foul and outcomes[1].reasons == ("no_contact",)
    assert [(f.kind, f.rule) for f in result.findings] == [("miss_error", "1R 2.11(15)")]


def test_one_red_applies_the_baulk_line_rule_by_default() -> None:
    """1R 2.13.1 states the crossing rule without condition; B24 S3 R8 only "where applied"."""
    strokes = [*OPENING, *_fives(3, 20)]
    assert kinds(replay(*strokes)[0]) == []  # type: ignore[arg-type]
    result, _ = replay(*strokes, rules="billiards/one-red")  # type: ignore[arg-type]
    assert [(f.n, f.kind, f.rule) for f in result.findings] == [(22, "limit_exceeded", "1R 2.13.4")]


def test_one_red_stopping_centrally_on_the_line_is_a_crossing() -> None:
    """1R 2.13.1: the centre on the line counts; B24 S3 R8(b): centrally on the line has not crossed."""
    on_line = [("white", 400.0, 737.0), ("red", 889.0, 3000.0), ("yellow", 1200.0, 2000.0)]
    strokes = [
        *OPENING,
        *_fives(3, 17, crossed=None, positions=[("white", 400.0, 2000.0), ("yellow", 1200.0, 2000.0)]),
        stroke(20, "A", ["red"], ["red"], then=["yellow"], positions=on_line),
        *_fives(21, 2, crossed=False),
    ]
    result, _ = replay(*strokes, rules="billiards/one-red")  # type: ignore[arg-type]
    assert kinds(result) == []
    result, _ = replay(*strokes, baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == []  # B24: not a crossing, but unknown whether it crossed and came back


def test_classic_wrong_ball_on_the_opening_stroke_is_void() -> None:
    """OB S3 R2: the opening stroke with the wrong white is void and the game starts again;
    B24 S3 R2(c), R15(a): the striker's responsibility, a foul."""
    records = [
        stroke(1, "A", ["red"], ["red"], placement="legal", infringements=["wrong_cue_ball"], score=[0, 0]),
        stroke(2, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[3, 0]),
    ]
    result, outcomes = replay(*records, rules="billiards/classic")  # type: ignore[arg-type]
    assert kinds(result) == []
    assert outcomes[0].reasons == ("void",) and outcomes[0].scored == 0
    assert result.score == (3, 0)
    result, _ = replay(*records)  # type: ignore[arg-type]
    assert kinds(result) == [(1, "condoned_foul"), (1, "score_mismatch")]


def test_one_red_touching_ball_only_by_consent() -> None:
    """1R 2.10: the re-spot needs both players' consent, so none recorded is no finding;
    B24 S3 R14(a): the referee must re-spot."""
    touching = [("white", 1000.0, 2500.0), ("yellow", 1000.0, 2552.0), ("red", 300.0, 3000.0)]
    records = [
        stroke(1, "A", ["red"], placement="legal", positions=[("white", 1000, 1000), ("red", 300, 3000)]),
        stroke(
            2,
            "B",
            ["red"],
            placement="legal",
            positions=[("white", 1000, 1000), ("yellow", 1000, 2552), ("red", 300, 3000)],
        ),
        stroke(3, "A", ["yellow"], then=["red"], positions=touching, respots=[]),
        stroke(4, "A", ["yellow"], then=["red"]),
    ]
    assert kinds(replay(*records, rules="billiards/one-red")[0]) == []  # type: ignore[arg-type]
    assert kinds(replay(*records)[0]) == [(3, "respot_missing"), (3, "respot_missing")]  # type: ignore[arg-type]
