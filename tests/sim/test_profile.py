"""The simulated season resembles the game (wide bands: a sanity check, not a fit)."""

from __future__ import annotations

from collections import Counter

from cuelog.replay import replay_matches
from cuelog.schemas.records import Choice, Event, Record, Stroke
from cuelog.simulate import SeasonConfig, simulate_season
from cuelog.simulate.profile import billiards_averages, snooker_profile
from cuelog.simulate.season import roster
from tests.sim.conftest import needs_billiards, needs_snooker


def _season(cfg: SeasonConfig) -> tuple[list[Record], int]:
    records: list[Record] = []
    strokes = 0
    for sim in simulate_season(cfg, workers=2):
        records.extend(sim.records)
        strokes += sim.strokes
    return records, strokes


@needs_snooker
def test_snooker_breaks_resemble_the_professional_game() -> None:
    records, strokes = _season(SeasonConfig("snooker/wpbsa-2024", 60, 2026))
    p = snooker_profile(replay_matches(records), strokes)
    calls = [r.call for r in records if isinstance(r, Stroke) and r.call is not None]
    events = Counter(r.kind for r in records if isinstance(r, Event))
    choices = Counter(r.option for r in records if isinstance(r, Choice))
    # The incidents of a professional season: fouls, FOUL AND A MISS with the balls
    # replaced, free balls, in-offs, concessions when needing snookers.
    assert sum(c.foul for c in calls) >= p.frames // 2
    assert sum(c.miss for c in calls) >= 20 and choices["replace_return"] >= 10
    assert sum(c.free_ball for c in calls) >= 5
    assert sum(1 for r in records if isinstance(r, Stroke) and "white" in r.potted) >= 20
    assert events["concede"] >= p.frames // 4
    assert p.frames >= 240
    # Centuries in a few percent of frames, a 50+ in about half of them.
    assert 0.02 <= p.century_frames <= 0.15
    assert 0.35 <= p.fifty_frames <= 0.75
    # Most frames are won in one or two visits.
    assert p.winner_top_two >= 0.75
    assert 100 <= p.highest <= 147


@needs_billiards
def test_billiards_averages_by_tier() -> None:
    cfg = SeasonConfig("billiards/wpbsa-2024", 40, 2026)
    records, _ = _season(cfg)
    avg = billiards_averages(replay_matches(records), roster(cfg))
    strokes = [r for r in records if isinstance(r, Stroke)]
    # Every way of scoring and of fouling shows up.
    assert any(r.then for r in strokes)  # cannons
    assert any("red" in r.potted for r in strokes)
    assert any(r.call is not None and r.call.foul for r in strokes)
    assert 2.0 <= avg["club"] <= 6.0
    assert avg["pro"] >= 30.0
    assert avg["club"] < avg["amateur"] < avg["pro"]
