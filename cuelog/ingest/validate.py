"""Check cuelog/1 logs: JSON types first, then what the records mean.

Every check is a plain function that returns the :class:`~cuelog.errors.Problem`\\ s it
finds; nothing stops at the first problem. A bad line is reported and skipped, and the
lines after it are still checked. The only state carried from line to line is what the
format itself makes a line depend on: the open match (its ruleset and ids), the open
frame and the strokes numbered in it so far. That state is bounded by one frame, so
checking a file takes the same memory whatever its size.

Problem codes are stable (scripts match on them):

=================== ==========================================================
``unreadable``      the file or its gzip stream cannot be read
``empty_file``      no record at all
``line_too_long``   a line over :data:`cuelog.ingest.reader.MAX_LINE` bytes
``not_utf8``        bytes that are not UTF-8
``invalid_json``    not one JSON value (truncated, garbage)
``not_an_object``   JSON, but not an object
``unknown_type``    ``type`` missing or not a cuelog/1 record type
``missing_field``   a required field is absent or null
``wrong_type``      a field has the wrong JSON type
``bad_format``      ``format`` is not ``cuelog/1``
``unknown_rules``   ``rules`` names no known ruleset
``duplicate_match`` a match id used twice in one file
``no_match``        a record before any ``match`` record
``no_frame``        a frame record before any ``frame`` record of its match
``frame_mismatch``  a record's ``frame`` is not the open frame
``frame_repeated``  a frame number opened twice in one match
``bad_number``      a number outside its stated bound (:mod:`cuelog.schemas.bounds`)
``too_long``        a match id or a name longer than its stated bound
``same_sides``      both sides of a match with the same name
``n_not_increasing`` stroke ``n`` not strictly increasing within its frame
``n_gap``           a stroke number skipped: a stroke missing from its frame
``pockets_length``  ``pockets`` not as long as ``potted``
``unknown_pocket``  a pocket other than TL TR ML MR BL BR
``unknown_ball``    a ball name the ruleset does not use (a called ``safety`` is allowed in call-shot pool)
``unknown_spot``    a spot the ruleset does not have
``after_unknown``   ``after`` names no earlier stroke of the frame (0 = before the first)
``clock_unknown``   a ``clock`` record for a stroke its frame does not have
``clock_repeated``  two ``clock`` records for one stroke
``bad_side``        a side other than ``A``/``B``
``bad_score``       a score that is not two integers from 0 to the points bound (from minus the bound in 14.1, WPA 4.7)
``bad_time``        a time that is not ISO 8601 with a UTC offset
``bad_date``        a match ``date`` that is not an ISO 8601 date
=================== ==========================================================
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

import msgspec

from cuelog.errors import Problem
from cuelog.ingest.reader import scan
from cuelog.schemas.bounds import INT_BOUNDS, MAX_NAME, MAX_POINTS, NAME_FIELDS, Bound
from cuelog.schemas.records import (
    RECORD_TYPES,
    Choice,
    Clock,
    Event,
    Frame,
    FrameEnd,
    Match,
    Record,
    Stroke,
    decode,
)
from cuelog.schemas.rulesets import RULESETS, Ruleset

FORMAT = "cuelog/1"
SIDES = ("A", "B")
POCKETS = frozenset({"TL", "TR", "ML", "MR", "BL", "BR"})

_generic = msgspec.json.Decoder()
TOO_DEEP = "JSON nested too deeply to decode"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$")


@dataclass(slots=True)
class FileState:
    """What later lines of one file are checked against: the open match and frame."""

    file: str
    match_ids: set[str] = field(default_factory=set)
    match: Match | None = None
    ruleset: Ruleset | None = None
    frames: set[int] = field(default_factory=set)
    frame: int | None = None
    last_n: int = 0
    strokes: set[int] = field(default_factory=set)
    clocks: dict[int, int] = field(default_factory=dict)
    """Stroke number -> line of its ``clock`` record, checked when the frame closes."""
    unread: bool = False
    """A line since the last stroke could not be read as a record: it may have held the strokes a gap skips."""


@dataclass(frozen=True, slots=True)
class Checked:
    """One line of a log after checking: its text, its record (None if undecodable), its problems."""

    line: int
    text: str | None
    record: Record | None
    problems: list[Problem]


# -- decoding ------------------------------------------------------------------------------


_JSON_NAMES = (
    (re.compile(r"\bstr\b"), "string"),
    (re.compile(r"\bint\b"), "integer"),
    (re.compile(r"\bfloat\b"), "number"),
    (re.compile(r"\bbool\b"), "boolean"),
    (re.compile(r"\bdict\[[^]]*\]"), "object"),
    (re.compile(r"\b(list|tuple)\["), "array["),
)


def _expected(cls: type[Any], name: str) -> str:
    """The JSON type a field takes, from its annotation ("array[string] or null")."""
    text = str(cls.__annotations__.get(name, "a value")).replace(" | None", " or null")
    for pattern, json_name in _JSON_NAMES:
        text = pattern.sub(json_name, text)
    return text


_MSGSPEC_ERROR = re.compile(r"Expected `(?P<expected>[^`]+)`, got `(?P<got>[^`]+)`")


def field_problems(file: str, line: int, text: str) -> tuple[Record | None, list[Problem]]:
    """Every JSON-type problem of one line, field by field (msgspec stops at the first).

    Also returns the record with its bad optional fields left out, when its required
    fields are sound, so that the meaning of the rest of the line is still checked.
    """
    try:
        obj = _generic.decode(text)
    except msgspec.DecodeError as exc:
        return None, [Problem(file, line, "", "invalid_json", str(exc), "one JSON object per line")]
    except RecursionError:
        return None, [Problem(file, line, "", "invalid_json", TOO_DEEP, "one JSON object per line")]
    if not isinstance(obj, dict):
        return None, [Problem(file, line, "", "not_an_object", type(obj).__name__, "one JSON object per line")]
    kind = obj.get("type")
    cls = RECORD_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        return None, [Problem(file, line, "type", "unknown_type", _show(kind), " | ".join(RECORD_TYPES))]
    problems: list[Problem] = []
    required_ok = True
    for info in msgspec.structs.fields(cls):
        value = obj.get(info.encode_name)
        if value is None:
            if info.required:
                required_ok = False
                problems.append(
                    Problem(file, line, info.encode_name, "missing_field", "absent or null", _expected(cls, info.name))
                )
            continue
        try:
            msgspec.convert(value, info.type)
        except msgspec.ValidationError as exc:
            message, _, path = str(exc).partition(" - at `$")
            m = _MSGSPEC_ERROR.search(message)
            found = f"{m['got']} {_show(value)}" if m else f"{message}: {_show(value)}"
            expected = m["expected"] if m and path else _expected(cls, info.name)
            problems.append(
                Problem(file, line, info.encode_name + path.rstrip("`"), "wrong_type", _cut(found), expected)
            )
            required_ok = required_ok and not info.required
            obj.pop(info.encode_name)
    partial: Record | None = None
    if required_ok:
        try:
            partial = msgspec.convert(obj, cls)
        except msgspec.ValidationError as exc:
            problems.append(
                Problem(file, line, "", "invalid_record", str(exc), "a cuelog/1 record (docs/format.md section 4)")
            )
    if not problems:  # msgspec found something the field-wise check did not; report its words
        try:
            decode(text)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            problems.append(
                Problem(file, line, "", "invalid_record", str(exc), "a cuelog/1 record (docs/format.md section 4)")
            )
    return partial, problems


def decode_line(file: str, line: int, text: str) -> tuple[Record | None, Record | None, list[Problem]]:
    """Decode one line: ``(record, partial, problems)``.

    ``record`` is None when the line has any type problem; ``partial`` is then the line
    without its bad optional fields (or None), still good enough to check its meaning.
    """
    try:
        record = decode(text)
        return record, record, []
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        partial, problems = field_problems(file, line, text)
        return None, partial, problems


def _cut(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _show(value: object) -> str:
    """A found value as JSON, cut short: a problem report names the value, it does not copy it."""
    if value is None:
        return "absent"
    return _cut(msgspec.json.encode(value).decode())


# -- value checks ----------------------------------------------------------------------------


def check_side(file: str, line: int, name: str, value: str | None) -> list[Problem]:
    """Sides are "A" and "B" (docs/format.md section 3)."""
    if value is None or value in SIDES:
        return []
    return [Problem(file, line, name, "bad_side", _show(value), '"A" or "B"')]


def check_sides_keys(file: str, line: int, name: str, value: dict[str, Any] | None, exact: bool) -> list[Problem]:
    """A per-side mapping has the keys A and B (exactly both when ``exact``)."""
    if value is None:
        return []
    keys = sorted(value)
    bad = [k for k in keys if k not in SIDES]
    if bad or (exact and keys != list(SIDES)):
        return [Problem(file, line, name, "bad_side", "keys " + _show(keys), 'keys "A" and "B"')]
    return []


def check_score(file: str, line: int, name: str, score: list[int] | None, *, negative: bool = False) -> list[Problem]:
    """A score is [A, B], two integers a scoreboard can show (0 to MAX_POINTS); ``negative``:
    14.1, where fouls take points off and "scores may be negative" (WPA 4.7)."""
    if score is None:
        return []
    low = -MAX_POINTS if negative else 0
    if len(score) != 2 or any(not low <= v <= MAX_POINTS for v in score):
        return [
            Problem(file, line, name, "bad_score", _show(score), f"[A, B]: two integers from {low} to {MAX_POINTS}")
        ]
    return []


_BOUNDED: dict[str, list[tuple[str, tuple[str, ...], Bound]]] = {
    kind: [
        (path, tuple("break_" if a == "break" else a for a in path.split(".")), bound) for path, bound in fields.items()
    ]
    for kind, fields in INT_BOUNDS.items()
}
"""INT_BOUNDS with each JSON path split once into attribute names (``break`` is ``break_``)."""


def _field(record: object, names: tuple[str, ...]) -> object:
    """A field of a record by its attribute path; None when a step is absent."""
    value = record
    for name in names:
        value = getattr(value, name, None)
        if value is None:
            return None
    return value


def check_bounds(file: str, line: int, kind: str, record: Record) -> list[Problem]:
    """Every integer field within its stated bound (:data:`cuelog.schemas.bounds.INT_BOUNDS`)."""
    out = []
    for path, names, (low, high) in _BOUNDED[kind]:
        value = _field(record, names)
        if isinstance(value, int) and not low <= value <= high:
            out.append(Problem(file, line, path, "bad_number", _cut(str(value)), f"an integer from {low} to {high}"))
    return out


def check_names(file: str, line: int, m: Match) -> list[Problem]:
    """A match id and the names of sides and players are at most MAX_NAME characters."""
    out = []
    for name in NAME_FIELDS:
        value = getattr(m, name)
        texts = [value] if isinstance(value, str) else list((value or {}).values())
        for text in texts:
            for item in [text] if isinstance(text, str) else text:
                if len(item) > MAX_NAME:
                    found = f"{len(item)} characters: {_show(item)}"
                    out.append(Problem(file, line, name, "too_long", found, f"at most {MAX_NAME} characters"))
    return out


@functools.lru_cache(maxsize=256)
def parse_time(value: str) -> datetime | None:
    """An ISO 8601 time with a UTC offset, or None when it is not one.

    Cached: loading a checked line parses its times again (for the typed columns), and a
    time parsed a moment ago costs a dictionary look-up instead of a regex and a parse.
    """
    if not _ISO_TIME.match(value):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


_UTC_MILLIS = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")
"""The shape match recorders write (``2026-05-01T14:03:22.120Z``) in ASCII digits: a
narrower pattern than :data:`_ISO_TIME`, so a time of this shape needs no other test."""


def time_us(value: str) -> int | None:
    """Microseconds since the epoch (UTC) of a time :func:`parse_time` accepts, or None when
    it accepts none: the same answer (``tests/ingest/test_clean.py`` holds them to each other).

    The common shape skips ``parse_time``'s broader pattern and its cache (a log's times are
    all different, so the cache only costs): about half the time, and the check and the
    stored column get the value from one parse.
    """
    if _UTC_MILLIS.fullmatch(value) is None:
        parsed = parse_time(value)
    else:
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:  # a day the calendar lacks (Feb 30), as parse_time finds
            return None
    return None if parsed is None else (parsed - _EPOCH) // _MICROSECOND


_DIGITS_AS_0 = str.maketrans("123456789", "000000000")
_COMMON_SHAPE = "0000-00-00T00:00:00.000Z"
"""A time of :data:`_UTC_MILLIS`'s shape with each ASCII digit read as 0."""


