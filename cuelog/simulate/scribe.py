"""The scribe: writes each stroke with the due calls, or with an injected error.

Shared by every discipline. For each stroke the frame generator gives the facts; the
scribe asks the oracle for the due call, writes the calls a correct referee and scorer
would, and, at the error rate, replaces one of them with a mistake a real official makes.
The truth of every mistake goes to ``errors.jsonl`` under the docs/format.md section 7 kind
the audit must report.

Only mistakes the facts make detectable are injected, and each one is kept local:
the scoreboard after a mistake keeps moving by the right amounts (the audit compares
movements), a colour left off the table is put back by a ``spot_correction`` once the
referee notices (S3 R7(c)), a colour spotted in error is removed (S3 R7(b)).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import msgspec

from cuelog.replay.model import (
    CONDONED_FOUL,
    FREE_BALL_ERROR,
    LIMIT_EXCEEDED,
    PENALTY_VALUE,
    RESPOT_IN_ERROR,
    RESPOT_MISSING,
    RESPOT_WRONG_SPOT,
    SCORE_MISMATCH,
    Outcome,
)
from cuelog.schemas.records import Call, Choice, Event, FrameEnd, FrameRecord, Respot, Stroke
from cuelog.simulate.oracle import Oracle

_INDEX = {"A": 0, "B": 1}


@dataclass(frozen=True, slots=True)
class Truth:
    """One injected error: where it is and the finding kind the audit must report."""

    match: str
    frame: int
    stroke: int
    kind: str
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "frame": self.frame,
            "stroke": self.stroke,
            "kind": self.kind,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class Mistakes:
    """What an official may get wrong in one discipline: the alternatives to a due call."""

    penalties: tuple[int, ...]
    """Penalty values a referee might call by mistake."""
    spotted: dict[str, str]
    """Balls a referee may spot in error when they must stay off, and the spot used."""
    wrong_spots: tuple[str, ...]
    """Where a ball may be put by mistake, detectably without positions."""
    value: dict[str, int]
    """Face value of each ball (a free ball misvalued is scored at its face value)."""
    rest: tuple[float, float] = (150.0, 1500.0)
    """Where the cue ball is written to rest when positions show a wrong spot: by the
    side cushion, clear of every spot, so the due spot is the ball's own."""


@dataclass(slots=True)
class Written:
    """A stroke as written and what the rules make of it with the calls as made."""

    record: Stroke
    due: Outcome
    outcome: Outcome
    error: str | None
    missing: tuple[str, ...] = ()
    """Balls that should have been spotted and were not (to be corrected later)."""
    extra: tuple[str, ...] = ()
    """Balls spotted in error (to be removed later)."""


