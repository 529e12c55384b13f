"""The audit report: one match's replay as a document an official can read, print and file.

``render`` turns a replayed match (its records and its :class:`MatchResult`) into one
self-contained HTML page: a header (event, date, venue, table, referee, players, the
ruleset and its rule book, cuelog's version, when the report was made), a summary
(scores per frame, findings by kind, corrections applied) and a section per frame (the
score worm as inline SVG with the findings marked, and the findings beside the stroke's
facts, the recorded calls and the due calls). ``write_pdf`` prints the same page to PDF.

Nothing here reads the clock: the report's date is taken from the data or given, so the
same input gives the same bytes.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from cuelog.analytics.report_html import Mark, esc, page, worm_svg
from cuelog.analytics.rulebook import RuleBook
from cuelog.errors import CuelogError
from cuelog.replay.model import Finding, FrameResult, MatchResult, Outcome
from cuelog.schemas.records import Call, Choice, Event, FrameEnd, Match, Record, Stroke


class PdfUnavailable(CuelogError):
    """The HTML-to-PDF library is not installed."""

    def __str__(self) -> str:
        return (
            "writing PDF needs WeasyPrint: pip install 'cuelog[pdf]' "
            "(it uses the system's Pango library: apt-get install libpango-1.0-0 libpangoft2-1.0-0)"
        )


class NoSuchFrame(CuelogError, LookupError):
    """A frame was asked for that the match does not have."""


@dataclass(slots=True)
class Audit:
    """What a report is made of: the match record, its other records and its replay, with
    what the report says of the rules (the discipline, the rule book the ruleset follows)
    and of the program that made it."""

    match: Match
    records: list[Record]
    result: MatchResult
    discipline: str
    """The match's discipline: which book of a rule-book file its citations point into."""
    book: str | None = None
    """The rule book the ruleset follows (its registry's ``source``)."""
    made_by: str = "cuelog"
    frames: list[int] | None = None
    """Only these frames (``--frame``); None for all."""
    strokes: dict[tuple[int, int], Stroke] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.strokes = {(r.frame, r.n): r for r in self.records if isinstance(r, Stroke)}

    def chosen(self) -> list[FrameResult]:
        frames = sorted(self.result.frames, key=lambda fr: fr.frame)
        if self.frames is None:
            return frames
        have = {fr.frame for fr in frames}
        missing = [n for n in self.frames if n not in have]
        if missing:
            raise NoSuchFrame(
                f"match {self.match.match!r} has no frame {', '.join(map(str, missing))} "
                f"(frames: {', '.join(str(n) for n in sorted(have)) or 'none'})"
            )
        return [fr for fr in frames if fr.frame in self.frames]


def is_certain(f: Finding) -> bool:
    """A finding no unrecorded fact could excuse (docs/format.md section 7: absent means certain)."""
    return f.certain


def made_at(records: Sequence[Record], match: Match) -> str:
    """When the report is dated when no ``--at`` is given: the last time the log records
    (a stroke's ``t``), else the match date. Never the clock, so the bytes stay the same."""
    times = [(_instant(r.t), r.t) for r in records if isinstance(r, Stroke) and r.t]
    known = [(when, text) for when, text in times if when is not None]
    if known:
        return max(known)[1]
    return match.date or "undated"