def _all_common(times: list[str]) -> bool:
    """``times`` are some, each of :data:`_UTC_MILLIS`'s shape and none of the year 0000.

    The texts joined by line breaks, each ASCII digit read as 0, are the shape repeated:
    as many breaks as the shapes have, so no text holds one, and each text is the shape.
    Two C calls for a part's times: a regular expression (Python's one by one, or Arrow's,
    compiled at every call) cost three to five times as much for a log of 185 strokes."""
    if not times:
        return False
    joined = "\n".join(times)
    return (
        joined.translate(_DIGITS_AS_0) == "\n".join([_COMMON_SHAPE] * len(times))
        # Arrow casts the year 0000 (the proleptic calendar's year before 1); datetime has none.
        and not joined.startswith("0000-")
        and "\n0000-" not in joined
    )


def times_us(values: list[str | None], *, by_arrow: bool = False) -> list[int | None] | None:
    """:func:`time_us` of each time (None stays None), or None when one is not a time.

    ``by_arrow``: when every time has :data:`_UTC_MILLIS`'s shape, they are read in one
    Arrow cast, not one by one. Of that shape (the year 0000 aside) Arrow casts exactly the
    texts ``datetime.fromisoformat`` reads, to the same instant; a day the calendar lacks,
    hour 24, minute or second 60 neither reads (``tests/ingest/test_clean.py``). About a
    third of the CPU of reading them one by one, but loading Arrow costs about 0.15 s, which
    ``cuelog validate`` does not otherwise pay (benchmarks/README.md, "Ingest: a log's
    stroke times read in one pass"). Times of any other shape are read by :func:`time_us`."""
    if by_arrow and _all_common([value for value in values if value is not None]):
        import pyarrow as pa
        import pyarrow.compute as pc

        try:
            instants = pc.cast(pa.array(values, pa.string()), pa.timestamp("us", tz="UTC"))
        except pa.ArrowInvalid:  # a day the calendar lacks, an hour 24...: not a time
            return None
        out: list[int | None] = instants.view(pa.int64()).to_pylist()
        return out
    read = [None if value is None else time_us(value) for value in values]
    if any(us is None and value is not None for us, value in zip(read, values, strict=True)):
        return None
    return read


