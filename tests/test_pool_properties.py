"""Properties of the pool engines (eight-ball editions, nine-ball), on racks played stroke
by stroke through them.

The simulator's player model draws the facts (pots, safeties, misses, fouls, the black at
the wrong moment), asks the engine what the rules make of each stroke and writes exactly
those calls, as a faultless referee would. Then, for every edition:

- a rack with correct calls raises no finding;
- ``apply`` never changes the state it is given;
- replaying the same records twice gives the same bytes.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuelog.replay import replay_matches
from cuelog.replay.output import document, dumps
from cuelog.replay.pool import eightball, nineball, straight_pool
from cuelog.schemas.records import Frame, Match
from cuelog.simulate import eightball as sim_eightball
from cuelog.simulate import nineball as sim_nineball
from cuelog.simulate import straight_pool as sim_straight_pool
from cuelog.simulate.clock import MatchClock, epoch_ms
from cuelog.simulate.oracle import Oracle
from cuelog.simulate.players import make_player
from cuelog.simulate.scribe import Scribe

EDITIONS = (
    "eightball/world-2015", "eightball/wepf", "eightball/wpa", "eightball/blackball", "nineball/wpa",
    "straight-pool/wpa",
)  # fmt: skip
SIMS = {"eightball": sim_eightball, "nineball": sim_nineball, "straight-pool": sim_straight_pool}
ENGINES = {"eightball": eightball, "nineball": nineball, "straight-pool": straight_pool}


def _sim(rules: str) -> Any:
    return SIMS[rules.split("/")[0]]


def _engine(rules: str) -> Any:
    return ENGINES[rules.split("/")[0]]


def _rack(rules: str, seed: int, tier: str) -> tuple[Match, Frame, Scribe]:
    rng = random.Random(seed)
    target = 20 if rules.startswith("straight-pool/") else None
    match = Match(format="cuelog/1", match="p", rules=rules, sides={"A": "a", "B": "b"}, target=target)
    frame = Frame(frame=1, breaker=rng.choice("AB"))
    oracle = Oracle(match)
    scribe = Scribe(
        oracle=oracle,
        state=oracle.new_frame(frame, None),
        match_id="p",
        frame=1,
        rate=0.0,
        rng=random.Random(0),
        mistakes=_sim(rules).MISTAKES,
        check=True,  # every record written is checked: no finding may appear
    )
    used: set[str] = set()
    players = {"A": make_player(rng, tier, used), "B": make_player(rng, tier, used)}
    clock = MatchClock("t", epoch_ms(2026, 9, 1, 13), rng)
    _sim(rules).play_frame(
        match=match, frame_no=1, breaker=frame.breaker or "A", players=players, rng=rng, scribe=scribe, clock=clock
    )
    return match, frame, scribe


def _snapshot(s: Any) -> tuple[Any, ...]:
    fields = tuple(repr(getattr(s, f.name)) for f in dataclasses.fields(s) if f.name != "ledger")
    ledger = s.ledger
    return (*fields, tuple(ledger.visits), ledger.visit_id, tuple(ledger.official))


@pytest.mark.parametrize("rules", EDITIONS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), tier=st.sampled_from(["pro", "amateur", "club"]))
def test_correct_calls_give_no_findings(rules: str, seed: int, tier: str) -> None:
    match, frame, scribe = _rack(rules, seed, tier)
    (result,) = replay_matches([match, frame, *scribe.records])
    assert result.frames[0].findings == [] and result.frames[0].winner is not None


@pytest.mark.parametrize("rules", EDITIONS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_apply_never_changes_the_state_it_is_given(rules: str, seed: int) -> None:
    match, frame, scribe = _rack(rules, seed, "club")
    oracle = Oracle(match)
    state = oracle.new_frame(frame, None)
    for record in scribe.records:
        before = _snapshot(state)
        new, _, _ = _engine(rules).apply(state, record)
        assert _snapshot(state) == before
        state = new


@pytest.mark.parametrize("rules", EDITIONS)
def test_same_records_same_bytes(rules: str) -> None:
    match, frame, scribe = _rack(rules, 7, "amateur")
    records = [match, frame, *scribe.records]
    one = dumps(document(replay_matches(records), "t"))
    two = dumps(document(replay_matches(list(records)), "t"))
    assert one == two
