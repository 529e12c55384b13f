"""The one interface every discipline's rules engine implements.

An engine is a module (``cuelog/replay/snooker.py``, ``cuelog/replay/billiards.py``, a
pool engine under ``cuelog/replay/pool/``) that defines, at module level:

``editions``
    ``{edition name: Edition}``: the parameters of each edition of the discipline, keyed by
    the part of the ruleset id after the ``/`` (``snooker/wpbsa-2024`` -> ``wpbsa-2024``).
``new_frame(match, frame, previous) -> state``
    The state at the start of a frame. ``previous`` is the result of the match's frame
    before (the breaker alternates from it), ``None`` for the first.
``apply(state, record) -> (state, outcome, findings)``
    Fold one record of the frame (stroke, choice, event, clock, frame end) into a state.
    Pure: the state given is left unchanged and a new one is returned, with the *due*
    call of a stroke (:class:`Outcome`, ``None`` for other records) and the findings the
    record raises. The simulator asks for a stroke's due call this way.
``finish(state) -> FrameResult``
    The frame's result from a state: score, recorded score, winner, breaks (the break in
    progress closed on a copy), visits, end reason, breaker. The state given is left
    unchanged. Its findings and outcomes are those the folds returned: an engine may
    keep them in its state (snooker) or leave them to the caller (billiards), so
    :func:`fold_frame` sets them from what ``apply`` gave.
``replay_frame(match, frame, records, previous) -> FrameResult``
    The whole frame at once, with every finding sorted (:meth:`Finding.sort_key`) and the
    outcome of every stroke: the replay's entry point. :func:`fold_frame` is the plain
    way to write it; an engine may write a faster loop that owns its state (no copy per
    record), or read ahead where a rule looks at a later record (billiards reads the
    referee's calls ahead, S3 R11(a)); the fold is what a live follower can know.

A new discipline is added by adding its module and one entry to
:data:`cuelog.schemas.rulesets.DISCIPLINES`
(``Discipline("nineball", engine="cuelog.replay.pool.nineball")``; ``ENGINES`` is derived
from it); the ruleset ids and balls are already in :data:`cuelog.schemas.rulesets.RULESETS`. Everything else (the
replay of logs and of the database, the simulator's oracle, the tests) finds the engine
through :func:`engine_for`. Engines import only ``cuelog.schemas``, ``cuelog.replay`` and
the standard library (checked by ``tests/test_layers.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeAlias

from cuelog.replay.model import Finding, FrameResult, Outcome
from cuelog.schemas.records import Frame, FrameRecord, Match
from cuelog.schemas.rulesets import RULESETS, ruleset

__all__ = ["Engine", "NoEngine", "Step", "engine_for", "fold_frame"]

State: TypeAlias = Any
"""A discipline's frame state: opaque outside its engine."""

Step: TypeAlias = tuple[State, Outcome | None, list[Finding]]
"""What :meth:`Engine.apply` gives: the new state, a stroke's due call, the findings."""


class Engine(Protocol):
    """A discipline's rules engine (see the module docstring for the contract)."""

    @property
    def editions(self) -> Mapping[str, object]: ...

    def new_frame(self, match: Match, frame: Frame, previous: FrameResult | None) -> State: ...

    def apply(self, state: State, record: FrameRecord) -> Step: ...

    def finish(self, state: State) -> FrameResult: ...

    def replay_frame(
        self,
        match: Match,
        frame: Frame,
        records: Sequence[FrameRecord],
        previous: FrameResult | None,
    ) -> FrameResult: ...


class NoEngine(LookupError):
    """The ruleset is known but cuelog has no engine for its discipline yet."""

    def __init__(self, rules: str) -> None:
        super().__init__(rules)
        self.rules = rules

    def __str__(self) -> str:
        have = ", ".join(sorted(r for r, rs in RULESETS.items() if rs.engine is not None))
        return f"no rules engine for {self.rules!r} yet; engines exist for: {have}"


def engine_for(rules: str) -> Engine:
    """The engine of a ruleset id. Raises UnknownRuleset or NoEngine."""
    name = ruleset(rules).engine
    if name is None:
        raise NoEngine(rules)
    try:
        module: Engine = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # Registered, but its module is not in this tree (yet).
        raise NoEngine(rules) from exc
    return module


def fold_frame(
    engine: Engine,
    match: Match,
    frame: Frame,
    records: Sequence[FrameRecord],
    previous: FrameResult | None,
) -> FrameResult:
    """A frame replayed through the pure fold: ``new_frame``, ``apply`` per record, ``finish``.

    The plain ``replay_frame``: an engine may use it as is.
    """
    state = engine.new_frame(match, frame, previous)
    findings: list[Finding] = []
    outcomes: list[Outcome] = []
    for record in records:
        state, outcome, raised = engine.apply(state, record)
        if outcome is not None:
            outcomes.append(outcome)
        findings.extend(raised)
    result = engine.finish(state)
    result.findings = sorted(findings, key=Finding.sort_key)
    result.outcomes = outcomes
    return result