def _instant(text: str) -> datetime | None:
    """A stroke time as an instant; None for one without a UTC offset (its instant is unknown)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def findings_of(audit: Audit) -> list[tuple[int | None, Finding]]:
    """Every finding in the report, (frame, finding), in frame and stroke order."""
    out: list[tuple[int | None, Finding]] = []
    if audit.frames is None:
        out.extend((None, f) for f in sorted(audit.result.findings, key=Finding.sort_key))
    for fr in audit.chosen():
        out.extend((fr.frame, f) for f in sorted(fr.findings, key=Finding.sort_key))
    return out


# -- text of facts and calls -----------------------------------------------------------------


def _balls(balls: Sequence[str] | None) -> str:
    if balls is None:
        return "not recorded"
    return ", ".join(balls) if balls else "nothing"


def facts_text(s: Stroke) -> str:
    """What the balls did, as recorded: the facts the rules are applied to."""
    lines = [f"first: {_balls(s.first)}", f"potted: {_balls(s.potted)}"]
    if s.pockets:
        lines[-1] += f" ({', '.join(s.pockets)})"
    if s.then:
        lines.append(f"then: {_balls(s.then)}")
    if s.off_table:
        lines.append(f"off table: {_balls(s.off_table)}")
    for name in ("nominated", "pocket_called", "placement"):
        value = getattr(s, name)
        if value is not None:
            lines.append(f"{name.replace('_', ' ')}: {value}")
    if s.infringements:
        codes = (f"{i.code} ({i.ball})" if i.ball else i.code for i in s.infringements)
        lines.append(f"infringements: {', '.join(codes)}")
    return "\n".join(lines)


def _call_text(call: Call | None) -> str:
    if call is None or not (call.foul or call.miss):
        return "no foul called"
    flags = [
        name.replace("_", " ") for name in ("miss", "free_ball", "ball_in_hand", "loss_of_frame") if getattr(call, name)
    ]
    text = f"foul, {call.points} points" if call.foul else "miss"
    if call.reason:
        text += f" ({call.reason})"
    return text + (f"; {', '.join(flags)}" if flags else "")


def recorded_text(s: Stroke) -> str:
    """The officials' calls on the stroke, as recorded."""
    lines = [_call_text(s.call)]
    if s.respots is not None:
        spots = (f"{r.ball} on {r.spot}" if r.spot else f"{r.ball} at ({r.x}, {r.y})" for r in s.respots)
        lines.append(f"spotted: {', '.join(spots) or 'nothing'}")
    if s.score is not None:
        lines.append(f"scoreboard: {'-'.join(map(str, s.score))}")
    if s.break_ is not None:
        lines.append(f"break: {s.break_}")
    return "\n".join(lines)


def due_text(o: Outcome) -> str:
    """What the rules make of the stroke: the due call, the spots, the score."""
    if o.foul:
        lines = [f"foul, {o.penalty} points" + (f" ({', '.join(o.reasons)})" if o.reasons else "")]
    else:
        lines = [f"no foul; scores {o.scored}"]
    flags = [text for flag, text in ((o.miss, "foul and a miss"), (o.free_ball, "free ball")) if flag]
    if flags:
        lines.append(", ".join(flags))
    lines.append(f"spot: {', '.join(f'{b} on {s}' for b, s in o.respots) or 'nothing'}")
    lines.append(f"score: {o.score[0]}-{o.score[1]}")
    return "\n".join(lines)


# -- the document --------------------------------------------------------------------------


def _score(score: Sequence[int] | None) -> str:
    return "-" if score is None else f"{score[0]}-{score[1]}"


def _side(audit: Audit, side: str | None) -> str:
    if side is None:
        return "-"
    return f"{audit.match.sides.get(side, side)} ({side})"


def header(audit: Audit, at: str, rulebooks: Sequence[RuleBook]) -> str:
    m = audit.match
    players = " v ".join(
        f"{m.sides.get(s, s)}" + (f" ({' & '.join(m.players[s])})" if m.players and s in m.players else "")
        for s in ("A", "B")
    )
    rows = [
        ("match", m.match),
        ("event", m.event),
        ("date", m.date),
        ("venue", m.venue),
        ("table", m.table),
        ("referee", m.referee),
        ("players", players),
        ("rules", f"{m.rules}" + (f", following {audit.book}" if audit.book else "")),
        ("rule book quoted", ", ".join(b.source for b in rulebooks) or "none given (--rulebook FILE)"),
        ("made by", audit.made_by),
        ("report made", at),
    ]
    items = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v if v is not None else '-')}</dd>" for k, v in rows)
    title = f"{m.sides.get('A', 'A')} v {m.sides.get('B', 'B')}"
    return (
        '<header id="head">\n<h1>Audit report</h1>\n'
        f'<p class="muted">{esc(title)}{esc(", " + m.event) if m.event else ""}</p>\n'
        f'<dl class="head">{items}</dl>\n</header>\n'
    )