def check_time(file: str, line: int, name: str, value: str | None) -> list[Problem]:
    """Times are ISO 8601 with a UTC offset (docs/format.md section 3)."""
    if value is None or parse_time(value) is not None:
        return []
    return [
        Problem(file, line, name, "bad_time", _show(value), 'ISO 8601 with offset, e.g. "2026-05-01T14:03:22.120Z"')
    ]


def check_balls(state: FileState, line: int, name: str, balls: Iterable[str | None]) -> list[Problem]:
    """Ball names the match's ruleset uses (unknown rules: reported once, on the match)."""
    rs = state.ruleset
    if rs is None or (isinstance(balls, list) and rs.balls.issuperset(balls)):
        return []  # the common case, without a loop in Python
    out = []
    for i, ball in enumerate(balls):
        if ball is not None and ball not in rs.balls:
            where = name.replace("[]", f"[{i}]")
            out.append(
                Problem(
                    state.file,
                    line,
                    where,
                    "unknown_ball",
                    _show(ball),
                    f"a {rs.id} ball: {', '.join(sorted(rs.balls))}",
                )
            )
    return out


def check_spot(state: FileState, line: int, name: str, spot: str | None) -> list[Problem]:
    rs = state.ruleset
    if rs is None or spot is None or spot in rs.spots:
        return []
    return [
        Problem(state.file, line, name, "unknown_spot", _show(spot), f"a {rs.id} spot: {', '.join(sorted(rs.spots))}")
    ]


