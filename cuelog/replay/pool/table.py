"""The pool table's strings, spots and rack outline (WPA 8.1 Parts of the Table, 4.2).

Coordinates are docs/format.md's: millimetres, origin at the bottom-left corner seen from
the head end, ``x`` across, ``y`` along from the head rail. WPA 8.1: the head string bounds
the quarter of the table nearest the head rail, the foot string the quarter nearest the
foot rail; the head, center and foot spots are where those strings and the center string
meet the long string. "Behind the head string is the area between the head rail and the
head string, not including the head string."
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cuelog.replay.pool.common import BALL_MM, TABLE_MM, TOLERANCE_MM

Pos = tuple[float, float]

HEAD: Final = "head"
"""The head spot (WPA 8.1), where 4.8(c),(d) place the fifteenth ball or the cue ball."""
CENTER: Final = "center"
"""The center spot (WPA 8.1), the head spot's stand-in when it is blocked (4.8(c),(d))."""
RACK: Final = "rack"
"""Re-racked in the triangle with the other balls (WPA 4.4, 4.8(a),(b))."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table's playing surface: ``width`` across, ``length`` along."""

    width: float
    length: float

    @staticmethod
    def of(table_mm: Sequence[float] | None) -> Table:
        """The match's ``table_mm``, or a nine-foot table."""
        w, length = (table_mm[0], table_mm[1]) if table_mm and len(table_mm) == 2 else TABLE_MM
        return Table(float(w), float(length))

    @property
    def head_string(self) -> float:
        return self.length / 4

    def spot(self, name: str) -> Pos:
        """The head, center or foot spot on the long string (WPA 8.1)."""
        along = {HEAD: 0.25, CENTER: 0.5, "foot": 0.75}[name]
        return (self.width / 2, self.length * along)

    def behind_head_string(self, p: Pos) -> bool:
        """Strictly behind the head string: a ball on it is in front (WPA 8.1, 1.5)."""
        return p[1] < self.head_string

    def rack_outline(self) -> tuple[Pos, Pos, Pos]:
        """The marked outline of the fifteen-ball triangle, apex on the foot spot (WPA 4.2):
        the triangle through the racked balls' centres, its sides moved out by a ball's
        radius so that it encloses the balls."""
        fx, fy = self.spot("foot")
        d = BALL_MM
        rise = 4 * d * math.sqrt(3) / 2
        centres = ((fx, fy), (fx - 2 * d, fy + rise), (fx + 2 * d, fy + rise))
        gx, gy = fx, fy + 2 * rise / 3
        inradius = 4 * d / (2 * math.sqrt(3))
        grow = (inradius + d / 2) / inradius
        a, b, c = ((gx + (x - gx) * grow, gy + (y - gy) * grow) for x, y in centres)
        return a, b, c

    def interferes(self, p: Pos) -> bool:
        """WPA 4.8: "A ball is considered to interfere with the rack if it is within or
        overlaps the outline of the rack"."""
        return _distance_to_triangle(p, self.rack_outline()) < BALL_MM / 2

    def blocked(self, spot: str, others: Sequence[Pos]) -> bool:
        """A ball cannot be placed on ``spot`` without touching one of ``others``."""
        sx, sy = self.spot(spot)
        return any(math.hypot(x - sx, y - sy) < BALL_MM - TOLERANCE_MM for x, y in others)


def _distance_to_triangle(p: Pos, tri: tuple[Pos, Pos, Pos]) -> float:
    """0 inside the triangle, else the distance to its nearest side."""
    signs = [_cross(tri[i], tri[(i + 1) % 3], p) for i in range(3)]
    if all(s >= 0 for s in signs) or all(s <= 0 for s in signs):
        return 0.0
    return min(_to_segment(p, tri[i], tri[(i + 1) % 3]) for i in range(3))


def _cross(a: Pos, b: Pos, p: Pos) -> float:
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])


def _to_segment(p: Pos, a: Pos, b: Pos) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])
