"""One frame's engine state, advanced record by record through the engine's pure fold.

``cuelog.replay`` replays a finished frame with ``replay_frame``; the watch cannot wait
for the frame to finish, so it drives the same fold, ``new_frame`` then ``apply`` for
each record as it arrives, and ``finish`` when asked for the frame's result. Nothing is
replayed from the frame's start, with one exception the engine itself makes: the
billiards engine reads the referee's calls ahead (``billiards.replay_frame``: a late
TEN HAZARDS call still entitles the striker to five more, S3 R11(a)), so a referee's call
refolds the game so far with every call known, exactly as the replay of the file would.
"""

from __future__ import annotations

from typing import Any

from cuelog.replay.engine import engine_for
from cuelog.replay.model import Finding, FrameResult, Outcome
from cuelog.schemas.records import Event, Frame, FrameEnd, FrameRecord, Match, Stroke


def engine_module(rules: str) -> Any:
    """The engine of a ruleset (the engine protocol of ``cuelog.replay.engine``).

    Raises UnknownRuleset or NoEngine.
    """
    return engine_for(rules)


def _is_call(record: FrameRecord) -> bool:
    return isinstance(record, Event) and record.kind == "referee_call" and bool(record.call)


class LiveFrame:
    """The state of one frame in play, its records so far, the findings and due calls they gave."""

    def __init__(self, module: Any, match: Match, frame: Frame, previous: FrameResult | None) -> None:
        self.module, self.match, self.frame, self.previous = module, match, frame, previous
        self.state: Any = module.new_frame(match, frame, previous)
        self.records: list[FrameRecord] = []
        self.findings: list[Finding] = []
        self.outcomes: list[Outcome] = []
        self.end: FrameEnd | None = None
        self.last_stroke = 0
        self._reads_calls = hasattr(self.state, "calls")

    def apply(self, record: FrameRecord) -> tuple[list[Outcome], list[Finding], bool]:
        """Fold one record. Returns the due calls and findings it gave, and whether the
        frame so far was judged again (then they are the whole frame's)."""
        self.records.append(record)
        if isinstance(record, FrameEnd):
            self.end = record
        if isinstance(record, Stroke):
            self.last_stroke = max(self.last_stroke, record.n)
        if self._reads_calls and _is_call(record):
            self._refold()
            return list(self.outcomes), list(self.findings), True
        self.state, outcome, findings = self.module.apply(self.state, record)
        outcomes = [outcome] if outcome is not None else []
        self.outcomes.extend(outcomes)
        self.findings.extend(findings)
        return outcomes, list(findings), False

    def _refold(self) -> None:
        calls = tuple((r.after, r.call) for r in self.records if isinstance(r, Event) and _is_call(r))
        state = self.module.new_frame(self.match, self.frame, self.previous)
        state.calls = calls
        self.outcomes, self.findings = [], []
        for r in self.records:
            state, outcome, findings = self.module.apply(state, r)
            if _is_call(r):
                state.calls = calls  # already known: folding it must not count it twice
            if outcome is not None:
                self.outcomes.append(outcome)
            self.findings.extend(findings)
        self.state = state

    @property
    def over(self) -> bool:
        """The rules have ended the frame, or its end was recorded."""
        return bool(getattr(self.state, "over", False)) or self.end is not None

    def result(self) -> FrameResult:
        """The frame's result as the replay of the records so far gives it."""
        result: FrameResult = self.module.finish(self.state)
        # An engine's finish may leave the findings and due calls of the fold to its caller
        # (billiards) or give them whole, with any it finds only at the frame's end (snooker).
        if not result.findings:
            result.findings = sorted(self.findings, key=Finding.sort_key)
        if not result.outcomes:
            result.outcomes = list(self.outcomes)
        return result
