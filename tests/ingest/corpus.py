"""Bad inputs, one per way a log can be wrong, each with the problem it must produce.

Every case writes its file into a directory and names the code and line the validator
must report. The same corpus drives `cuelog validate` and `cuelog ingest` (which must
reject the file and leave the database untouched).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.ingest.conftest import frame, lines, match, stroke


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[Path], Path]
    codes: tuple[str, ...]
    """Any of these codes is right (binary garbage may fail as JSON or as UTF-8)."""
    line: int
    field: str | None = None


def _text(name: str, *records) -> Callable[[Path], Path]:
    def make(d: Path) -> Path:
        p = d / name
        p.write_text(lines(records), encoding="utf-8")
        return p

    return make


def _bytes(name: str, data: bytes) -> Callable[[Path], Path]:
    def make(d: Path) -> Path:
        p = d / name
        p.write_bytes(data)
        return p

    return make


_GOOD_GZ = gzip.compress(lines([match(), frame(), *(stroke(n) for n in range(1, 200))]).encode(), mtime=0)

CASES = [
    Case(
        "truncated_json",
        _text("truncated.jsonl", match(), frame(), '{"type": "stroke", "frame": 1, "n": 1, "stri'),
        ("invalid_json",),
        3,
    ),
    Case(
        "unknown_ball",
        _text("ball.jsonl", match(), frame(), stroke(1, potted=["purple"])),
        ("unknown_ball",),
        3,
        "potted[0]",
    ),
    Case(
        "unknown_rules",
        _text("rules.jsonl", match(rules="snooker/martian"), frame(), stroke(1)),
        ("unknown_rules",),
        1,
        "rules",
    ),
    Case("stroke_before_frame", _text("noframe.jsonl", match(), stroke(1)), ("no_frame",), 2),
    Case("record_before_match", _text("nomatch.jsonl", frame(), stroke(1)), ("no_match",), 1),
    Case(
        "duplicate_n",
        _text("dupn.jsonl", match(), frame(), stroke(1), stroke(2), stroke(2)),
        ("n_not_increasing",),
        5,
        "n",
    ),
    Case("decreasing_n", _text("down.jsonl", match(), frame(), stroke(5), stroke(4)), ("n_not_increasing",), 4, "n"),
    Case(
        "pockets_length",
        _text("pockets.jsonl", match(), frame(), stroke(1, potted=["red"], pockets=["TL", "TR"])),
        ("pockets_length",),
        3,
        "pockets",
    ),
    Case("bad_time", _text("time.jsonl", match(), frame(), stroke(1, t="2026-05-01 14:03")), ("bad_time",), 3, "t"),
    Case("time_without_offset", _text("naive.jsonl", match(), frame(t="2026-05-01T14:03:00")), ("bad_time",), 2, "t"),
    Case(
        "non_integer_score",
        _text("score.jsonl", match(), frame(), stroke(1, score=[1.5, 0])),
        ("wrong_type",),
        3,
        "score[0]",
    ),
    Case(
        "negative_score",
        _text("negscore.jsonl", match(), frame(), stroke(1, score=[-4, 0])),
        ("bad_score",),
        3,
        "score",
    ),
    Case(
        "three_scores",
        _text("score3.jsonl", match(), frame(), {"type": "frame_end", "frame": 1, "score": [1, 2, 3]}),
        ("bad_score",),
        3,
    ),
    Case("striker_c", _text("side.jsonl", match(), frame(), stroke(1, striker="C")), ("bad_side",), 3, "striker"),
    Case("sides_keys", _text("sides.jsonl", match(sides={"A": "x", "X": "y"})), ("bad_side",), 1, "sides"),
    Case("bad_format", _text("format.jsonl", match(format="cuelog/0")), ("bad_format",), 1, "format"),
    Case(
        "frame_mismatch",
        _text("mismatch.jsonl", match(), frame(1), stroke(1, frame=2)),
        ("frame_mismatch",),
        3,
        "frame",
    ),
    Case(
        "after_unknown",
        _text(
            "after.jsonl",
            match(),
            frame(),
            stroke(1),
            {"type": "event", "frame": 1, "after": 7, "kind": "concede", "side": "B"},
        ),
        ("after_unknown",),
        4,
        "after",
    ),
    Case(
        "unknown_spot",
        _text("spot.jsonl", match(), frame(), stroke(1, respots=[{"ball": "pink", "spot": "moon"}])),
        ("unknown_spot",),
        3,
        "respots[0].spot",
    ),
    Case("duplicate_match", _text("dupmatch.jsonl", match(), frame(), match()), ("duplicate_match",), 3, "match"),
    Case(
        "missing_field",
        _text("missing.jsonl", match(), frame(), {"type": "stroke", "frame": 1, "n": 1, "first": [], "potted": []}),
        ("missing_field",),
        3,
        "striker",
    ),
    Case("unknown_type", _text("type.jsonl", match(), {"type": "shot"}), ("unknown_type",), 2, "type"),
    Case("empty_file", _bytes("empty.jsonl", b""), ("empty_file",), 1),
    Case("blank_file", _bytes("blank.jsonl", b"\n  \n\n"), ("empty_file",), 1),
    Case("binary_garbage", _bytes("garbage.jsonl", bytes(range(256)) * 64), ("invalid_json", "not_utf8"), 1),
    Case(
        "not_utf8",
        _bytes(
            "latin1.jsonl",
            lines([match(sides={"A": "x", "B": "y"})]).encode() + b'{"type": "frame", "frame": 1, "breaker": "\xe9"}\n',
        ),
        ("not_utf8",),
        2,
    ),
    Case("bad_gzip", _bytes("notgz.jsonl.gz", b"this is not gzip at all\n"), ("unreadable",), 1),
    Case("truncated_gzip", _bytes("cut.jsonl.gz", _GOOD_GZ[: len(_GOOD_GZ) // 2]), ("unreadable",), 0),
    Case(
        "deeply_nested_json",
        _text("deep.jsonl", match(), frame(), '{"type": "event", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"),
        ("invalid_json",),
        3,
    ),
    Case("n_beyond_bound", _text("bign.jsonl", match(), frame(), stroke(2**31)), ("bad_number",), 3, "n"),
    Case(
        "score_2_63", _text("bigscore.jsonl", match(), frame(), stroke(1, score=[2**63, 0])), ("bad_score",), 3, "score"
    ),
    Case(
        "score_10_20",
        _text("hugescore.jsonl", match(), frame(), {"type": "frame_end", "frame": 1, "score": [10**20, 0]}),
        ("bad_score",),
        3,
        "score",
    ),
    Case(
        "foul_points_2_31",
        _text("bigfoul.jsonl", match(), frame(), stroke(1, call={"foul": True, "points": 2**31})),
        ("bad_number",),
        3,
        "call.points",
    ),
    Case(
        "event_points_beyond_bound",
        _text(
            "bigevent.jsonl",
            match(),
            frame(),
            {"type": "event", "frame": 1, "after": 0, "kind": "time_foul", "side": "A", "points": 10**6},
        ),
        ("bad_number",),
        3,
        "points",
    ),
    Case("stroke_missing", _text("gap.jsonl", match(), frame(), stroke(1), stroke(2), stroke(4)), ("n_gap",), 5, "n"),
    Case("first_stroke_not_1", _text("gap1.jsonl", match(), frame(), stroke(3)), ("n_gap",), 3, "n"),
    Case(
        "sides_same_name",
        _text("samesides.jsonl", match(sides={"A": "Ann", "B": "Ann"}), frame(), stroke(1)),
        ("same_sides",),
        1,
        "sides",
    ),
    Case("match_id_100k", _text("longid.jsonl", match(match="m" * 100_000), frame()), ("too_long",), 1, "match"),
    Case(
        "byte_order_mark",
        _bytes("bom.jsonl", b"\xef\xbb\xbf" + lines([match(), frame(), stroke(1)]).encode()),
        ("byte_order_mark",),
        1,
    ),
    Case(
        "cr_line_endings",
        _bytes("cr.jsonl", lines([match(), frame(), stroke(1)]).replace("\n", "\r").encode()),
        ("cr_line_endings",),
        1,
    ),
]
"""``line`` 0 means: any line (where a cut gzip stream breaks depends on its compression)."""
