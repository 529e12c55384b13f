"""The table's strings, spots and rack outline the pool rules measure against (WPA 8.1,
4.2, 4.8)."""

from __future__ import annotations

import math

from cuelog.replay.pool.common import BALL_MM
from cuelog.replay.pool.table import Table


def test_wpa_8_1_strings_and_spots_on_the_match_table() -> None:
    """WPA 8.1: the head string bounds the quarter nearest the head rail; the spots lie on the
    long string; the match's ``table_mm`` is used when given."""
    t = Table.of([1000.0, 2000.0])
    assert t.head_string == 500.0
    assert (t.spot("head"), t.spot("center"), t.spot("foot")) == ((500.0, 500.0), (500.0, 1000.0), (500.0, 1500.0))
    assert Table.of(None) == Table(1270.0, 2540.0)


def test_wpa_8_1_behind_the_head_string_does_not_include_it() -> None:
    """WPA 8.1: "Behind the head string is the area between the head rail and the head
    string, not including the head string"."""
    t = Table.of(None)
    assert t.behind_head_string((300.0, 634.0)) and not t.behind_head_string((300.0, 635.0))


def test_wpa_4_2_4_8_every_racked_ball_is_within_the_outline() -> None:
    """WPA 4.2, 4.8: the fifteen balls racked with the apex on the foot spot all lie within
    the rack outline; a ball just clear of the base or of a side does not interfere."""
    t = Table.of(None)
    fx, fy = t.spot("foot")
    rise = BALL_MM * math.sqrt(3) / 2
    racked = [(fx + (j - row / 2) * BALL_MM, fy + row * rise) for row in range(5) for j in range(row + 1)]
    assert all(t.interferes(p) for p in racked)
    base = fy + 4 * rise
    assert not t.interferes((fx, base + 1.5 * BALL_MM))
    assert t.interferes((fx, base + 0.9 * BALL_MM))
    assert not t.interferes((fx + 4 * BALL_MM, fy + 2 * rise))


def test_wpa_4_8_a_spot_is_blocked_when_a_ball_cannot_be_placed_without_touching() -> None:
    """WPA 4.8(c),(d): the head spot is blocked by a ball closer than one diameter."""
    t = Table.of(None)
    hx, hy = t.spot("head")
    assert t.blocked("head", [(hx + BALL_MM - 5, hy)]) and not t.blocked("head", [(hx + BALL_MM + 1, hy)])
