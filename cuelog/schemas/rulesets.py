"""The rulesets cuelog knows: ``discipline/edition`` ids, their balls, spots, rule book and engine.

Editions are data: each engine module keeps its own edition parameters keyed by the
edition name; this registry only says which ids exist, which balls and spots they use and
which module replays them, so that ingest can check a log without importing an engine.

A discipline's engine, simulator and report kinds are registered by module path in
:data:`DISCIPLINES` (strings, so this bottom layer imports nothing above it); the engine
module implements :class:`cuelog.replay.engine.Engine`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SNOOKER_BALLS: Final = frozenset({"white", "red", "yellow", "green", "brown", "blue", "pink", "black"})
BILLIARDS_BALLS: Final = frozenset({"white", "yellow", "red"})
POOL_GROUP_BALLS: Final = frozenset({"white", "red", "yellow", "black"})
POOL_NUMBERED_BALLS: Final = frozenset({"white", *(str(i) for i in range(1, 16))})

SNOOKER_SPOTS: Final = frozenset({"yellow", "green", "brown", "blue", "pink", "black", "near"})
BILLIARDS_SPOTS: Final = frozenset({"spot", "pyramid", "centre", "baulk_middle", "d_right"})
POOL_SPOTS: Final = frozenset({"foot"})
STRAIGHT_POOL_SPOTS: Final = POOL_SPOTS | {"head", "center", "rack"}
"""14.1 also places balls on the head and center spots and back in the rack (WPA 4.8)."""


@dataclass(frozen=True, slots=True)
class Discipline:
    """What cuelog has for a discipline, each part named by module path (a string: this
    bottom layer imports none of them)."""

    name: str
    engine: str
    """The rules engine (:class:`cuelog.replay.engine.Engine`)."""
    simulator: str | None = None
    """The simulator's player of the discipline (:class:`cuelog.simulate.season.Simulator`)."""
    reports: tuple[str, ...] = ()
    """The ``cuelog report`` kinds that read only this discipline's matches."""


# A new discipline adds its modules and one entry here.
DISCIPLINES: Final[dict[str, Discipline]] = {
    d.name: d
    for d in (
        Discipline(
            "snooker",
            engine="cuelog.replay.snooker",
            simulator="cuelog.simulate.snooker",
            reports=("breaks", "misses"),
        ),
        Discipline(
            "billiards",
            engine="cuelog.replay.billiards",
            simulator="cuelog.simulate.billiards",
            reports=("billiards",),
        ),
        Discipline(
            "eightball",
            engine="cuelog.replay.pool.eightball",
            simulator="cuelog.simulate.eightball",
            reports=("pool",),
        ),
        Discipline(
            "nineball",
            engine="cuelog.replay.pool.nineball",
            simulator="cuelog.simulate.nineball",
            reports=("nineball",),
        ),
        Discipline(
            "straight-pool",
            engine="cuelog.replay.pool.straight_pool",
            simulator="cuelog.simulate.straight_pool",
            reports=("straight-pool",),
        ),
    )
}

ENGINES: Final[dict[str, str]] = {name: d.engine for name, d in DISCIPLINES.items()}
"""Disciplines whose engine exists, and the module that implements it."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A known ruleset: ``id`` is ``discipline/edition`` as written in the match record."""

    id: str
    discipline: str
    edition: str
    balls: frozenset[str]
    spots: frozenset[str]
    source: str
    """The rule book it follows (a seed in the shared rule books)."""

    @property
    def engine(self) -> str | None:
        """The module path of the engine that replays this ruleset (None: none yet)."""
        return ENGINES.get(self.discipline)


def _rs(id_: str, balls: frozenset[str], spots: frozenset[str], source: str) -> Ruleset:
    discipline, edition = id_.split("/", 1)
    return Ruleset(id_, discipline, edition, balls, spots, source)


RULESETS: Final[dict[str, Ruleset]] = {
    rs.id: rs
    for rs in (
        _rs("snooker/wpbsa-2024", SNOOKER_BALLS, SNOOKER_SPOTS, "WPBSA Official Rules, September 2024"),
        _rs("snooker/six-reds-2024", SNOOKER_BALLS, SNOOKER_SPOTS, "WPBSA 2024, S3 R19 Six Reds Snooker"),
        _rs("snooker/shootout-2024", SNOOKER_BALLS, SNOOKER_SPOTS, "WPBSA Snooker Shootout Competition Rules"),
        _rs("snooker/classic", SNOOKER_BALLS, SNOOKER_SPOTS, "Rules of Snooker (older edition)"),
        _rs("billiards/wpbsa-2024", BILLIARDS_BALLS, BILLIARDS_SPOTS, "WPBSA 2024, English Billiards"),
        _rs("billiards/classic", BILLIARDS_BALLS, BILLIARDS_SPOTS, "Rules of Billiards (older edition)"),
        _rs("billiards/one-red", BILLIARDS_BALLS, BILLIARDS_SPOTS, "Snooker - 1 Red"),
        _rs("eightball/world-2015", POOL_GROUP_BALLS, POOL_SPOTS, "World Eight Ball Rules 2015"),
        _rs("eightball/wepf", POOL_GROUP_BALLS, POOL_SPOTS, "WEPF Eight Ball Rules"),
        _rs("eightball/blackball", POOL_GROUP_BALLS, POOL_SPOTS, "WPA Black Ball"),
        _rs("eightball/wpa", POOL_NUMBERED_BALLS, POOL_SPOTS, "WPA Eight Ball"),
        _rs("nineball/wpa", POOL_NUMBERED_BALLS, POOL_SPOTS, "WPA Nine Ball"),
        _rs("straight-pool/wpa", POOL_NUMBERED_BALLS, STRAIGHT_POOL_SPOTS, "WPA 14.1 Continuous"),
    )
}


class UnknownRuleset(KeyError):
    """The match names a ruleset cuelog does not know."""

    def __init__(self, rules: str) -> None:
        super().__init__(rules)
        self.rules = rules

    def __str__(self) -> str:
        known = ", ".join(sorted(RULESETS))
        return f"unknown rules {self.rules!r}; expected one of: {known}"


def ruleset(rules: str) -> Ruleset:
    """The ruleset named ``rules``; raises :class:`UnknownRuleset`."""
    try:
        return RULESETS[rules]
    except KeyError:
        raise UnknownRuleset(rules) from None
