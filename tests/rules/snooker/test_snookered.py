"""Snookered from rest positions: S2 R17, S3 R12 (FREE BALL due, R12(b)(ii)), S3 R19(d)."""

from __future__ import annotations

from cuelog.replay.model import CONDONED_FOUL, FREE_BALL_ERROR
from cuelog.replay.snooker import snookered, snookered_in_hand

from ._build import foul, kinds, replay, stroke


def _table(cue: tuple[float, float], blocker: tuple[str, float, float]) -> list[tuple[str, float, float]]:
    """One Red at (400, 2500); the cue-ball; one colour placed by the test; Black on its spot."""
    return [("white", *cue), ("red", 400.0, 2500.0), blocker, ("black", 889.0, 3245.0)]


SNOOKERED = _table((400.0, 1000.0), ("blue", 400.0, 1800.0))
OPEN = _table((400.0, 1000.0), ("blue", 1400.0, 1800.0))


def test_s2_r17_straight_line_obstructed() -> None:
    """S2 R17: a ball not on in the straight line snookers; the same ball aside does not."""
    assert snookered((400.0, 1000.0), [(400.0, 2500.0)], [(400.0, 1800.0)]) == {(400.0, 1800.0)}
    assert snookered((400.0, 1000.0), [(400.0, 2500.0)], [(1400.0, 1800.0)]) is None


def test_s2_r17_partial_obstruction_of_an_edge_snookers() -> None:
    """S2 R17: "wholly or partially obstructed": a ball covering one extreme edge is enough."""
    assert snookered((400.0, 1000.0), [(400.0, 2500.0)], [(450.0, 1800.0)]) is not None


def test_s2_r17b_nearest_obstructing_ball_is_effective() -> None:
    """S2 R17(b)(i): of two obstructing balls the one nearest the cue-ball is the snookering ball."""
    assert snookered((400.0, 1000.0), [(400.0, 2500.0)], [(400.0, 1800.0), (400.0, 1300.0)]) == {(400.0, 1300.0)}


def test_s3_r12_free_ball_not_called_when_snookered() -> None:
    """S3 R12: after the foul the incoming player is snookered on the only Red: FREE BALL is due."""
    result, (o,) = replay(stroke(1, "A", [], call=foul(4), positions=SNOOKERED), reds=1)
    assert o.free_ball
    assert kinds(result) == [(1, FREE_BALL_ERROR)]


def test_s3_r12_free_ball_called_when_not_snookered() -> None:
    """S3 R12: FREE BALL called though the Red can be hit at both edges."""
    result, (o,) = replay(stroke(1, "A", [], call=foul(4, free_ball=True), positions=OPEN), reds=1)
    assert not o.free_ball
    assert kinds(result) == [(1, FREE_BALL_ERROR)]


def test_s3_r12b_ii_snookered_by_the_nominated_free_ball_is_a_foul() -> None:
    """S3 R12(b)(ii), R11(a)(viii): after a non-scoring free-ball stroke the Red is hidden by that ball."""
    result, (_, o) = replay(
        stroke(1, "A", [], call=foul(4, free_ball=True), positions=SNOOKERED),
        stroke(2, "B", ["blue"], nominated="blue", positions=_table((400.0, 1000.0), ("blue", 400.0, 1700.0))),
        reds=1,
    )
    assert o.foul and o.reasons == ("free_ball_snooker",) and o.penalty == 4
    assert kinds(result) == [(2, CONDONED_FOUL)]


def test_s3_r12b_ii_exception_black_and_one_other_colour() -> None:
    """S3 R12(b)(ii): no foul when only two object balls remain (here Pink and Black)."""
    positions = [("white", 400.0, 1000.0), ("pink", 400.0, 2500.0), ("black", 400.0, 1700.0)]
    result, outcomes = replay(
        *[stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue"])],
        stroke(5, "A", [], call=foul(6, free_ball=True)),
        stroke(6, "B", ["black"], nominated="black", positions=positions),
        reds=0,
    )
    assert not outcomes[-1].foul and kinds(result) == []


def test_s3_r19d_six_reds_snookered_behind_nominated_colour() -> None:
    """S3 R19(d), R11(a)(ix): six reds; after a Red, A leaves B snookered behind the nominated Pink: six."""
    positions = _table((400.0, 1000.0), ("pink", 400.0, 1800.0))
    result, (_, o) = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["pink"], nominated="pink", positions=positions, call=foul(6, free_ball=True)),
        rules="snooker/six-reds-2024",
        reds=2,
    )
    # B is snookered after the foul, so FREE BALL is due as well (S3 R12).
    assert o.foul and o.reasons == ("snookered_behind_nominated",) and o.penalty == 6 and o.free_ball
    assert kinds(result) == []


def test_s3_r19d_snookering_behind_the_colour_is_no_foul_in_snooker() -> None:
    """S3 R19(d) is a Six Reds rule: in snooker the same stroke is a good safety."""
    positions = _table((400.0, 1000.0), ("pink", 400.0, 1800.0))
    _, (_, o) = replay(
        stroke(1, "A", ["red"], ["red"]), stroke(2, "A", ["pink"], nominated="pink", positions=positions), reds=2
    )
    assert not o.foul


# -- in hand: S2 R17(a), "from all possible positions on or within the lines of the D" --------

RED_BEHIND_BLUE = [("red", 889.0, 3000.0), ("blue", 889.0, 2940.0)]
RED_ONLY_HALF_HIDDEN = [("red", 889.0, 3000.0), ("blue", 889.0, 1800.0)]


def test_s2_r17a_in_hand_snookered_from_every_position_in_the_d() -> None:
    """S2 R17(a): a Blue just in front of the only Red hides one of its edges from every
    point of the D; a Blue on its spot hides it from the middle of the D but not from its
    ends, so the cue-ball in hand is not snookered."""
    assert snookered_in_hand([(889.0, 3000.0)], [(889.0, 2940.0)])
    assert not snookered_in_hand([(889.0, 3000.0)], [(889.0, 1800.0)])
    assert snookered((889.0, 737.0), [(889.0, 3000.0)], [(889.0, 1800.0)]) is not None


def test_s3_r12_free_ball_due_after_an_in_off_leaving_the_d_snookered() -> None:
    """S3 R12, S2 R17(a): A goes in-off; from anywhere in the D the only Red is hidden by the
    Blue: FREE BALL is due for B, and not calling it is a free_ball_error."""
    result, (o,) = replay(stroke(1, "A", ["red"], ["white"], call=foul(4), positions=RED_BEHIND_BLUE), reds=1)
    assert o.free_ball and o.foul and o.penalty == 4
    assert kinds(result) == [(1, FREE_BALL_ERROR)]
    result, (o,) = replay(
        stroke(1, "A", ["red"], ["white"], call=foul(4, free_ball=True), positions=RED_BEHIND_BLUE), reds=1
    )
    assert kinds(result) == []


def test_s3_r12_free_ball_called_in_hand_when_part_of_the_d_sees_the_red() -> None:
    """S3 R12, S2 R17(a): after the in-off the Red can be hit at both edges from the ends of
    the D: FREE BALL called is a free_ball_error."""
    result, (o,) = replay(
        stroke(1, "A", ["red"], ["white"], call=foul(4, free_ball=True), positions=RED_ONLY_HALF_HIDDEN), reds=1
    )
    assert not o.free_ball
    assert kinds(result) == [(1, FREE_BALL_ERROR)]
