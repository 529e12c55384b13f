"""S3 R9 spotting the Red (and its sequence), S3 R14 touching ball, respot findings."""

from __future__ import annotations

from tests.rules.billiards._build import at, kinds, replay, stroke, uncertain

W = ("white", 500.0, 1000.0)  # A's ball resting well away from every spot


def _pot(n: int, spot: str, *, positions: list[tuple[str, float, float]] | None = None, **kw: object) -> object:
    """A lone pot of the Red by A (White stays at W), the Red re-spotted on ``spot``."""
    return stroke(n, "A", ["red"], ["red"], respots=[("red", spot)], positions=positions or [W], **kw)  # type: ignore[arg-type]


def test_red_goes_to_the_spot_s3_r9a() -> None:
    result, outcomes = replay(_pot(1, "spot", placement="legal"))  # type: ignore[arg-type]
    assert outcomes[0].respots == (("red", "spot"),)
    assert kinds(result) == []


def test_spot_occupied_pyramid_s3_r9a_i() -> None:
    """The White rests on the Spot: the Red goes on the Pyramid Spot; the Spot is wrong."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], positions=[at("white", "spot")])
    )
    assert outcomes[0].respots == (("red", "pyramid"),)
    assert kinds(result) == [(1, "respot_wrong_spot")]
    assert result.findings[0].rule == "S3 R9(a)"


def test_spot_and_pyramid_occupied_centre_s3_r9a_ii() -> None:
    result, outcomes = replay(
        stroke(1, "A", ["red"], placement="legal", score=[0, 0]),
        stroke(
            2,
            "B",
            ["red"],
            ["red"],
            then=["white"],
            placement="legal",
            respots=[("red", "centre")],
            positions=[at("white", "spot"), at("yellow", "pyramid")],
        ),
    )
    assert outcomes[1].respots == (("red", "centre"),)
    assert kinds(result) == []


def test_potted_twice_from_the_spot_goes_to_the_centre_s3_r9b() -> None:
    result, outcomes = replay(_pot(1, "spot", placement="legal"), _pot(2, "spot"))  # type: ignore[arg-type]
    assert outcomes[1].respots == (("red", "centre"),)
    assert kinds(result) == [(2, "respot_wrong_spot")]
    assert result.findings[0].rule == "S3 R9(b)"


def test_continued_pots_spot_twice_then_centre_s3_r9c() -> None:
    """Spot, Centre, then Spot twice and the Centre once, in sequence."""
    spots = ["spot", "centre", "spot", "spot", "centre", "spot", "spot", "centre"]
    strokes = [_pot(i + 1, s, placement="legal" if i == 0 else None) for i, s in enumerate(spots)]
    result, outcomes = replay(*strokes)  # type: ignore[arg-type]
    assert [o.respots[0][1] for o in outcomes] == spots
    assert kinds(result) == []


def _pot_unplaced(n: int, spot: str | None, **kw: object) -> object:
    """A lone pot of the Red by A as a recorder that keeps no positions writes it: the Red
    re-spotted on ``spot``, or its respot not recorded (None)."""
    respots = None if spot is None else [("red", spot)]
    return stroke(n, "A", ["red"], ["red"], respots=respots, **kw)  # type: ignore[arg-type]


def test_continued_pots_without_positions_spot_twice_then_centre_s3_r9c() -> None:
    """The same sequence from a log without positions: the first spot of each chain is due."""
    spots = ["spot", "centre", "spot", "spot", "centre", "spot"]
    strokes = [_pot_unplaced(i + 1, s, placement="legal" if i == 0 else None) for i, s in enumerate(spots)]
    result, outcomes = replay(*strokes)  # type: ignore[arg-type]
    assert [o.respots for o in outcomes] == [(("red", s),) for s in spots]
    assert [o.scored for o in outcomes] == [3] * 6
    assert kinds(result) == []


def test_respots_not_recorded_are_due_where_the_sequence_puts_them_s3_r9b() -> None:
    """No respot recorded: the Red is still due on the Spot, then the Centre (nothing to
    find: the log is silent), and the sequence goes on from where it put the Red."""
    strokes = [_pot_unplaced(i + 1, None, placement="legal" if i == 0 else None) for i in range(4)]
    result, outcomes = replay(*strokes)  # type: ignore[arg-type]
    assert [o.respots for o in outcomes] == [(("red", s),) for s in ("spot", "centre", "spot", "spot")]
    assert kinds(result) == []


def test_second_lone_pot_recorded_on_the_spot_without_positions_s3_r9b() -> None:
    """The Centre was due; on the Spot the Red is right only if the Centre and the Pyramid
    were occupied, which a log without positions cannot say (docs/rulings.md 14)."""
    result, outcomes = replay(_pot_unplaced(1, "spot", placement="legal"), _pot_unplaced(2, "spot"))  # type: ignore[arg-type]
    assert outcomes[1].respots == (("red", "centre"),)
    assert kinds(result) == []
    assert uncertain(result) == [(2, "respot_wrong_spot", "the Centre Spot and the Pyramid Spot were both occupied")]
    assert result.findings[0].rule == "S3 R9(b)"


def test_pot_with_another_score_breaks_the_sequence_s3_r9b() -> None:
    """A pot of the Red with an in-off is not a lone pot: the sequence starts again."""
    result, outcomes = replay(
        _pot(1, "spot", placement="legal"),  # type: ignore[arg-type]
        stroke(2, "A", ["red"], ["red", "white"], respots=[("red", "spot")]),
        _pot(3, "spot", placement="legal"),  # type: ignore[arg-type]
        _pot(4, "centre"),  # type: ignore[arg-type]
    )
    assert [o.respots[0][1] for o in outcomes] == ["spot", "spot", "spot", "centre"]
    assert kinds(result) == []


def test_red_contacted_is_no_longer_spotted_s3_r9g() -> None:
    """The Red on the Spot hit in a stroke is no longer "spotted" though it may not have moved:
    a pot of it in the next stroke is not a pot from the Spot, so the sequence starts later."""
    result, outcomes = replay(
        _pot(1, "spot", placement="legal"),  # type: ignore[arg-type]
        stroke(2, "A", ["red"], ["white"], positions=[at("red", "spot")]),  # in-off Red, Red still on the Spot
        _pot(3, "spot", placement="legal"),  # type: ignore[arg-type]
        _pot(4, "spot"),  # type: ignore[arg-type]
        _pot(5, "centre"),  # type: ignore[arg-type]
    )
    assert [o.respots[0][1] for o in outcomes if o.respots] == ["spot", "spot", "spot", "centre"]
    assert kinds(result) == []


def test_fallback_to_spot_resets_the_count_s3_r9b_ii() -> None:
    """Second lone pot from the Spot with Centre and Pyramid occupied: the Red goes back on the
    Spot and the count starts again: the next lone pot is the first of a new sequence."""
    busy = [at("white", "centre"), at("yellow", "pyramid")]
    far = [("white", 300.0, 300.0), ("yellow", 1500.0, 1500.0)]
    result, outcomes = replay(
        stroke(1, "A", ["red"], placement="legal", score=[0, 0], positions=[("red", 889, 3245), ("white", 300, 300)]),
        stroke(2, "B", ["red"], ["red"], placement="legal", respots=[("red", "spot")], positions=far),
        stroke(3, "B", ["red"], ["red"], respots=[("red", "spot")], positions=far),
        stroke(4, "B", ["red"], ["red"], respots=[("red", "spot")], positions=busy),
        stroke(5, "B", ["red"], ["red"], respots=[("red", "spot")], positions=far),
        stroke(6, "B", ["red"], ["red"], respots=[("red", "centre")], positions=far),
    )
    # Due: stroke 4 the Centre, occupied as is the Pyramid, so the Spot; stroke 5 the Spot
    # (first of a new sequence), stroke 6 the Centre.
    assert [o.respots[0][1] for o in outcomes[1:]] == ["spot", "spot", "spot", "spot", "centre"]
    assert kinds(result) == []


def test_respot_missing() -> None:
    """The Red not spotted after a pot (S3 R9(a))."""
    result, _ = replay(stroke(1, "A", ["red"], ["red"], placement="legal", respots=[], positions=[W]))
    assert kinds(result) == [(1, "respot_missing")]


def test_respot_in_error() -> None:
    """The Red spotted though it never left the table."""
    result, _ = replay(
        _pot(1, "spot", placement="legal"),  # type: ignore[arg-type]
        stroke(2, "A", ["red"], respots=[("red", "spot")]),
    )
    assert kinds(result) == [(2, "respot_in_error")]


def test_opponents_ball_spotted_in_error() -> None:
    result, _ = replay(
        stroke(
            1, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot"), ("yellow", "centre")], positions=[W]
        )
    )
    assert kinds(result) == [(1, "respot_in_error")]


def test_unknown_positions_accept_the_fallback_spots() -> None:
    """Without positions, a ball on the table might occupy the Spot: the Pyramid is accepted,
    as an uncertain finding that names the fact which would excuse it (S3 R9(a), S2 R20)."""
    result, outcomes = replay(stroke(1, "A", ["red"], ["red"], placement="legal", respots=[("red", "pyramid")]))
    assert outcomes[0].respots == (("red", "spot"),)
    assert kinds(result) == []
    assert uncertain(result) == [(1, "respot_wrong_spot", "the Spot was occupied")]


def test_s3_r9b_red_on_the_spot_where_the_centre_was_due_is_uncertain() -> None:
    """S3 R9(b)(ii): potted from the Spot a second time, the Red goes to the Centre Spot, and
    to the Spot only when the Centre and Pyramid are both occupied, which the log without
    positions does not say: one uncertain ``respot_wrong_spot``, not counted as certain."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[3, 0]),
        stroke(2, "A", ["red"], ["red"], respots=[("red", "spot")], score=[6, 0]),
    )
    assert outcomes[1].respots == (("red", "centre"),)
    assert kinds(result) == []
    assert uncertain(result) == [(2, "respot_wrong_spot", "the Centre Spot and the Pyramid Spot were both occupied")]


