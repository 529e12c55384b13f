"""The reports as queries: what ``cuelog report`` prints, from a few group rows DuckDB sums.

:func:`report` has DuckDB sum the report summaries of the matches in scope into one row per
group (:mod:`cuelog.store.summed`), or aggregate the replay tables themselves where a match
has no summaries (:mod:`cuelog.store.aggregates`), and works out each report's ratios from
those rows here. No row per stroke, shot, frame or break reaches Python, and nothing here
imports Polars or pyarrow: the command prints its table and ``--json`` from plain values,
and :attr:`Report.frame` makes a Polars frame only for an export or a caller that wants one.

:mod:`cuelog.analytics.reports` summarises the loaded rows themselves with Polars (for the
plots), the same figures; the tests hold the two to each other, column types included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from cuelog.errors import CuelogError
from cuelog.schemas.rulesets import DISCIPLINES
from cuelog.store import aggregates, report_scope, summed
from cuelog.store.report_scope import GroupRows

if TYPE_CHECKING:
    import duckdb
    import polars as pl

KINDS: Final = ("breaks", "billiards", "misses", "clock", "pool", "nineball", "straight-pool")
BY: Final = ("player", "match", "event")
GROUPS: Final = {"player": "players", "match": "matches", "event": "events"}
"""The JSON key holding the rows of each grouping."""

# Which matches each report reads: the discipline that registers it
# (cuelog.schemas.rulesets.DISCIPLINES), or every match.
DISCIPLINE: Final[dict[str, str | None]] = {
    kind: next((d.name for d in DISCIPLINES.values() if kind in d.reports), None) for kind in KINDS
}

FIFTY: Final = 50
CENTURY: Final = 100
CLEARANCE_BALLS: Final = 8
"""A clearance pots the whole group of seven and the black in the winning visit."""

By = Literal["player", "match", "event"]


class ReportError(CuelogError):
    """The report cannot be made: empty database, nothing replayed, unknown name. Exit code 2."""


@dataclass(frozen=True, slots=True)
class Scope:
    """Which matches and players a report covers."""

    players: tuple[str, ...] = ()
    matches: tuple[str, ...] = ()
    events: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Report:
    """A report: one row per group (the group's name first) as plain values, each column
    with its DuckDB type, and the matches in the selection that have no replay results yet
    (left out of the figures)."""

    kind: str
    by: str
    columns: tuple[str, ...]
    types: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]
    unreplayed: tuple[str, ...] = ()

    @property
    def rows(self) -> list[dict[str, Any]]:
        """Each group's row as a dict, in the report's column order."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.values]

    def document(self) -> dict[str, Any]:
        """The ``--json`` document: ``{"report": kind, "by": by, "players": [{"player": ...}, ...]}``."""
        return {"report": self.kind, "by": self.by, GROUPS[self.by]: self.rows}

    @property
    def frame(self) -> pl.DataFrame:
        """The report as a Polars frame with the columns' types (for ``--csv``, ``--parquet``
        and the demo): Polars is imported here, not by the command that only prints."""
        import polars as pl

        typed = {name: _dtype(pl, kind) for name, kind in zip(self.columns, self.types, strict=True)}
        known = {name: dtype for name, dtype in typed.items() if dtype is not None}
        return pl.DataFrame(list(self.values), schema=list(self.columns), schema_overrides=known, orient="row")


def _dtype(pl: Any, duck: str) -> Any:
    """The Polars type of a DuckDB column type a report has (None: left to Polars to infer
    from the values, for a type no report has today)."""
    if duck.endswith("[]"):
        inner = _dtype(pl, duck[:-2])
        return None if inner is None else pl.List(inner)
    types = {"BIGINT": pl.Int64, "INTEGER": pl.Int32, "DOUBLE": pl.Float64, "VARCHAR": pl.String, "BOOLEAN": pl.Boolean}
    return types.get(duck)


# -- the checks a report makes first ---------------------------------------------------------


def key_column(by: str) -> str:
    """The column a grouping ``by`` keys on (``match`` is ``match_id``)."""
    if by not in BY:
        raise ReportError(f"unknown grouping {by!r}; use one of {', '.join(BY)}")
    return "match_id" if by == "match" else by


def in_scope(con: duckdb.DuckDBPyConnection, kind: str, scope: Scope) -> report_scope.InScope:
    """Make the store's ``scope_matches`` for a report of ``kind``; returns what it holds
    (the matches in scope that have no replay results, whether the replayed ones are
    summarised). Raises ReportError for an empty database, no replay results, or a name in
    the scope that the database does not know."""
    if kind not in KINDS:
        raise ReportError(f"unknown report {kind!r}; reports: {', '.join(KINDS)}")
    if report_scope.match_count(con) == 0:
        raise ReportError("the database has no matches; load logs first with `cuelog ingest`")
    if scope.players or scope.matches or scope.events:
        _check_names(report_scope.known_names(con), scope)
    discipline = DISCIPLINE[kind]
    found = report_scope.in_scope(con, discipline, scope.matches, scope.events)
    if not found.matches:
        what = f"{discipline} matches" if discipline else "matches"
        raise ReportError(f"no {what} in the database match the selection (report {kind!r})")
    if not found.replayed:
        raise ReportError("no replay results for these matches; run `cuelog replay --db FILE` first")
    return found


def checked_scope(
    con: duckdb.DuckDBPyConnection, kind: str, scope: Scope, *, direct: bool = False
) -> report_scope.InScope:
    """:func:`in_scope`, and the chosen players must have played a replayed frame of the
    report's matches (counted from the summaries, or with ``direct`` or in a store without
    them from the replay tables). Raises ReportError."""
    found = in_scope(con, kind, scope)
    players = list(scope.players)
    source: Source = aggregates if direct or not found.summarised else summed
    if players and source.frame_rows(con, players) == 0:
        raise ReportError(nothing_played(kind, players))
    return found


def nothing_played(kind: str, names: list[str]) -> str:
    """The error for chosen players who played no replayed frame of the report's matches."""
    discipline = DISCIPLINE[kind]
    who, what = ", ".join(names), f"{discipline} " if discipline else ""
    return f"{who} played no replayed {what}frame in the selection"


def _check_names(known: report_scope.Names, scope: Scope) -> None:
    """Every player, match and event named must exist somewhere in the database."""
    for name in scope.players:
        if name not in known.players:
            raise ReportError(f"no player named {name!r}; players: {', '.join(sorted(known.players))}")
    for mid in scope.matches:
        if mid not in known.matches:
            raise ReportError(f"no match with id {mid!r} ({len(known.matches)} match(es) loaded)")
    for ev in scope.events:
        if ev not in known.events:
            raise ReportError(f"no event named {ev!r}; events: {', '.join(sorted(known.events)) or 'none recorded'}")


# -- each report from its group rows -----------------------------------------------------------


def round2(value: float | None) -> float | None:
    """A figure to two places as Polars' ``round(2)`` gives it (the value scaled by 100,
    rounded half to even, scaled back), so this and the Polars reports agree to the bit;
    Python's ``round(value, 2)`` rounds the decimal value and differs now and then."""
    return None if value is None else round(value * 100) / 100


def ratio(num: int | None, den: int | None) -> float | None:
    """``num / den`` to two places; None where ``den`` is 0 (a player with no visits)."""
    return round2(num / den) if num is not None and den else None


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure worked out from a group row's columns (``inputs``, in the order ``of`` takes
    them), a DOUBLE."""

    inputs: tuple[str, ...]
    of: Callable[..., float | None]


@dataclass(frozen=True, slots=True)
class Shape:
    """How a report is made from its query's group rows: the columns it shows after the
    key, in order; the figures worked out from a row; renamed columns."""

    columns: tuple[str, ...]
    derived: dict[str, Figure]
    renamed: dict[str, str]


def _shaped(
    rows: GroupRows, shape: Shape, key: str, by: str
) -> tuple[tuple[str, ...], tuple[str, ...], list[tuple[Any, ...]]]:
    """The report's columns (the key renamed to ``by``), their types and rows, sorted by
    the key (a group without one, an event not recorded, last). Made column by column:
    by match a season is 59,000 rows, and a dict per row cost a third of a second."""
    names = tuple(shape.renamed.get(name, name) for name in rows.columns)
    types = dict(zip(names, rows.types, strict=True))
    given = dict(zip(names, zip(*rows.rows, strict=True), strict=True)) if rows.rows else dict.fromkeys(names, ())
    columns = (key, *shape.columns)

    def column(name: str) -> Sequence[Any]:
        figure = shape.derived.get(name)
        if figure is None:
            return given[name]
        return list(map(figure.of, *(given[i] for i in figure.inputs)))

    out = list(zip(*map(column, columns), strict=True))
    out.sort(key=lambda r: (r[0] is None, r[0] or ""))
    kinds = tuple("DOUBLE" if c in shape.derived else types[c] for c in columns)
    return (by, *shape.columns), kinds, out


def _mean(total: float | None, count: int) -> float | None:
    return round2(total / count) if total is not None else None


_MISS_COLUMNS: Final = ("frames", "miss_calls", "miss_points_conceded", "fouls", "foul_points_conceded")
_RACK_COLUMNS: Final = ("racks", "racks_won", "break_and_dish", "clearances", "balls", "visits")

SHAPES: Final[dict[str, Shape]] = {
    # S2 R8: every break, 50+ (FIFTY) and centuries (CENTURY).
    "breaks": Shape(("frames", "breaks", "highest", "fifty_plus", "centuries", "total_points"), {}, {}),
    "billiards": Shape(
        ("frames", "points", "visits", "average", "highest_break", "centuries"),
        {"average": Figure(("points", "visits"), ratio)},
        {},
    ),
    # S3 R14: FOUL AND A MISS calls per frame.
    "misses": Shape(
        (*_MISS_COLUMNS, "misses_per_frame", "longest_miss_sequence", "condoned_fouls"),
        {"misses_per_frame": Figure(("miss_calls", "frames"), ratio)},
        {},
    ),
    "clock": Shape(
        ("shots", "mean_s", "median_s", "max_s", "over_limit"),
        {
            "mean_s": Figure(("sum_s", "shots"), _mean),
            "median_s": Figure(("median_s",), round2),
            "max_s": Figure(("max_s",), round2),
        },
        {},
    ),
    "pool": Shape(
        (*_RACK_COLUMNS, "balls_per_visit", "fouls", "fouls_conceded"),
        {"balls_per_visit": Figure(("balls", "visits"), ratio)},
        {},
    ),
    # WPA 2.4: push outs; the break-and-dish of nine-ball is the break-and-run.
    "nineball": Shape(
        ("racks", "racks_won", "break_and_run", "push_outs", "balls", "visits", "fouls", "fouls_conceded"),
        {},
        {"break_and_dish": "break_and_run"},
    ),
    "straight-pool": Shape(
        ("games", "points", "high_run", "innings", "balls_per_inning", "fouls", "foul_points"),
        {"balls_per_inning": Figure(("balls", "innings"), ratio)},
        {},
    ),
}
"""Each report kind from the group rows of its query (:mod:`cuelog.store.summed` and
:mod:`cuelog.store.aggregates` have the same functions and columns)."""

Source = Any
"""Where the group rows come from: :mod:`cuelog.store.summed` or :mod:`cuelog.store.aggregates`."""

_QUERY: Final[dict[str, Callable[[Source, duckdb.DuckDBPyConnection, str, list[str]], GroupRows]]] = {
    "breaks": lambda source, con, key, players: source.breaks(con, key, players, fifty=FIFTY, century=CENTURY),
    "billiards": lambda source, con, key, players: source.billiards(con, key, players, century=CENTURY),
    "misses": lambda source, con, key, players: source.misses(con, key, players),
    "clock": lambda source, con, key, players: source.clock(con, key, players),
    "pool": lambda source, con, key, players: source.pool(con, key, players, clearance=CLEARANCE_BALLS),
    "nineball": lambda source, con, key, players: source.nineball(con, key, players),
    "straight-pool": lambda source, con, key, players: source.straight_pool(con, key, players),
}


def report(
    con: duckdb.DuckDBPyConnection, kind: str, scope: Scope = Scope(), by: str = "player", *, direct: bool = False
) -> Report:
    """Make one report from the replay results in ``con``: DuckDB sums the report summaries
    of the matches in scope into one row per group (:mod:`cuelog.store.summed`: a few rows
    per match, written with the replay), so no row per stroke, shot, frame or break reaches
    Python. Where a replayed match in scope has no summaries (a database replayed before
    them, results read from Parquet), or with ``direct``, DuckDB aggregates the replay
    tables themselves (:mod:`cuelog.store.aggregates`): the same figures, reading every
    stroke. Raises ReportError."""
    key = key_column(by)
    found = checked_scope(con, kind, scope, direct=direct)
    players = list(scope.players)
    source: Source = aggregates if direct or not found.summarised else summed
    columns, types, rows = _shaped(_QUERY[kind](source, con, key, players), SHAPES[kind], key, by)
    return Report(kind, by, columns, types, tuple(rows), tuple(found.unreplayed))