# -- record checks ---------------------------------------------------------------------------


def check_match(state: FileState, line: int, m: Match) -> list[Problem]:
    f = state.file
    out: list[Problem] = []
    if m.format != FORMAT:
        out.append(Problem(f, line, "format", "bad_format", _show(m.format), f'"{FORMAT}"'))
    if m.match in state.match_ids:
        out.append(
            Problem(f, line, "match", "duplicate_match", _show(m.match), "a match id not used before in this file")
        )
    if not m.match:
        out.append(Problem(f, line, "match", "missing_field", '""', "a non-empty match id"))
    state.ruleset = RULESETS.get(m.rules)
    if state.ruleset is None:
        out.append(Problem(f, line, "rules", "unknown_rules", _show(m.rules), "one of " + ", ".join(sorted(RULESETS))))
    out += check_sides_keys(f, line, "sides", m.sides, exact=True)
    out += check_sides_keys(f, line, "cue_balls", m.cue_balls, exact=True)
    out += check_sides_keys(f, line, "players", m.players, exact=True)
    if m.cue_balls is not None:
        out += check_balls(state, line, "cue_balls", m.cue_balls.values())
    if m.date is not None:
        try:
            date.fromisoformat(m.date)
        except ValueError:
            out.append(Problem(f, line, "date", "bad_date", _show(m.date), 'an ISO 8601 date, e.g. "2026-11-21"'))
    out += check_bounds(f, line, "match", m)
    out += check_names(f, line, m)
    if len(set(m.sides.values())) < len(m.sides):
        # Reports and plots count statistics by name: two sides of one name would merge.
        out.append(Problem(f, line, "sides", "same_sides", _show(m.sides), "two different names"))
    state.match_ids.add(m.match)
    state.match = m
    state.frames = set()
    _open_frame(state, None)
    return out