def test_no_other_ball_on_the_table_pins_the_spot() -> None:
    """After an in-off with the opponent's ball off the table nothing can occupy a spot."""
    result, _ = replay(stroke(1, "A", ["red"], ["red", "white"], placement="legal", respots=[("red", "pyramid")]))
    assert kinds(result) == [(1, "respot_wrong_spot")]


def test_touching_ball_s3_r14a() -> None:
    """A's ball rests touching the Yellow after a score: Red on the Spot, Yellow on the Centre,
    A plays from in-hand (an in-hand stroke then shows ``placement``)."""
    touching = [("white", 1000.0, 2500.0), ("yellow", 1000.0, 2552.0), ("red", 300.0, 3000.0)]
    result, outcomes = replay(
        stroke(1, "A", ["red"], placement="legal", score=[0, 0], positions=[("white", 1000, 1000), ("red", 300, 3000)]),
        stroke(
            2,
            "B",
            ["red"],
            placement="legal",
            score=[0, 0],
            positions=[("white", 1000, 1000), ("yellow", 1000, 2552), ("red", 300, 3000)],
        ),
        stroke(
            3,
            "A",
            ["yellow"],
            then=["red"],
            score=[2, 0],
            positions=touching,
            respots=[("red", "spot"), ("yellow", "centre")],
        ),
        stroke(4, "A", [], placement="illegal", call=None, score=[2, 0]),
    )
    assert outcomes[2].respots == (("red", "spot"), ("yellow", "centre"))
    # Stroke 4 is from in-hand: the illegal placement is a foul the referee did not call.
    assert kinds(result) == [(4, "condoned_foul")]


