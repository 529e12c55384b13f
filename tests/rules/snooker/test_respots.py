"""Spotting colours: S3 R7(a)-(j), R12(c), S2 R18."""

from __future__ import annotations

from cuelog.replay.model import RESPOT_IN_ERROR, RESPOT_MISSING, RESPOT_WRONG_SPOT
from cuelog.replay.snooker import SPOTS, apply, finish, new_frame
from cuelog.schemas.records import Frame, Match, Respot, Stroke

from ._build import event, foul, kinds, replay, stroke

RED = stroke(1, "A", ["red"], ["red"])


def _on(spot: str, ball: str = "red") -> tuple[str, float, float]:
    x, y = SPOTS[spot]
    return (ball, x, y)


def test_s3_r7_colour_potted_while_reds_remain_is_spotted() -> None:
    """S3 R7: a colour potted while Reds remain goes back on its own spot."""
    _, (_, o) = replay(RED, stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]))
    assert o.respots == (("pink", "pink"),)


def test_s3_r7_respot_missing_and_correction() -> None:
    """S3 R7, R7(c)(i): Pink not spotted (respot_missing); a spot_correction puts it back for later."""
    result, _outcomes = replay(
        RED,
        stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[]),
        stroke(3, "A", ["red"], ["red"]),
        event(3, "spot_correction", ball="pink", spot="pink"),
        stroke(4, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]),
    )
    assert kinds(result) == [(2, RESPOT_MISSING)]
    assert result.score == (14, 0)


def test_s3_r7c_missing_colour_potted_later_is_the_same_error() -> None:
    """S3 R7(c), FORMAT 7: the Pink reported missing is potted later, so it was put back
    unrecorded: that is the error already reported, not a new one."""
    result, _ = replay(
        RED,
        stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[]),
        stroke(3, "A", ["red"], ["red"]),
        stroke(4, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]),
    )
    assert kinds(result) == [(2, RESPOT_MISSING)]
    assert result.score == (14, 0)


def test_colour_potted_that_was_never_on_the_table_is_invalid() -> None:
    """FORMAT 7 ``invalid_record``: Yellow potted twice in the colours without being spotted."""
    result, _ = replay(
        stroke(1, "A", ["yellow"], ["yellow"], respots=[]), stroke(2, "A", ["yellow"], ["yellow"]), reds=0
    )
    assert (2, "invalid_record") in kinds(result)


def test_s3_r7b_colour_in_sequence_spotted_in_error() -> None:
    """S3 R3(h)(iii), R7(b): Yellow potted in sequence stays off; spotting it is an error."""
    result, (o,) = replay(stroke(1, "A", ["yellow"], ["yellow"], respots=[("yellow", "yellow")]), reds=0)
    assert o.respots == ()
    assert kinds(result) == [(1, RESPOT_IN_ERROR)]


def test_s3_r7d_red_spotted_in_error() -> None:
    """S3 R7(d)(ii): a Red spotted instead of the Black after the last Red: reported, and the frame
    goes on with that Red in play (a "sixteen Red frame"): the next Red potted scores, Red is on."""
    result, outcomes = replay(
        RED,
        stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("red", "black"), ("black", "black")]),
        stroke(3, "A", ["red"], ["red"]),
        reds=1,
    )
    assert kinds(result) == [(2, RESPOT_IN_ERROR)]
    assert outcomes[2].ball_on == "red" and outcomes[2].scored == 1


def test_s3_r7e_own_spot_occupied_goes_to_highest_free_spot() -> None:
    """S3 R7(e), S2 R18: Black's spot occupied by a Red: the Black goes on the Pink spot."""
    positions = [_on("black"), ("white", 900.0, 1000.0)]
    result, (_, o) = replay(
        RED,
        stroke(2, "A", ["black"], ["black"], nominated="black", positions=positions, respots=[("black", "pink")]),
    )
    assert o.respots == (("black", "pink"),) and kinds(result) == []


def test_s3_r7e_wrong_spot_reported() -> None:
    """S3 R7(e),(j): Black's spot free but the Black was put on the Pink spot."""
    positions = [("white", 900.0, 1000.0)]
    result, (_, o) = replay(
        RED,
        stroke(2, "A", ["black"], ["black"], nominated="black", positions=positions, respots=[("black", "pink")]),
    )
    assert o.respots == (("black", "black"),)
    assert kinds(result) == [(2, RESPOT_WRONG_SPOT)]


