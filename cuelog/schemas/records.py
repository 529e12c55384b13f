"""The cuelog/1 record types (docs/format.md section 4).

One canonical event model: every reader produces these, every engine consumes them.
They are immutable msgspec structs, decoded straight from JSON. A field that is absent
or ``null`` in the log is ``None`` here and means *unknown* (docs/format.md 1.2); an empty
list is a fact.

JSON names that are Python keywords or clash with builtins are renamed: ``break`` is
``break_``. Unknown JSON fields are accepted and ignored, so newer writers stay readable.

The structs are not tracked by Python's cyclic collector (``gc=False``): a record is decoded
from JSON and frozen, so what it holds (numbers, texts, lists and dicts of them, the parts'
structs) can never lead back to it, and no cycle can form through it. Ingest and replay
decode a million of them for a season; tracking each cost 5% of decoding and freeing them
(benchmarks/README.md, "Records not tracked by the collector").
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias, Union, get_args

import msgspec

Side: TypeAlias = Literal["A", "B"]
"""A side of the match: ``"A"`` or ``"B"``."""

# fmt: off
Ball: TypeAlias = Literal[
    "white", "red", "yellow", "green", "brown", "blue", "pink", "black",
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
]
# fmt: on
"""A ball name of any ruleset: the published schema's ``ball``. Which ones a match may use
depends on its rules (:data:`cuelog.schemas.rulesets.RULESETS`, docs/format.md section 3),
so :class:`Stroke` reads a ball as any text and the checks judge it (a stroke naming only
balls of this list decodes as :class:`TypedStroke`)."""


def other(side: str) -> str:
    """The opponent of ``side``."""
    return "B" if side == "A" else "A"


class Cushions(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, forbid_unknown_fields=False):
    """Cushion facts of a stroke."""

    objects: int | None = None
    after_contact: bool | None = None
    cue_first: bool | None = None


class Infringement(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A referee-judged fact with no ball physics (docs/format.md stroke ``infringements``)."""

    code: str
    ball: str | None = None


