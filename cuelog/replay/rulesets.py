"""The ruleset registry lives in :mod:`cuelog.schemas.rulesets` (ingest reads it without
importing an engine); these names stay importable from here."""

from __future__ import annotations

from cuelog.schemas.rulesets import (
    BILLIARDS_BALLS,
    BILLIARDS_SPOTS,
    ENGINES,
    POOL_GROUP_BALLS,
    POOL_NUMBERED_BALLS,
    POOL_SPOTS,
    RULESETS,
    SNOOKER_BALLS,
    SNOOKER_SPOTS,
    Ruleset,
    UnknownRuleset,
    ruleset,
)

__all__ = [
    "BILLIARDS_BALLS",
    "BILLIARDS_SPOTS",
    "ENGINES",
    "POOL_GROUP_BALLS",
    "POOL_NUMBERED_BALLS",
    "POOL_SPOTS",
    "RULESETS",
    "SNOOKER_BALLS",
    "SNOOKER_SPOTS",
    "Ruleset",
    "UnknownRuleset",
    "ruleset",
]