def test_s3_r7f_several_colours_highest_value_first() -> None:
    """S3 R7(e),(f): Black and Pink both to spot, the Black spot occupied.

    The Black is spotted first and takes the highest free spot, the Pink spot; the Pink's own
    spot is then occupied, so it goes to the highest free spot left, the Blue spot.
    """
    positions = [_on("black"), ("white", 900.0, 1000.0)]
    _, (o,) = replay(
        stroke(1, "A", ["red"], ["black", "pink"], positions=positions, respots=[("black", "pink"), ("pink", "blue")])
    )
    assert o.respots == (("black", "pink"), ("pink", "blue"))


def test_s3_r7g_all_spots_occupied_near_own_spot() -> None:
    """S3 R7(g),(h): every spot occupied: the colour goes as near its own spot as possible (``near``)."""
    positions = [_on(c) for c in ("yellow", "green", "brown", "blue", "pink", "black") if c != "green"]
    positions.append(_on("green", "red"))
    _, (_, o) = replay(
        RED,
        stroke(2, "A", ["green"], ["green"], nominated="green", positions=positions, respots=[("green", "near")]),
    )
    assert o.respots == (("green", "near"),)


def test_s3_r7_without_positions_any_spot_is_accepted() -> None:
    """FORMAT 1.2, S2 R18: without positions, whether a spot was occupied is unknown: no finding."""
    result, _ = replay(RED, stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "pink")]))
    assert kinds(result) == []


def test_s3_r12c_potted_free_ball_is_spotted_in_sequence() -> None:
    """S3 R12(c): a free ball potted during the colours is spotted; leaving it off is respot_missing."""
    result, _ = replay(
        stroke(1, "A", ["green"], call=foul(4, free_ball=True)),
        stroke(2, "B", ["pink"], ["pink"], nominated="pink", respots=[]),
        reds=0,
    )
    assert kinds(result) == [(2, RESPOT_MISSING)]


# -- S3 R7(b): a colour potted in sequence and spotted in error ----------------------------

YELLOW_IN_ERROR = stroke(1, "A", ["yellow"], ["yellow"], respots=[("yellow", "yellow")], score=[2, 0])
YELLOW_AGAIN = stroke(2, "A", ["yellow"], ["yellow"], respots=[], score=[4, 0])


def test_s3_r7b_colour_spotted_in_error_is_played_as_on_until_discovered() -> None:
    """S3 R7(b),(c): the Yellow, potted in sequence, is put back in error. Until the error is
    discovered it is played as correctly spotted: potting it again is no foul and scores,
    then the Green is on. The error is reported once, where it was made."""
    result, outcomes = replay(
        YELLOW_IN_ERROR, YELLOW_AGAIN, stroke(3, "A", ["green"], ["green"], respots=[], score=[7, 0]), reds=0
    )
    assert [(o.ball_on, o.foul, o.scored) for o in outcomes[1:]] == [("yellow", False, 2), ("green", False, 3)]
    assert kinds(result) == [(1, RESPOT_IN_ERROR)]
    assert result.score == (7, 0)


def test_s3_r7b_removed_without_penalty_when_discovered() -> None:
    """S3 R7(b): discovered before it is potted again: the Yellow is taken off, no penalty,
    and play goes on from the resulting position with the Green on."""
    result, (_, o) = replay(
        YELLOW_IN_ERROR,
        event(1, "spot_correction", ball="yellow", remove=True),
        stroke(2, "A", ["green"], ["green"], respots=[], score=[5, 0]),
        reds=0,
    )
    assert o.ball_on == "green" and o.scored == 3 and not o.foul
    assert kinds(result) == [(1, RESPOT_IN_ERROR)]
    assert result.score == (5, 0)


def test_s3_r7b_discovered_before_the_next_stroke_the_points_do_not_count() -> None:
    """S3 R7(b): the Yellow is potted again and the error discovered before the next stroke:
    "the points scored shall count after the next stroke is played", so these two do not;
    they come off the score and off the break."""
    result, _ = replay(
        YELLOW_IN_ERROR,
        YELLOW_AGAIN,
        event(2, "spot_correction", ball="yellow", remove=True),
        stroke(3, "A", ["green"], ["green"], respots=[], score=[5, 0]),
        reds=0,
    )
    assert kinds(result) == [(1, RESPOT_IN_ERROR)]
    assert result.score == (5, 0)
    assert [(b.side, b.points) for b in result.breaks] == [("A", 5)]