def test_touching_ball_respots_missing() -> None:
    touching = [("white", 1000.0, 2500.0), ("yellow", 1000.0, 2552.0), ("red", 300.0, 3000.0)]
    result, _ = replay(
        stroke(1, "A", ["red"], placement="legal", score=[0, 0], positions=[("white", 1000, 1000), ("red", 300, 3000)]),
        stroke(
            2,
            "B",
            ["red"],
            placement="legal",
            score=[0, 0],
            positions=[("white", 1000, 1000), ("yellow", 1000, 2552), ("red", 300, 3000)],
        ),
        stroke(3, "A", ["yellow"], then=["red"], score=[2, 0], positions=touching, respots=[]),
    )
    assert kinds(result) == [(3, "respot_missing"), (3, "respot_missing")]
    assert {f.rule for f in result.findings} == {"S3 R14(a)"}


def test_potted_again_from_the_spot_by_mistake_goes_to_the_centre_s3_r9b() -> None:
    """ "Twice, or more by mistake": the Red wrongly put back on the Spot after the second pot
    and potted from it a third time still goes to the Centre Spot."""
    result, outcomes = replay(
        _pot(1, "spot", placement="legal"),  # type: ignore[arg-type]
        _pot(2, "spot"),  # type: ignore[arg-type]  (the Centre was due)
        _pot(3, "centre"),  # type: ignore[arg-type]
        _pot(4, "spot"),  # type: ignore[arg-type]
    )
    assert [o.respots[0][1] for o in outcomes] == ["spot", "centre", "centre", "spot"]
    assert kinds(result) == [(2, "respot_wrong_spot")]