def summary(audit: Audit) -> str:
    frames = audit.chosen()
    rows = []
    for fr in frames:
        certain = [f for f in fr.findings if is_certain(f)]
        differs = fr.recorded is not None and tuple(fr.recorded) != tuple(fr.score)
        rows.append(
            f'<tr data-frame="{fr.frame}"><td class="num">{fr.frame}</td>'
            f'<td class="num official">{_score(fr.score)}</td>'
            f'<td class="num recorded{" differs" if differs else ""}">{_score(fr.recorded)}</td>'
            f"<td>{esc(_side(audit, fr.winner))}</td><td>{esc(_side(audit, fr.recorded_winner))}</td>"
            f'<td class="num">{len(certain)}</td><td class="num">{sum(f.points for f in certain)}</td>'
            f'<td class="num">{len(fr.findings) - len(certain)}</td></tr>'
        )
    found = findings_of(audit)
    certain = [f for _, f in found if is_certain(f)]
    kinds = Counter(f.kind for f in certain)
    points = Counter[str]()
    for f in certain:
        points[f.kind] += f.points
    by_kind = "".join(
        f'<tr><td class="kind">{esc(k)}</td><td class="num">{kinds[k]}</td><td class="num">{points[k]}</td></tr>'
        for k in sorted(kinds, key=lambda k: (-kinds[k], k))
    )
    out = [
        f'<section id="summary" data-findings="{len(certain)}" data-uncertain="{len(found) - len(certain)}">\n',
        "<h2>Summary</h2>\n",
        f"<p>{len(frames)} frame(s), {len(certain)} finding(s)"
        f"{f', {len(found) - len(certain)} uncertain' if len(found) != len(certain) else ''}.</p>\n",
        '<div class="wide"><table class="frames"><thead><tr><th class="num">frame</th><th class="num">official score</th>'
        '<th class="num">recorded score</th><th>winner (rules)</th><th>winner (recorded)</th>'
        '<th class="num">findings</th><th class="num">points at stake</th><th class="num">uncertain</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>\n",
    ]
    if by_kind:
        out.append(
            '<h3>Findings by kind</h3>\n<table class="kinds"><thead><tr><th>kind</th><th class="num">findings</th>'
            f'<th class="num">points they moved</th></tr></thead><tbody>{by_kind}</tbody></table>\n'
        )
    out.append(corrections(audit))
    if audit.frames is None and audit.result.findings:
        out.append("<h3>Findings outside any frame</h3>\n" + findings_table(audit, None, audit.result.findings, []))
    out.append("</section>\n")
    return "".join(out)


def corrections(audit: Audit) -> str:
    applied = sorted(audit.result.corrections, key=lambda c: (c.frame, c.n))
    if audit.frames is not None:
        applied = [c for c in applied if c.frame in audit.frames]
    if not applied:
        return "<h3>Corrections applied</h3>\n<p>None.</p>\n"
    rows = "".join(
        f'<tr><td class="num">{c.frame}</td><td class="num">{c.n}</td>'
        f"<td>{esc(', '.join(f'{k} = {v}' for k, v in sorted(c.set.items())))}</td><td>{esc(c.note or '-')}</td></tr>"
        for c in applied
    )
    return (
        '<h3>Corrections applied</h3>\n<table class="corrections"><thead><tr><th class="num">frame</th>'
        f'<th class="num">stroke</th><th>set</th><th>note</th></tr></thead><tbody>{rows}</tbody></table>\n'
    )


def _quote(audit: Audit, f: Finding, rulebooks: Sequence[RuleBook]) -> str:
    if not rulebooks:
        return ""
    for book in rulebooks:
        q = book.quote(f.rule, audit.discipline)
        if q is not None:
            return (
                f'<blockquote class="rule"><cite>{esc(q.citation)}, {esc(q.heading)} ({esc(q.source)})</cite>'
                f"{esc(q.text)}</blockquote>"
            )
    names = ", ".join(b.source for b in rulebooks)
    return f'<p class="rule-missing">{esc(f.rule)} was not found in {esc(names)}.</p>'


