"""A season simulator: cuelog/1 logs with shot-clock CSVs and injected officiating errors.

Rulesets: snooker (wpbsa-2024, six-reds-2024, classic) and English billiards (wpbsa-2024,
classic, one-red): every edition whose engine exists and that plays without a shot clock.

The player model decides the *facts* of every stroke (what the balls did); the rules
engine of the match's discipline says what the *calls* are due; the scribe writes the
correct calls, then, at the chosen rate, an officiating error whose truth goes to
``errors.jsonl``. The audit (``cuelog replay``) is measured against that truth.

Everything is driven by ``random.Random`` seeded from the season seed: the same seed gives
the same bytes, with no wall clock and no global random state.
"""

from __future__ import annotations

from cuelog.simulate.season import SeasonConfig, SimMatch, simulate_match, simulate_season

__all__ = ["SeasonConfig", "SimMatch", "simulate_match", "simulate_season"]