@dataclass(slots=True)
class Scribe:
    """Writes one frame's records and keeps the engine state and the scoreboard."""

    oracle: Oracle
    state: Any
    match_id: str
    frame: int
    rate: float
    rng: random.Random
    """The error dice, separate from the player model's."""
    mistakes: Mistakes
    records: list[FrameRecord] = field(default_factory=list)
    truth: list[Truth] = field(default_factory=list)
    scoreboard: list[int] = field(default_factory=lambda: [0, 0])
    """The scoreboard as written."""
    official: tuple[int, int] = (0, 0)
    """The score the rules give (from the engine), for the players' decisions."""
    visitor: str | None = None
    """The side whose visit is in progress, and its break so far as the marker counts it."""
    run: int = 0
    n: int = 0
    check: bool = False
    """Fail loudly when the engine reports a finding the simulator did not inject."""
    kinds: frozenset[str] | None = None
    """The kinds of error to inject (None: every kind)."""

    def roll(self, kind: str, boost: float = 1.0) -> bool:
        """Whether to make an error of ``kind`` where the play offers one (a rare chance,
        like a claim or a sixteenth hazard, is taken ``boost`` times as often)."""
        if self.rate <= 0 or (self.kinds is not None and kind not in self.kinds):
            return False
        return self.rng.random() < min(1.0, self.rate * boost)

    def inject(self, kind: str, detail: str) -> None:
        """Record an error made by an event after the last stroke (e.g. an invalid claim)."""
        self.truth.append(Truth(self.match_id, self.frame, self.n, kind, detail))

    # -- strokes -----------------------------------------------------------------------

    def stroke(
        self,
        facts: Stroke,
        *,
        free_ball: bool = False,
        taking_free_ball: bool = False,
        allow_errors: bool = True,
        cue: str = "white",
        force: str | None = None,
    ) -> Written:
        """Write one stroke. ``facts`` has its calls absent; ``free_ball`` is the referee's
        judgement that the incoming player is snookered after a foul (a positional fact);
        ``taking_free_ball`` says the striker plays a free ball (its nominated ball);
        ``force`` is an error the player model set up (a foul left uncalled whose kind is
        more specific than ``condoned_foul``, e.g. ``limit_exceeded``)."""
        i = _INDEX[facts.striker]
        before = self.official
        due = as_made = self.oracle.due(self.state, facts)
        call = None
        if due.foul:
            reason = due.reasons[0] if due.reasons else None
            call = Call(foul=True, miss=due.miss, free_ball=free_ball, reason=reason)
            # The penalty, and what is spotted after a foul (a colour potted in sequence
            # in a foul is spotted), depend on the foul being called: ask with the call made.
            due = self.oracle.due(self.state, msgspec.structs.replace(facts, call=call))
            if not due.frame_over:
                call = msgspec.structs.replace(call, points=due.penalty)
            as_made = due
        respots = [Respot(ball, spot) for ball, spot in due.respots]
        # The scoreboard follows the rules with the calls as made.
        moved = [as_made.score[0] - before[0], as_made.score[1] - before[1]]
        positions = facts.positions
        error = None
        missing: tuple[str, ...] = ()
        extra: tuple[str, ...] = ()
        if force is not None:
            error = force
        elif allow_errors and self.rate > 0 and not due.frame_over:
            kinds = self._candidates(facts, due, taking_free_ball)
            if self.kinds is not None:
                kinds = [k for k in kinds if k in self.kinds]
            if kinds and self.rng.random() < self.rate:
                error = self.rng.choice(kinds)
        detail = ""
        if error in (CONDONED_FOUL, LIMIT_EXCEEDED):
            call = None
            condoned = self.oracle.due(self.state, facts)
            moved = [condoned.score[0] - before[0], condoned.score[1] - before[1]]
            detail = f"{due.penalty}-point foul ({', '.join(due.reasons)}) not called"
        elif error == PENALTY_VALUE:
            assert call is not None
            wrong = self.rng.choice([p for p in self.mistakes.penalties if p != due.penalty])
            call = msgspec.structs.replace(call, points=wrong)
            moved[1 - i] += wrong - due.penalty  # the scorer follows the referee's call
            detail = f"penalty {wrong} called, {due.penalty} due"
        elif error == RESPOT_MISSING:
            ball, _ = self.rng.choice(due.respots)
            respots = [r for r in respots if r.ball != ball]
            missing = (ball,)
            detail = f"{ball} not spotted"
        elif error == RESPOT_WRONG_SPOT:
            k = self.rng.choice([j for j, r in enumerate(respots) if self._wrong_spots(r.spot)])
            wrong_spot = self.rng.choice([s for s in self.mistakes.wrong_spots if s != respots[k].spot])
            detail = f"{respots[k].ball} spotted on {wrong_spot}, due on {respots[k].spot}"
            respots[k] = Respot(respots[k].ball, wrong_spot)
            # Only the rest positions show that the ball's own spot was free (S2 R18).
            positions = [(cue, *self.mistakes.rest)]
        elif error == RESPOT_IN_ERROR:
            ball = next(b for b in facts.potted if b in self.mistakes.spotted and b not in dict(due.respots))
            respots.append(Respot(ball, self.mistakes.spotted[ball]))
            extra = (ball,)
            detail = f"{ball} spotted in error"
        elif error == FREE_BALL_ERROR:
            face = self.mistakes.value[facts.potted[0]]
            detail = f"free ball scored {face}, worth {moved[i]}"
            moved[i] = face
        elif error == SCORE_MISMATCH:
            slip = self.rng.choice([-2, -1, 1, 2, 10])
            slip = max(slip, -(self.scoreboard[i] + moved[i]))
            moved[i] += slip
            detail = f"scoreboard slip of {slip}"
        self.scoreboard[0] += moved[0]
        self.scoreboard[1] += moved[1]
        # The marker's break counter follows the scoreboard within the visit (S2 R8).
        run = self.run if self.visitor == facts.striker else 0
        run = 0 if call is not None and call.foul else run + max(moved[i], 0)
        record = msgspec.structs.replace(
            facts,
            call=call,
            respots=respots if (facts.potted or respots) else None,
            score=list(self.scoreboard),
            break_=run,
            positions=positions,
        )
        self.state, outcome, findings = self.oracle.apply(self.state, record)
        assert outcome is not None
        self.official = outcome.score
        self.visitor, self.run = (None, 0) if outcome.turn_ends else (facts.striker, run)
        if error is not None:
            self.truth.append(Truth(self.match_id, self.frame, facts.n, error, detail))
        self.records.append(record)
        self.n = facts.n
        if self.check:
            self._expect(findings, error)
        return Written(record, due, outcome, error, missing, extra)

    def _candidates(self, facts: Stroke, due: Outcome, taking_free_ball: bool) -> list[str]:
        kinds: list[str] = []
        if due.foul and all(b == "white" for b in facts.potted):
            # A foul with no object ball potted: condoned, it leaves the table as it is.
            kinds.append(CONDONED_FOUL)
        if due.foul:
            kinds.append(PENALTY_VALUE)
        if due.respots and not due.foul:
            kinds.append(RESPOT_MISSING)
            if any(self._wrong_spots(spot) for _, spot in due.respots):
                kinds.append(RESPOT_WRONG_SPOT)
        spotted = dict(due.respots)
        if not due.foul and any(b in self.mistakes.spotted and b not in spotted for b in facts.potted):
            kinds.append(RESPOT_IN_ERROR)
        free_ball_potted = taking_free_ball and not due.foul and facts.nominated and facts.potted == [facts.nominated]
        if free_ball_potted and self.mistakes.value[facts.nominated or ""] != due.scored:
            kinds.append(FREE_BALL_ERROR)
        if not due.foul and due.scored > 0:
            kinds.append(SCORE_MISMATCH)
            if len(kinds) > 1:
                kinds.remove(SCORE_MISMATCH)
        return kinds

    def _wrong_spots(self, spot: str | None) -> list[str]:
        return [s for s in self.mistakes.wrong_spots if s != spot]

    def _expect(self, findings: list[Any], error: str | None) -> None:
        kinds = sorted({f.kind for f in findings})
        want = [] if error is None else [error]
        if kinds != want:
            raise AssertionError(
                f"{self.match_id} frame {self.frame} stroke {self.n}: engine found {kinds}, injected {want}: {findings}"
            )

    # -- other records -----------------------------------------------------------------

    def choice(self, side: str, option: str, nominated: str | None = None) -> None:
        self._other(Choice(self.frame, self.n, side, option, nominated))

    def event(self, kind: str, expect: str | None = None, **fields: Any) -> Event:
        ev = Event(self.frame, self.n, kind, **fields)
        self._other(ev, expect)
        return ev

    def _other(self, record: FrameRecord, expect: str | None = None) -> None:
        self.state, _, findings = self.oracle.apply(self.state, record)
        self.records.append(record)
        if self.check:
            self._expect(findings, expect)

    def end(self, winner: str, reason: str) -> FrameEnd:
        rec = FrameEnd(self.frame, winner, list(self.scoreboard), reason)
        self.state, _, findings = self.oracle.apply(self.state, rec)
        self.records.append(rec)
        if self.check:
            self._expect(findings, None)
        return rec