def _open_frame(state: FileState, frame: int | None) -> None:
    state.frame = frame
    state.last_n = 0
    state.strokes = set()
    state.clocks = {}
    state.unread = False


def close_frame(state: FileState) -> list[Problem]:
    """Checks that need the whole frame: every ``clock`` names a stroke of the frame."""
    return [
        Problem(state.file, line, "n", "clock_unknown", str(n), f"the number of a stroke of frame {state.frame}")
        for n, line in sorted(state.clocks.items(), key=lambda kv: kv[1])
        if n not in state.strokes
    ]


def check_frame(state: FileState, line: int, fr: Frame) -> list[Problem]:
    f = state.file
    out = close_frame(state)
    if state.match is None:
        out.append(Problem(f, line, "type", "no_match", "frame", "a match record before the first frame"))
    out += check_bounds(f, line, "frame", fr)
    if fr.frame in state.frames:
        out.append(
            Problem(f, line, "frame", "frame_repeated", str(fr.frame), "a frame number not opened before in this match")
        )
    out += check_side(f, line, "breaker", fr.breaker)
    out += check_time(f, line, "t", fr.t)
    if fr.positions is not None:
        out += check_balls(state, line, "positions[]", (p[0] for p in fr.positions))
    state.frames.add(fr.frame)
    _open_frame(state, fr.frame)
    return out


