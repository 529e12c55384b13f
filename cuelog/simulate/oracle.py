"""The rules engine as the simulator's oracle: what calls are due for these facts?

The simulator never decides a call itself. It hands the facts of a stroke (calls left
absent) to the engine's pure fold ``apply(state, record)``
(:class:`cuelog.replay.engine.Engine`) and reads the due call from the
:class:`~cuelog.replay.model.Outcome`; then it advances the engine with the record as
written. One concept, one place: the rules live in ``cuelog.replay`` only.
"""

from __future__ import annotations

from typing import Any

from cuelog.replay.engine import Engine, Step, engine_for
from cuelog.replay.model import FrameResult, Outcome
from cuelog.schemas.records import Frame, FrameRecord, Match


class Oracle:
    """One match's engine: start frames, ask for due calls, advance with written records."""

    __slots__ = ("fold", "match")

    def __init__(self, match: Match) -> None:
        self.match = match
        self.fold: Engine = engine_for(match.rules)

    def new_frame(self, frame: Frame, previous: FrameResult | None) -> Any:
        return self.fold.new_frame(self.match, frame, previous)

    def due(self, state: Any, facts: FrameRecord) -> Outcome:
        """The due call of a stroke whose calls are absent. The state is not advanced."""
        _, outcome, _ = self.fold.apply(state, facts)
        if outcome is None:  # pragma: no cover - an engine always answers a stroke
            raise RuntimeError(f"engine gave no outcome for {facts!r}")
        return outcome

    def apply(self, state: Any, record: FrameRecord) -> Step:
        return self.fold.apply(state, record)
