"""The incremental replay behind ``cuelog watch``: log lines in, messages out.

Each line is decoded and folded into its frame's engine state (:mod:`cuelog.live.fold`)
as it arrives; the findings it raises are said at once with what is due and whether they
can still be put right (:mod:`cuelog.live.remedy`). The records are split into matches
and frames exactly as ``cuelog.replay.replay_match`` splits them, so what the watch said,
less what it withdrew, is what the replay of the finished file reports.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

import msgspec

from cuelog.errors import Problem
from cuelog.ingest.reader import decode_problem
from cuelog.live.fold import LiveFrame, engine_module
from cuelog.live.messages import (
    Closed,
    DueSaid,
    FindingSaid,
    FrameSaid,
    MatchOpened,
    MatchOver,
    Message,
    ProblemSaid,
    Withdrawn,
)
from cuelog.live.remedy import remedy, still_open
from cuelog.live.words import due_words, finding_due
from cuelog.replay import NoEngine, UnknownRuleset, outside_frame
from cuelog.replay.model import Finding, FrameResult, Outcome
from cuelog.replay.rulesets import ruleset
from cuelog.schemas.records import Frame, FrameRecord, Match, Record, decode, kind_of
from cuelog.schemas.rulesets import won_by_rack


@dataclass(slots=True)
class _Match:
    match: Match
    module: object
    discipline: str
    frame: LiveFrame | None = None
    previous: FrameResult | None = None
    won: Counter[str] = field(default_factory=Counter)
    said_frame: FrameSaid | None = None
    due_said: dict[int, Outcome] = field(default_factory=dict)
    open: list[FindingSaid] = field(default_factory=list)
    """Findings said while they could still be put right, whose window has not closed yet."""
    over: bool = False


class Session:
    """Feed it the lines of a log in order; it returns what to say about each."""

    def __init__(self, file: str, *, due: bool = False) -> None:
        self.file = file
        self.due = due
        self.m: _Match | None = None
        self._skipping = False
        self.standing = 0
        """Certain findings said and not withdrawn: they set the exit code, as in the replay."""
        self.uncertain = 0
        """Uncertain findings (``certain`` false) said and not withdrawn: listed, not counted."""
        self.problems = 0
        self.last_record: tuple[Match, Record] | None = None
        """The last record folded, with its match (for the shot clock)."""

    # -- lines --------------------------------------------------------------------------

    def feed(self, line: int, data: bytes) -> list[Message]:
        if not data.strip():
            return []
        try:
            record = decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            return [self._problem(decode_problem(self.file, line, exc))]
        return self.record(line, record)

    def record(self, line: int, record: Record) -> list[Message]:
        self.last_record = None
        if isinstance(record, Match):
            return self._open_match(line, record)
        if self.m is None:
            if self._skipping:
                return []
            what = f"a {kind_of(record)} record"
            return [self._problem(Problem(self.file, line, "type", "no_match", what, "a match record first"))]
        if isinstance(record, Frame):
            return self._open_frame(line, record)
        self.last_record = (self.m.match, record)
        return self._frame_record(line, self.m, record)

    def close(self, line: int) -> list[Message]:
        """The watch stops: close the frame in play, as the replay of the file so far would."""
        out = self._close_frame(line)
        self.m = None
        return out

    @property
    def match_over(self) -> bool:
        """The match in play is decided by its best_of (``None``: no best_of known)."""
        return self.m is not None and self.m.over

    @property
    def has_best_of(self) -> bool:
        return self.m is not None and self.m.match.best_of is not None

    @property
    def frame_ended(self) -> bool:
        return self.m is not None and self.m.frame is not None and self.m.frame.end is not None

    # -- matches and frames -----------------------------------------------------------

    def _problem(self, p: Problem) -> ProblemSaid:
        self.problems += 1
        return ProblemSaid(p)

    def _open_match(self, line: int, record: Match) -> list[Message]:
        out = self._closing(line, self.m, None) if self.m is not None else []
        out += self.close(line)
        try:
            module = engine_module(record.rules)
        except (UnknownRuleset, NoEngine) as exc:
            self._skipping = True
            out.append(self._problem(Problem(self.file, line, "rules", "unknown_rules", record.rules, str(exc))))
            return out
        self._skipping = False
        self.m = _Match(record, module, ruleset(record.rules).discipline)
        out.append(MatchOpened(line, record.match, record.rules, dict(record.sides), record.best_of))
        return out

    def _open_frame(self, line: int, record: Frame) -> list[Message]:
        m = self.m
        assert m is not None
        out = self._close_frame(line)
        out += self._closing(line, m, None)
        m.frame = LiveFrame(m.module, m.match, record, m.previous)
        m.said_frame, m.due_said = None, {}
        return out

    def _close_frame(self, line: int) -> list[Message]:
        m = self.m
        if m is None or m.frame is None:
            return []
        result = m.frame.result()
        out = self._settle(line, m, m.frame, result)
        m.previous, m.frame = result, None
        said = self._frame_said(line, m, result, revised=m.said_frame is not None)
        if m.said_frame is None or not _same(said, m.said_frame):
            out.append(said)
        return out

    def _settle(self, line: int, m: _Match, fr: LiveFrame, result: FrameResult) -> list[Message]:
        """Findings the engine gives only with the frame's result (``finish``), said then."""
        out = self._diff(line, m, fr, fr.findings, result.findings, revised=False)
        fr.findings = list(result.findings)
        return out

    def _frame_said(self, line: int, m: _Match, result: FrameResult, *, revised: bool) -> FrameSaid:
        return FrameSaid(
            line,
            m.match.match,
            result.frame,
            result.score,
            result.recorded,
            result.winner,
            len(result.findings),
            revised,
            rack=won_by_rack(m.match.rules),
            recorded_winner=result.recorded_winner,
        )

    # -- records of a frame -----------------------------------------------------------

    def _frame_record(self, line: int, m: _Match, record: FrameRecord) -> list[Message]:
        fr = m.frame
        if fr is None or record.frame != fr.frame.frame:
            # As replay_match: a record outside its frame's records is reported, not folded.
            return [self._said(line, m, None, outside_frame(record), None)]
        before = list(fr.findings)
        outcomes, findings, refolded = fr.apply(record)
        out: list[Message] = []
        if refolded:
            out.extend(self._revise(line, m, fr, before, outcomes))
        else:
            if self.due:
                out.extend(self._due(line, m, fr, o, revised=False) for o in outcomes)
            out.extend(self._said(line, m, fr, f, _outcome(fr, f.n)) for f in findings)
        if fr.end is not None and record is fr.end:
            out.extend(self._frame_end(line, m, fr))
        out.extend(self._closing(line, m, fr))
        return out

    def _closing(self, line: int, m: _Match, fr: LiveFrame | None) -> list[Message]:
        """Windows this record closed (``fr`` None: the next frame has begun)."""
        out: list[Message] = []
        for said in list(m.open):
            f = said.finding
            still = fr is not None and still_open(
                said.remedy, n=f.n, last_stroke=fr.last_stroke, frame_over=fr.over, next_frame=False
            )
            if not still:
                m.open.remove(said)
                out.append(Closed(line, said.match, said.frame, f, said.remedy))
        return out

    def _count(self, f: Finding, step: int) -> None:
        if f.certain:
            self.standing += step
        else:
            self.uncertain += step

    def _said(self, line: int, m: _Match, fr: LiveFrame | None, f: Finding, o: Outcome | None) -> FindingSaid:
        r = remedy(m.discipline, f.kind)
        last = fr.last_stroke if fr is not None else f.n
        winner = getattr(fr.state, "winner", None) if fr is not None else None
        is_open = fr is not None and still_open(r, n=f.n, last_stroke=last, frame_over=fr.over, next_frame=False)
        self._count(f, 1)
        frame = fr.frame.frame if fr is not None else None
        due = finding_due(f, o, m.match.sides, winner)
        said = FindingSaid(line, m.match.match, frame, f, due, r, is_open, max(last, f.n))
        if is_open:
            m.open.append(said)
        return said

    def _revise(
        self, line: int, m: _Match, fr: LiveFrame, before: list[Finding], outcomes: list[Outcome]
    ) -> list[Message]:
        """The frame so far was judged again: withdraw what no longer stands, say what is new."""
        out = self._diff(line, m, fr, before, fr.findings, revised=True)
        if self.due:
            out.extend(self._revise_due(line, m, fr, outcomes))
        return out

    def _diff(
        self, line: int, m: _Match, fr: LiveFrame, said: list[Finding], now: list[Finding], *, revised: bool
    ) -> list[Message]:
        old, new = Counter(said), Counter(now)
        out: list[Message] = []
        for f in sorted((old - new).elements(), key=Finding.sort_key):
            self._count(f, -1)
            m.open = [o for o in m.open if o.finding != f or o.frame != fr.frame.frame]
            why = f"the record on line {line} changes the judgment of stroke {f.n}"
            out.append(Withdrawn(line, m.match.match, fr.frame.frame, f, why))
        for f in sorted((new - old).elements(), key=Finding.sort_key):
            out.append(replace(self._said(line, m, fr, f, _outcome(fr, f.n)), revised=revised))
        return out

    def _due(self, line: int, m: _Match, fr: LiveFrame, o: Outcome, *, revised: bool) -> DueSaid:
        m.due_said[o.n] = o
        return DueSaid(line, m.match.match, fr.frame.frame, o, due_words(o, m.match.sides), revised)

    def _revise_due(self, line: int, m: _Match, fr: LiveFrame, outcomes: list[Outcome]) -> list[Message]:
        """Due calls said before that the frame judged again gives differently."""
        return [self._due(line, m, fr, o, revised=True) for o in outcomes if o.n in m.due_said and m.due_said[o.n] != o]

    def _frame_end(self, line: int, m: _Match, fr: LiveFrame) -> list[Message]:
        result = fr.result()
        out = self._settle(line, m, fr, result)
        said = self._frame_said(line, m, result, revised=m.said_frame is not None)
        m.said_frame = said
        out.append(said)
        winner = fr.end.winner if fr.end is not None and fr.end.winner else result.winner
        if winner is not None:
            m.won[winner] += 1
        best_of = m.match.best_of
        if best_of is not None and not m.over and max(m.won.values(), default=0) > best_of // 2:
            m.over = True
            out.append(MatchOver(line, m.match.match, (m.won["A"], m.won["B"])))
        return out


def _outcome(fr: LiveFrame, n: int) -> Outcome | None:
    for o in reversed(fr.outcomes):
        if o.n == n:
            return o
    return None


def _same(a: FrameSaid, b: FrameSaid) -> bool:
    def said(m: FrameSaid) -> tuple[object, ...]:
        return (m.score, m.recorded, m.winner, m.recorded_winner, m.findings)

    return said(a) == said(b)