def check_in_frame(state: FileState, line: int, kind: str, frame: int) -> list[Problem]:
    """A frame record needs its match and its frame open, and names the open frame."""
    f = state.file
    if state.match is None:
        return [Problem(f, line, "type", "no_match", kind, "a match record before it")]
    if state.frame is None:
        return [Problem(f, line, "type", "no_frame", kind, "a frame record before it")]
    if frame != state.frame:
        return [Problem(f, line, "frame", "frame_mismatch", str(frame), f"{state.frame} (the open frame)")]
    return []


def check_stroke(state: FileState, line: int, s: Stroke) -> list[Problem]:
    f = state.file
    out = check_in_frame(state, line, "stroke", s.frame)
    out += check_bounds(f, line, "stroke", s)
    if s.n <= state.last_n:
        out.append(Problem(f, line, "n", "n_not_increasing", str(s.n), f"a stroke number above {state.last_n}"))
    else:
        if s.n > state.last_n + 1 and s.n >= 1 and not state.unread:
            # n counts the strokes of a frame from 1 (docs/format.md section 4): a number
            # skipped is a stroke missing, and the replay would charge the officials with it.
            out.append(
                Problem(
                    f, line, "n", "n_gap", str(s.n), f"{state.last_n + 1} (strokes {_gap(state.last_n, s.n)} missing)"
                )
            )
        state.last_n = s.n
    state.unread = False
    state.strokes.add(s.n)
    out += check_side(f, line, "striker", s.striker)
    out += check_time(f, line, "t", s.t)
    out += check_score(f, line, "score", s.score, negative=_negative_scores(state))
    out += check_balls(state, line, "first[]", s.first)
    out += check_balls(state, line, "then[]", s.then or ())
    out += check_balls(state, line, "potted[]", s.potted)
    out += check_balls(state, line, "off_table[]", s.off_table or ())
    if not (s.nominated == "safety" and _calls_safety(state)):
        out += check_balls(state, line, "nominated", (s.nominated,))
    if s.pockets is not None:
        if len(s.pockets) != len(s.potted):
            out.append(
                Problem(
                    f,
                    line,
                    "pockets",
                    "pockets_length",
                    f"{len(s.pockets)} pocket(s)",
                    f"{len(s.potted)}, one per potted ball",
                )
            )
        for i, pocket in enumerate(s.pockets):
            if pocket not in POCKETS:
                out.append(
                    Problem(f, line, f"pockets[{i}]", "unknown_pocket", _show(pocket), "TL, TR, ML, MR, BL or BR")
                )
    if s.pocket_called is not None and s.pocket_called not in POCKETS:
        out.append(
            Problem(f, line, "pocket_called", "unknown_pocket", _show(s.pocket_called), "TL, TR, ML, MR, BL or BR")
        )
    if s.infringements:
        out += check_balls(state, line, "infringements[].ball", (i.ball for i in s.infringements))
    if s.positions is not None:
        out += check_balls(state, line, "positions[]", (p[0] for p in s.positions))
    for i, r in enumerate(s.respots or ()):
        out += check_balls(state, line, f"respots[{i}].ball", (r.ball,))
        out += check_spot(state, line, f"respots[{i}].spot", r.spot)
    return out


def _gap(last: int, n: int) -> str:
    return str(last + 1) if n == last + 2 else f"{last + 1} to {n - 1}"


def check_after(state: FileState, line: int, after: int) -> list[Problem]:
    """``after`` is the last stroke before a choice or event: a stroke of the frame, or 0."""
    if after == 0 or after in state.strokes:
        return []
    return [
        Problem(
            state.file, line, "after", "after_unknown", str(after), "0 or the number of an earlier stroke of this frame"
        )
    ]