def test_s3_r7b_discovered_after_the_next_stroke_the_points_count() -> None:
    """S3 R7(b): discovered only after the next stroke was played: the points count."""
    result, _ = replay(
        YELLOW_IN_ERROR,
        YELLOW_AGAIN,
        stroke(3, "A", ["green"], ["green"], respots=[], score=[7, 0]),
        event(3, "spot_correction", ball="yellow", remove=True),
        reds=0,
    )
    assert result.score == (7, 0)
    assert kinds(result) == [(1, RESPOT_IN_ERROR)]


def test_s3_r7b_an_infringement_before_the_next_stroke_makes_the_points_count() -> None:
    """S3 R7(b): "or after an infringement is committed prior to playing the next stroke":
    A touches a ball before striking (four to B); the later discovery takes nothing back."""
    result, _ = replay(
        YELLOW_IN_ERROR,
        YELLOW_AGAIN,
        event(2, "foul", side="A", code="touched_ball", points=4),
        event(2, "spot_correction", ball="yellow", remove=True),
        reds=0,
    )
    assert result.score == (4, 4)
    assert kinds(result) == [(1, RESPOT_IN_ERROR)]


def test_s3_r7b_wrong_scoreboard_after_discovery_is_a_mismatch() -> None:
    """S3 R7(b): the marker leaves the two points on after the timely discovery: the next
    scoreboard is two out."""
    result, _ = replay(
        YELLOW_IN_ERROR,
        YELLOW_AGAIN,
        event(2, "spot_correction", ball="yellow", remove=True),
        stroke(3, "A", ["green"], ["green"], respots=[], score=[7, 0]),
        reds=0,
    )
    assert [(f.n, f.kind, f.points) for f in result.findings] == [(1, RESPOT_IN_ERROR, 2), (3, "score_mismatch", 2)]


def test_s3_r7c_i_missing_colour_put_back_on_a_later_stroke_is_the_correction() -> None:
    """S3 R7(c)(i): the Pink left off (one ``respot_missing``) and put back by the referee in a
    later stroke's ``respots`` is spotted "without penalty when discovered", as a
    ``spot_correction`` would be: not a ``respot_in_error``."""
    result, _ = replay(
        RED,
        stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[]),
        stroke(3, "A", ["red"], ["red"], respots=[("pink", "pink")]),
        stroke(4, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]),
    )
    assert kinds(result) == [(2, RESPOT_MISSING)]
    assert result.score == (14, 0)


def _scaled_match(table_mm: list[float]) -> Match:
    return Match(
        format="cuelog/1", match="t", rules="snooker/wpbsa-2024", sides={"A": "a", "B": "b"}, table_mm=table_mm
    )


def test_s1_r1_spots_scale_with_the_table_size() -> None:
    """S1 R1(d)-(f), S3 R7(e): on a 1600 x 3200 mm table the Pink spot lies midway between the
    Blue spot and the top cushion of that table. The Pink put back there by coordinates is on
    its own spot; the standard table's spot would read it as ``near`` and wrong."""
    w, length = 1600.0, 3200.0
    pink = (w / 2, (length / 2 + length) / 2)
    records = [
        stroke(1, "A", ["red"], ["red"]),
        Stroke(
            frame=1,
            n=2,
            striker="A",
            first=["pink"],
            potted=["pink"],
            nominated="pink",
            positions=[("white", 300.0, 900.0), ("red", 300.0, 2000.0)],
            respots=[Respot(ball="pink", x=pink[0], y=pink[1])],
        ),
    ]
    state = new_frame(_scaled_match([w, length]), Frame(frame=1, breaker="A"))
    outcomes = []
    for r in records:
        state, o, _ = apply(state, r)
        outcomes.append(o)
    result = finish(state)
    assert [(f.n, f.kind) for f in result.findings] == []
    assert outcomes[1] is not None and outcomes[1].respots == (("pink", "pink"),)


def test_s2_r18_occupied_spot_is_judged_on_the_scaled_table() -> None:
    """S2 R18, S3 R7(e): on a 1600 x 3200 mm table a Red lying on that table's Black spot
    occupies it, so the Black goes to the Pink spot; a Red where the standard table's Black
    spot would be does not."""
    w, length = 1600.0, 3200.0
    black = (w / 2, length - 324.0 * length / 3569)
    state = new_frame(_scaled_match([w, length]), Frame(frame=1, breaker="A"))
    state, _, _ = apply(state, stroke(1, "A", ["red"], ["red"]))
    on_black = [("red", black[0], black[1]), ("white", 300.0, 900.0)]
    _, o, findings = apply(
        state, stroke(2, "A", ["black"], ["black"], nominated="black", positions=on_black, respots=[("black", "pink")])
    )
    assert o is not None and o.respots == (("black", "pink"),) and findings == []