class Call(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """The referee's call on a stroke. ``None`` in a stroke means no foul was called."""

    foul: bool = False
    points: int | None = None
    miss: bool = False
    free_ball: bool = False
    reason: str | None = None
    visits: int | None = None
    ball_in_hand: bool | None = None
    loss_of_frame: bool | None = None


class Respot(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A ball placed on the table by the referee: on a named spot or at coordinates."""

    ball: str
    spot: str | None = None
    x: float | None = None
    y: float | None = None


class Match(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="match", tag_field="type"):
    """Opens a match; every following record belongs to it until the next match."""

    format: str
    match: str
    rules: str
    sides: dict[str, str]
    best_of: int | None = None
    event: str | None = None
    date: str | None = None
    venue: str | None = None
    table: str | None = None
    referee: str | None = None
    reds: int | None = None
    aggregate: bool | None = None
    target: int | None = None
    time_limit_s: float | None = None
    cue_balls: dict[str, str] | None = None
    baulk_line: bool | None = None
    table_mm: list[float] | None = None
    players: dict[str, list[str]] | None = None


class Frame(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="frame", tag_field="type"):
    """Opens a frame (a billiards game, a pool rack)."""

    frame: int
    breaker: str | None = None
    t: str | None = None
    reds: int | None = None
    positions: list[tuple[str, float, float]] | None = None


class Stroke(
    msgspec.Struct,
    frozen=True,
    gc=False,
    omit_defaults=True,
    tag="stroke",
    tag_field="type",
    rename={"break_": "break"},
):
    """One stroke: facts (what the balls did) and calls (what the officials did)."""

    frame: int
    n: int
    striker: str
    first: list[str]
    potted: list[str]
    t: str | None = None
    then: list[str] | None = None
    pockets: list[str] | None = None
    off_table: list[str] | None = None
    cushions: Cushions | None = None
    nominated: str | None = None
    pocket_called: str | None = None
    placement: str | None = None
    crossed_baulk: bool | None = None
    push_out: bool | None = None
    infringements: list[Infringement] | None = None
    positions: list[tuple[str, float, float]] | None = None
    call: Call | None = None
    respots: list[Respot] | None = None
    score: list[int] | None = None
    break_: int | None = None


class Choice(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="choice", tag_field="type"):
    """What the incoming player chose after a foul, a push out or a bad break."""

    frame: int
    after: int
    side: str
    option: str
    nominated: str | None = None


class Event(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="event", tag_field="type"):
    """Everything that is not a stroke: concessions, claims, awards, warnings, ..."""

    frame: int
    after: int
    kind: str
    side: str | None = None
    reason: str | None = None
    code: str | None = None
    ball: str | None = None
    points: int | None = None
    call: str | None = None
    spot: str | None = None
    remove: bool | None = None
    group: str | None = None


class FrameEnd(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="frame_end", tag_field="type"):
    """The result of a frame as recorded."""

    frame: int
    winner: str | None = None
    score: list[int] | None = None
    reason: str | None = None


class Clock(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, tag="clock", tag_field="type"):
    """A shot-clock reading already aligned to a stroke."""

    frame: int
    n: int
    limit_s: float | None = None
    elapsed_s: float | None = None
    paused_s: float | None = None


class Correction(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, forbid_unknown_fields=True):
    """An officials' correction of one stroke (docs/format.md section 6), applied before replay.

    ``set`` maps stroke fields (JSON names) to their corrected values.
    """

    match: str
    frame: int
    n: int
    set: dict[str, Any]
    note: str | None = None


class TypedStroke(
    Stroke, frozen=True, gc=False, omit_defaults=True, tag="stroke", tag_field="type", rename={"break_": "break"}
):
    """A stroke as :func:`decode` gives it when its striker and the balls of its lists
    (``first``, ``potted``, ``then``, ``off_table``) are the published schema's ``side`` and
    ``ball`` (:data:`Side`, :data:`Ball`): the same fields, those texts typed as the enums.

    The decoder then gives every ``"A"`` or ``"red"`` as one string shared by all strokes
    instead of a new one each: the ingest's fast check took 0.89x the CPU, and the replay
    decodes a stored stroke in about 0.8x the time (benchmarks/README.md, "The fast check:
    strokes decoded with the schema's enums", "The replay's strokes decoded as the fast
    check's"). A stroke with any other text there decodes as a plain :class:`Stroke`, for
    the checks to judge against the match's ruleset; a stroke a correction rewrites is a
    plain one too (:func:`cuelog.ingest.corrections.apply_corrections`).

    It is a :class:`Stroke` (``isinstance`` says so); the engines' loops ask ``type(r) is
    TypedStroke or type(r) is Stroke``, which takes a third of the time ``isinstance`` takes
    for a subclass. Like any msgspec struct it equals only a struct of its own type.
    """

    # The same fields, narrowed. A frozen struct's fields are read-only, so a narrower type
    # is sound; mypy still holds a list's item type invariant, hence the ignores.
    striker: Side
    first: list[Ball]  # type: ignore[assignment]
    potted: list[Ball]  # type: ignore[assignment]
    then: list[Ball] | None = None  # type: ignore[assignment]
    off_table: list[Ball] | None = None  # type: ignore[assignment]


Record: TypeAlias = Match | Frame | Stroke | Choice | Event | FrameEnd | Clock
"""Any cuelog/1 record."""

FrameRecord: TypeAlias = Stroke | Choice | Event | FrameEnd | Clock
"""A record that belongs to a frame."""

RECORD_TYPES: dict[str, type[Record]] = {
    "match": Match,
    "frame": Frame,
    "stroke": Stroke,
    "choice": Choice,
    "event": Event,
    "frame_end": FrameEnd,
    "clock": Clock,
}

_decoder: msgspec.json.Decoder[Record] = msgspec.json.Decoder(Record)
_encoder = msgspec.json.Encoder()

typed_decoder: msgspec.json.Decoder[Record] = msgspec.json.Decoder(
    Union[tuple(TypedStroke if t is Stroke else t for t in get_args(Record))]  # noqa: UP007
)
"""The records' decoder with :class:`TypedStroke` for :class:`Stroke` (every other record
type as :data:`Record` has it): it fails on a stroke naming a side or ball outside the
schema, which :func:`decode` then reads as text."""


def decode(line: bytes | str) -> Record:
    """Decode one JSON line into its record (a stroke as :class:`TypedStroke` when its names
    are the schema's). Raises ``msgspec.ValidationError``/``DecodeError``.

    JSON nested deeper than the decoder can follow is a ``DecodeError`` too, never a
    ``RecursionError``: a hostile line is bad input like any other.
    """
    try:
        return typed_decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError):
        pass  # the plain decoder's record, or its error, as the line has always been read
    except RecursionError:
        raise msgspec.DecodeError("JSON nested too deeply to decode") from None
    try:
        return _decoder.decode(line)
    except RecursionError:
        raise msgspec.DecodeError("JSON nested too deeply to decode") from None


def kind_of(record: Record) -> str:
    """A record's type as the log writes it (``"stroke"``, ``"frame_end"``)."""
    return str(record.__struct_config__.tag)


def encode(record: Record) -> bytes:
    """Encode a record as compact JSON (absent fields left out)."""
    return _encoder.encode(record)
