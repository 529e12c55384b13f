"""A season: a roster of players, a schedule of matches, each match played frame by frame.

Every match draws from its own ``random.Random`` seeded from the season seed, so a match
is the same whichever process plays it and in whatever order: the season's bytes depend
on the seed and the settings only.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from cuelog.ingest.processes import worker_pool
from cuelog.replay.engine import NoEngine
from cuelog.schemas.records import Frame, Match, Record, Stroke
from cuelog.schemas.rulesets import DISCIPLINES, Ruleset, ruleset
from cuelog.simulate.clock import MatchClock, epoch_ms, iso
from cuelog.simulate.oracle import Oracle
from cuelog.simulate.players import Player, make_player
from cuelog.simulate.scribe import Mistakes, Scribe, Truth

ROSTER = 32
TABLES = 4


@dataclass(frozen=True, slots=True)
class SeasonConfig:
    """What to simulate. ``best_of``/``reds``/``target`` of ``None`` take the defaults of
    the discipline (snooker best of 7 with 15 reds, billiards one game to the tier's target);
    a ``reds`` of 0 gives each match a random short frame (3 to 15 reds)."""

    rules: str
    matches: int
    seed: int
    errors: float = 0.0
    best_of: int | None = None
    reds: int | None = None
    target: int | None = None
    prefix: str | None = None
    check: bool = False
    kinds: frozenset[str] | None = None
    """The kinds of officiating error to inject (None: every kind the discipline offers)."""


class Simulator(Protocol):
    """A discipline's simulated play: a module (``cuelog/simulate/snooker.py``) registered
    by path in :data:`cuelog.schemas.rulesets.DISCIPLINES`."""

    @property
    def TIERS(self) -> tuple[tuple[str, float], ...]:
        """Share of each player tier in a season's roster."""

    @property
    def MISTAKES(self) -> Mistakes:
        """The officiating errors the discipline's scribe can make."""

    def match_settings(
        self, config: SeasonConfig, rs: Ruleset, tier: str, rng: random.Random
    ) -> tuple[int, dict[str, object]]:
        """A match's frames (best of) and the match record's discipline fields."""

    def play_frame(
        self,
        *,
        match: Match,
        frame_no: int,
        breaker: str,
        players: dict[str, Player],
        rng: random.Random,
        scribe: Scribe,
        clock: MatchClock,
    ) -> str:
        """Play one frame through the scribe; the winning side."""


def simulator(rules: str) -> Simulator:
    """The simulated play of a ruleset's discipline. Raises UnknownRuleset or NoEngine."""
    rs = ruleset(rules)
    d = DISCIPLINES.get(rs.discipline)
    if d is None or d.simulator is None:
        raise NoEngine(rules)
    module: Simulator = importlib.import_module(d.simulator)
    return module


@dataclass(slots=True)
class SimMatch:
    """One simulated match: its records, its shot-clock device rows, the injected errors."""

    match: Match
    records: list[Record] = field(default_factory=list)
    clock_rows: list[str] = field(default_factory=list)
    truth: list[Truth] = field(default_factory=list)

    @property
    def strokes(self) -> int:
        return sum(1 for r in self.records if isinstance(r, Stroke))


def roster(config: SeasonConfig) -> list[Player]:
    rng = random.Random(f"{config.seed}:roster:{config.rules}")
    tiers = simulator(config.rules).TIERS
    used: set[str] = set()
    players = []
    for i in range(ROSTER):
        share, tier = 0.0, "pro"
        for tier_name, w in tiers:
            share += w
            if i < share * ROSTER:
                tier = tier_name
                break
        players.append(make_player(rng, tier, used))
    return players


def match_seeds(config: SeasonConfig) -> list[int]:
    rng = random.Random(f"{config.seed}:matches:{config.rules}")
    return [rng.getrandbits(64) for _ in range(config.matches)]


def simulate_match(config: SeasonConfig, index: int, seed: int, players: list[Player]) -> SimMatch:
    """Play match number ``index`` (0-based) of the season from its own seed."""
    rs = ruleset(config.rules)
    gen = simulator(config.rules)
    rng = random.Random(seed)
    err_rng = random.Random(f"{seed}:errors")
    tier = rng.choice([p.tier for p in players])
    pool = [p for p in players if p.tier == tier]
    a, b = rng.sample(pool, 2)
    sides = {"A": a, "B": b}
    day, table_no = divmod(index, TABLES)
    prefix = config.prefix or rs.discipline
    # Table names are unique to the season's venue: shot clocks are matched by table and time.
    table = f"{prefix}-{table_no + 1}"
    start = epoch_ms(2026, 9, 1, 13) + day * 86_400_000 + rng.randint(0, 600) * 1000
    match_id = f"{prefix}-{index + 1:05d}"
    best_of, extra = gen.match_settings(config, rs, tier, rng)
    match = Match(
        format="cuelog/1",
        match=match_id,
        rules=config.rules,
        sides={"A": a.name, "B": b.name},
        best_of=best_of,
        event=f"cuelog {rs.discipline} season {config.seed}",
        date=iso(start)[:10],
        table=table,
        referee=rng.choice(("O. Marteel", "L. Jansen", "B. Brown", "P. Collins", "T. Ding")),
        **extra,  # type: ignore[arg-type]
    )
    sim = SimMatch(match, [match])
    oracle = Oracle(match)
    clock = MatchClock(table, start, rng)
    wins = {"A": 0, "B": 0}
    need = best_of // 2 + 1
    frame_no = 0
    while max(wins.values()) < need:
        frame_no += 1
        breaker = "A" if frame_no % 2 == 1 else "B"
        frame = Frame(frame_no, breaker, iso(clock.now))
        sim.records.append(frame)
        scribe = Scribe(
            oracle=oracle,
            state=oracle.new_frame(frame, None),
            match_id=match_id,
            frame=frame_no,
            rate=config.errors,
            rng=err_rng,
            mistakes=gen.MISTAKES,
            check=config.check,
            kinds=config.kinds,
        )
        winner = gen.play_frame(
            match=match, frame_no=frame_no, breaker=breaker, players=sides, rng=rng, scribe=scribe, clock=clock
        )
        wins[winner] += 1
        sim.records.extend(scribe.records)
        sim.truth.extend(scribe.truth)
        clock.wait(rng.uniform(120, 420))
    sim.clock_rows = clock.csv_rows()
    return sim


def _play(args: tuple[SeasonConfig, int, int, list[Player]]) -> SimMatch:
    return simulate_match(*args)


def simulate_season(config: SeasonConfig, workers: int = 1) -> Iterator[SimMatch]:
    """The season's matches in schedule order; ``workers`` > 1 plays them in processes
    (the output is the same)."""
    players = roster(config)
    jobs = [(config, i, s, players) for i, s in enumerate(match_seeds(config))]
    if workers <= 1:
        for job in jobs:
            yield _play(job)
        return
    # Not forked from this process: `cuelog demo` runs its progress bar's thread in it.
    with worker_pool(_play, workers) as pool:
        yield from pool.map(_play, jobs, chunksize=max(1, len(jobs) // (workers * 8)))
