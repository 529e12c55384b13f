"""The watch's messages as terminal lines or as JSON Lines (one object per message).

Text that came from the log (names, ids, messages) is escaped before it reaches a
terminal: a control character in a player's name must not move the cursor. JSON escapes
it by itself.
"""

from __future__ import annotations

import json
from typing import Any

from cuelog.live.messages import (
    Closed,
    DueSaid,
    FindingSaid,
    FrameSaid,
    MatchOpened,
    MatchOver,
    Message,
    ProblemSaid,
    ShotSaid,
    Withdrawn,
)
from cuelog.replay.model import Outcome
from cuelog.replay.output import finding_doc, rack_words


def clean(text: object) -> str:
    """Printable text: control characters (ANSI escapes included) shown as escapes."""
    s = str(text)
    if s.isprintable():
        return s
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in s)


_WHY = {
    "next_stroke": "the next stroke was made",
    "frame_end": "the frame has ended",
    "next_frame": "the next frame has begun",
    "never": "",
}


def _score(score: tuple[int, int] | None) -> str:
    return "-" if score is None else f"{score[0]}-{score[1]}"


def _finding_text(m: FindingSaid) -> str:
    f = m.finding
    where = f"frame {m.frame} stroke {f.n}" if m.frame is not None else f"match, after stroke {f.n}"
    late = f" (found at stroke {m.found_at})" if m.found_at > f.n else ""
    head = "REVISED " if m.revised else ""
    if not f.certain:
        head += f"UNCERTAIN (unless {clean(f.unless or '-')}; not counted) "
    if m.open:
        fix = f"can still be put right: {m.remedy.how} ({m.remedy.rule})"
    elif m.remedy.until == "never":
        fix = f"{m.remedy.how}"
    else:
        fix = f"too late to put right ({m.remedy.rule})"
    return (
        f"{head}{where}{late}  {clean(f.rule)}  {clean(m.due)}  [{fix}]\n"
        f"    {f.kind}  side {f.side or '-'}  {f.points} pt  {clean(f.message)}  (line {m.line})"
    )


def text(m: Message) -> str:
    """One message as terminal text (one or two lines, no trailing newline)."""
    if isinstance(m, FindingSaid):
        return _finding_text(m)
    if isinstance(m, Withdrawn):
        f = m.finding
        return (
            f"CORRECTION frame {m.frame} stroke {f.n}: withdrawn {f.kind} {clean(f.rule)} "
            f"({clean(f.message)}): {clean(m.reason)}"
        )
    if isinstance(m, Closed):
        f = m.finding
        return (
            f"closed frame {m.frame} stroke {f.n}: {f.kind} can no longer be put right, "
            f"{_WHY[m.remedy.until]} ({m.remedy.rule})  (line {m.line})"
        )
    if isinstance(m, DueSaid):
        o = m.outcome
        head = "REVISED due" if m.revised else "due"
        return f"{head} frame {m.frame} stroke {o.n} ({clean(o.striker)}): {clean(m.text)}"
    if isinstance(m, FrameSaid):
        head = "CORRECTION frame" if m.revised else "frame"
        if m.rack:
            said = rack_words(m.winner, m.recorded_winner, m.recorded)
            return f"{head} {m.frame} result: {said}, {m.findings} finding(s)  (line {m.line})"
        return (
            f"{head} {m.frame} result: official {_score(m.score)}, recorded {_score(m.recorded)}, "
            f"winner {clean(m.winner or '-')}, {m.findings} finding(s)  (line {m.line})"
        )
    if isinstance(m, MatchOpened):
        sides = f"{clean(m.sides.get('A', 'A'))} v {clean(m.sides.get('B', 'B'))}"
        return f"match {clean(m.match)}  {clean(m.rules)}  {sides}  (line {m.line})"
    if isinstance(m, MatchOver):
        return f"match {clean(m.match)} over: frames {m.frames[0]}-{m.frames[1]}  (line {m.line})"
    if isinstance(m, ShotSaid):
        limit = f", limit {m.limit_s:.1f} s" if m.limit_s is not None else ""
        return f"shot frame {m.frame} stroke {m.n}: {m.shot_s:.1f} s (paused {m.paused_s:.1f} s{limit})"
    if isinstance(m, ProblemSaid):
        return f"BAD LINE {clean(m.problem)}; watching on"
    return f"{m.code}: {clean(m.message)}"


def _outcome_doc(o: Outcome) -> dict[str, Any]:
    return {
        "n": o.n,
        "striker": o.striker,
        "ball_on": o.ball_on,
        "foul": o.foul,
        "reasons": list(o.reasons),
        "scored": o.scored,
        "penalty": o.penalty,
        "miss": o.miss,
        "free_ball": o.free_ball,
        "respots": [{"ball": b, "spot": s} for b, s in o.respots],
        "next_striker": o.next_striker,
        "score": list(o.score),
        "frame_over": o.frame_over,
        "winner": o.winner,
    }


def _where(event: str, m: FindingSaid | Withdrawn | Closed | DueSaid | FrameSaid) -> dict[str, Any]:
    return {"event": event, "line": m.line, "match": m.match, "frame": m.frame}


def _finding_said_doc(m: FindingSaid) -> dict[str, Any]:
    r = m.remedy
    put_right = {"open": m.open, "until": r.until, "rule": r.rule, "how": r.how}
    extra = {"due": m.due, "put_right": put_right, "found_at": m.found_at, "revised": m.revised}
    return {**_where("finding", m), **finding_doc(m.finding), **extra}


def _frame_said_doc(m: FrameSaid) -> dict[str, Any]:
    recorded = list(m.recorded) if m.recorded is not None else None
    result = {"score": list(m.score), "recorded": recorded, "winner": m.winner, "findings": m.findings}
    return {**_where("frame", m), **result, "revised": m.revised}


def _shot_doc(m: ShotSaid) -> dict[str, Any]:
    where = {"event": "shot", "match": m.match, "frame": m.frame, "n": m.n}
    return {**where, "shot_s": m.shot_s, "paused_s": m.paused_s, "limit_s": m.limit_s, "csv_line": m.csv_line}


def doc(m: Message) -> dict[str, Any]:
    """One message as a JSON object; ``event`` says which."""
    if isinstance(m, FindingSaid):
        return _finding_said_doc(m)
    if isinstance(m, Withdrawn):
        return {**_where("withdrawn", m), "finding": finding_doc(m.finding), "reason": m.reason}
    if isinstance(m, Closed):
        window = {"until": m.remedy.until, "rule": m.remedy.rule}
        return {**_where("closed", m), "finding": finding_doc(m.finding), **window}
    if isinstance(m, DueSaid):
        return {**_where("due", m), **_outcome_doc(m.outcome), "call": m.text, "revised": m.revised}
    if isinstance(m, FrameSaid):
        return _frame_said_doc(m)
    if isinstance(m, MatchOpened):
        opened = {"rules": m.rules, "sides": m.sides, "best_of": m.best_of}
        return {"event": "match", "line": m.line, "match": m.match, **opened}
    if isinstance(m, MatchOver):
        return {"event": "match_over", "line": m.line, "match": m.match, "frames": list(m.frames)}
    if isinstance(m, ShotSaid):
        return _shot_doc(m)
    if isinstance(m, ProblemSaid):
        return {"event": "problem", **m.problem.to_dict()}
    return {"event": "notice", "code": m.code, "message": m.message, "line": m.line}


def json_line(m: Message) -> str:
    return json.dumps(doc(m), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