def _cell(label: str, content: str, cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return f'<td data-label="{esc(label)}"{klass}>{content}</td>'


def finding_row(audit: Audit, frame: int | None, label: int, f: Finding, rulebooks: Sequence[RuleBook]) -> str:
    """Two rows: the finding itself, then why (the stroke's facts, the recorded calls, the
    due calls, and the cited paragraph when a rule book is given)."""
    s = audit.strokes.get((frame, f.n)) if frame is not None else None
    outcome = _outcomes(audit, frame).get(f.n)
    unless = f.unless
    time = s.t[11:19] if s and s.t and len(s.t) >= 19 else (s.t if s and s.t else "-")
    cells = [
        _cell("#", str(label), "num"),
        _cell("stroke", str(f.n), "num"),
        _cell("time", esc(time)),
        _cell("striker", esc(_side(audit, s.striker) if s else "-")),
        _cell("kind", esc(f.kind), "kind"),
        _cell("rule", esc(f.rule), "cite"),
        _cell("side", esc(f.side or "-")),
        _cell("points", str(f.points), "num"),
        _cell("finding", esc(f.message) + (f'<p class="unless">unless {esc(unless)}</p>' if unless else "")),
    ]
    why = "".join(
        f'<div><b>{name}</b><span class="calls">{esc(text)}</span></div>'
        for name, text in (
            ("facts", facts_text(s) if s else "-"),
            ("recorded calls", recorded_text(s) if s else "-"),
            ("due calls", due_text(outcome) if outcome else "-"),
        )
    )
    certain = "true" if is_certain(f) else "false"
    return (
        f'<tr class="finding" data-kind="{esc(f.kind)}" data-n="{f.n}" data-points="{f.points}" '
        f'data-certain="{certain}">{"".join(cells)}</tr>'
        f'<tr class="why"><td colspan="{len(_HEADS)}"><div class="why">{why}</div>'
        f"{_quote(audit, f, rulebooks)}</td></tr>"
    )


_HEADS = ("#", "stroke", "time", "striker", "kind", "rule", "side", "points", "finding")


def findings_table(
    audit: Audit, frame: int | None, findings: Sequence[Finding], rulebooks: Sequence[RuleBook], first: int = 1
) -> str:
    heads = "".join(f"<th{' class=num' if h in ('#', 'stroke', 'points') else ''}>{h}</th>" for h in _HEADS)
    rows = "".join(
        f"<tbody>{finding_row(audit, frame, first + i, f, rulebooks)}</tbody>" for i, f in enumerate(findings)
    )
    return f'<table class="findings"><thead><tr>{heads}</tr></thead>{rows}</table>\n'


def _outcomes(audit: Audit, frame: int | None) -> dict[int, Outcome]:
    for fr in audit.result.frames:
        if fr.frame == frame:
            return {o.n: o for o in fr.outcomes}
    return {}


def frame_section(audit: Audit, fr: FrameResult, rulebooks: Sequence[RuleBook]) -> str:
    ordered = sorted(fr.findings, key=Finding.sort_key)
    certain = [f for f in ordered if is_certain(f)]
    uncertain = [f for f in ordered if not is_certain(f)]
    strokes = sorted((n, s) for (k, n), s in audit.strokes.items() if k == fr.frame)
    recorded = {side: [(n, s.score[i]) for n, s in strokes if s.score is not None] for i, side in enumerate(("A", "B"))}
    official = {
        side: [(o.n, o.score[i]) for o in sorted(fr.outcomes, key=lambda o: o.n)] for i, side in enumerate("AB")
    }
    marks = [
        Mark(
            label=i,
            n=f.n,
            title=f"{i}: stroke {f.n}, {f.kind} ({f.rule}), {f.points} point{'' if f.points == 1 else 's'}"
            + ("" if f.certain else f", uncertain: unless {f.unless}"),
            certain=f.certain,
        )
        for i, f in enumerate([*certain, *uncertain], start=1)
    ]
    last = max([0, *(n for n, _ in strokes), *(o.n for o in fr.outcomes)])
    names = {s: audit.match.sides.get(s, s) for s in ("A", "B")}
    end = next((r for r in audit.records if isinstance(r, FrameEnd) and r.frame == fr.frame), None)
    line = (
        f"official score {_score(fr.score)}, recorded {_score(fr.recorded)}; winner by the rules "
        f"{_side(audit, fr.winner)}, recorded {_side(audit, fr.recorded_winner)}"
        + (f"; ended by {end.reason}" if end and end.reason else "")
    )
    out = [
        f'<section class="frame" id="frame-{fr.frame}" data-frame="{fr.frame}" data-findings="{len(certain)}">\n',
        f"<h2>Frame {fr.frame}</h2>\n<p>{esc(line)}</p>\n",
        worm_svg(
            official=official,
            recorded=recorded,
            names=names,
            marks=marks,
            strokes=last,
            caption=f"Frame {fr.frame}: score worm, official (solid) and recorded (dashed), findings marked",
        ),
    ]
    if certain:
        out.append(f"<h3>Findings ({len(certain)})</h3>\n" + findings_table(audit, fr.frame, certain, rulebooks))
    else:
        out.append("<h3>Findings</h3>\n<p>None: the recorded calls agree with the rules.</p>\n")
    if uncertain:
        out.append(
            f"<h3>Uncertain findings ({len(uncertain)}): one unrecorded fact would excuse each</h3>\n"
            + findings_table(audit, fr.frame, uncertain, rulebooks, first=len(certain) + 1)
        )
    events = [r for r in audit.records if isinstance(r, Event | Choice) and r.frame == fr.frame]
    if events:
        items = "".join(f"<li>after stroke {e.after}: {esc(_event_text(e))}</li>" for e in events)
        out.append(f"<h3>Events and choices recorded</h3>\n<ul>{items}</ul>\n")
    out.append("</section>\n")
    return "".join(out)


def _event_text(e: Event | Choice) -> str:
    if isinstance(e, Choice):
        nominated = f", nominated {e.nominated}" if e.nominated else ""
        return f"choice: {e.side} chose {e.option.replace('_', ' ')}{nominated}"
    fields = ("side", "reason", "call", "ball", "spot", "remove", "group", "points", "code")
    detail = [f"{k} {v}" for k in fields if (v := getattr(e, k)) is not None]
    return e.kind.replace("_", " ") + (f" ({', '.join(detail)})" if detail else "")


def count_findings(audit: Audit) -> int:
    """The certain findings the report lists (uncertain ones are listed apart, docs/format.md section 7)."""
    found = findings_of(audit)
    return sum(1 for _, f in found if is_certain(f))


SIGNATURE = '<footer class="sign"><div>official: name</div><div>signature</div><div>date</div></footer>\n'


def render(audit: Audit, *, at: str | None = None, rulebooks: Sequence[RuleBook] = (), paper: str = "a4") -> str:
    """The report as one HTML page. ``at`` dates it (default: from the data, :func:`made_at`)."""
    when = at or made_at(audit.records, audit.match)
    frames = audit.chosen()
    body = (
        header(audit, when, rulebooks)
        + summary(audit)
        + SIGNATURE
        + "".join(frame_section(audit, fr, rulebooks) for fr in frames)
    )
    m = audit.match
    title = f"Audit: {m.match}, {m.sides.get('A', 'A')} v {m.sides.get('B', 'B')}"
    return page(title=title, made_at=when, paper=paper, body=body, generator=audit.made_by)


def pdf_library() -> Any:
    """The HTML-to-PDF library (WeasyPrint); raises PdfUnavailable when it cannot be used."""
    try:
        import weasyprint
    except (ImportError, OSError):  # OSError: WeasyPrint installed but the Pango library missing
        raise PdfUnavailable() from None
    return weasyprint


FONT_TIMESTAMP = "946684800"
"""2000-01-01 UTC, as ``SOURCE_DATE_EPOCH``: where WeasyPrint subsets the embedded fonts with
fontTools (no HarfBuzz-Subset on the system), fontTools stamps each subset's ``head.modified``
with the time of writing unless that variable is set, and the same report must give the
same bytes."""


@contextmanager
def _fixed_font_timestamps() -> Iterator[None]:
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = FONT_TIMESTAMP
    try:
        yield
    finally:
        if before is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


def write_pdf(html_text: str, path: str | os.PathLike[str]) -> int:
    """Print the report to PDF (WeasyPrint, the ``[pdf]`` extra); returns the number of pages."""
    with _fixed_font_timestamps():
        document = pdf_library().HTML(string=html_text).render()
        # A fixed identifier: the default one is random, and the same report must give the same bytes.
        document.write_pdf(Path(path), pdf_identifier=b"cuelog-audit-report")
    return len(document.pages)