def check_choice(state: FileState, line: int, c: Choice) -> list[Problem]:
    out = check_in_frame(state, line, "choice", c.frame) + check_bounds(state.file, line, "choice", c)
    out += check_after(state, line, c.after)
    out += check_side(state.file, line, "side", c.side)
    out += check_balls(state, line, "nominated", (c.nominated,))
    return out


def check_event(state: FileState, line: int, e: Event) -> list[Problem]:
    out = check_in_frame(state, line, "event", e.frame) + check_bounds(state.file, line, "event", e)
    out += check_after(state, line, e.after)
    out += check_side(state.file, line, "side", e.side)
    out += check_balls(state, line, "ball", (e.ball,))
    out += check_spot(state, line, "spot", e.spot)
    return out


def check_frame_end(state: FileState, line: int, e: FrameEnd) -> list[Problem]:
    out = check_in_frame(state, line, "frame_end", e.frame) + check_bounds(state.file, line, "frame_end", e)
    out += check_side(state.file, line, "winner", e.winner)
    out += check_score(state.file, line, "score", e.score, negative=_negative_scores(state))
    return out


def _calls_safety(state: FileState) -> bool:
    """Call-shot pool: ``"nominated": "safety"`` is a called safety (WPA 1.6, 3.6, 4.5)."""
    return state.ruleset is not None and state.ruleset.id in ("eightball/wpa", "straight-pool/wpa")


def _negative_scores(state: FileState) -> bool:
    """14.1 continuous is the one game whose scores go below zero (WPA 4.7)."""
    return state.ruleset is not None and state.ruleset.discipline == "straight-pool"


def check_clock(state: FileState, line: int, c: Clock) -> list[Problem]:
    f = state.file
    out = check_in_frame(state, line, "clock", c.frame) + check_bounds(f, line, "clock", c)
    if c.n in state.clocks:
        out.append(
            Problem(
                f,
                line,
                "n",
                "clock_repeated",
                str(c.n),
                f"one clock record per stroke (first on line {state.clocks[c.n]})",
            )
        )
    else:
        state.clocks[c.n] = line
    for name, value in (("limit_s", c.limit_s), ("elapsed_s", c.elapsed_s), ("paused_s", c.paused_s)):
        if value is not None and value < 0:
            out.append(Problem(f, line, name, "bad_number", str(value), "seconds >= 0"))
    return out


def check_record(state: FileState, line: int, record: Record) -> list[Problem]:
    """The meaning of one decoded record, given the lines before it."""
    if isinstance(record, Match):
        return close_frame(state) + check_match(state, line, record)
    if isinstance(record, Frame):
        return check_frame(state, line, record)
    if isinstance(record, Stroke):
        return check_stroke(state, line, record)
    if isinstance(record, Choice):
        return check_choice(state, line, record)
    if isinstance(record, Event):
        return check_event(state, line, record)
    if isinstance(record, FrameEnd):
        return check_frame_end(state, line, record)
    return check_clock(state, line, record)


# -- files -----------------------------------------------------------------------------------


def check_file(path: str | os.PathLike[str]) -> Iterator[Checked]:
    """Every line of one log, checked. The last item may carry end-of-file problems only."""
    state = FileState(str(path))
    for line, item in scan(path):
        if isinstance(item, Problem):
            state.unread = state.unread or item.code != "byte_order_mark"
            yield Checked(line, None, None, [item])
            continue
        record, partial, problems = decode_line(state.file, line, item)
        if partial is not None:
            problems += check_record(state, line, partial)
        else:
            state.unread = True  # already reported; a gap right after it is not a second problem
        yield Checked(line, item, record, problems)
    tail = close_frame(state)
    if tail:
        yield Checked(0, None, None, tail)


def detailed_problems(path: str | os.PathLike[str]) -> list[Problem]:
    """Every problem of one log file, in line order, by the detailed check of every line."""
    problems: list[Problem] = []
    for checked in check_file(path):
        problems.extend(checked.problems)
    problems.sort(key=lambda p: p.line)  # stable: end-of-frame checks go back to their line
    return problems
