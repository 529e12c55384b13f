"""The rules engine as the simulator's oracle: what calls are due for these facts?

The simulator never decides a call itself. It hands the facts of a stroke (calls left
absent) to the engine's pure fold ``apply(state, record)`` and reads the due call from
the :class:`~cuelog.replay.model.Outcome`; then it advances the engine with the record as
written. One concept, one place: the rules live in ``cuelog.replay`` only.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from cuelog.replay import ENGINES, NoEngine
from cuelog.replay.model import Finding, FrameResult, Outcome
from cuelog.schemas.records import Frame, FrameRecord, Match
from cuelog.schemas.rulesets import ruleset


class Fold(Protocol):
    def new_frame(self, match: Match, frame: Frame, previous: FrameResult | None) -> Any: ...

    def apply(self, state: Any, record: FrameRecord) -> tuple[Any, Outcome | None, list[Finding]]: ...


def engine_fold(rules: str) -> Fold:
    """The engine module of a ruleset, which exposes ``new_frame`` and ``apply``."""
    rs = ruleset(rules)
    name = ENGINES.get(rs.discipline)
    if name is None:
        raise NoEngine(rules)
    try:
        module: Fold = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        raise NoEngine(rules) from exc
    return module


class Oracle:
    """One match's engine: start frames, ask for due calls, advance with written records."""

    __slots__ = ("fold", "match")

    def __init__(self, match: Match) -> None:
        self.match = match
        self.fold = engine_fold(match.rules)

    def new_frame(self, frame: Frame, previous: FrameResult | None) -> Any:
        return self.fold.new_frame(self.match, frame, previous)

    def due(self, state: Any, facts: FrameRecord) -> Outcome:
        """The due call of a stroke whose calls are absent. The state is not advanced."""
        _, outcome, _ = self.fold.apply(state, facts)
        if outcome is None:  # pragma: no cover - an engine always answers a stroke
            raise RuntimeError(f"engine gave no outcome for {facts!r}")
        return outcome

    def apply(self, state: Any, record: FrameRecord) -> tuple[Any, Outcome | None, list[Finding]]:
        return self.fold.apply(state, record)
