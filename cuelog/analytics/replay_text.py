"""The replay's human output: each match's header, corrections, findings and frames as
plain lines (``cuelog replay`` without ``--json``).

Built in the replay's worker processes, beside the engines (``cuelog.logreplay``): so it
imports only the text tables (:mod:`cuelog.analytics.plain`), the findings' words and the
result types, never the command line (Typer and rich cost a worker a tenth of a second).
"""

from __future__ import annotations

import json
from typing import Final

from cuelog.analytics import plain
from cuelog.analytics.plain import Justify
from cuelog.analytics.words import kind_words
from cuelog.replay.model import Finding, FrameResult, MatchResult
from cuelog.replay.output import rack_words
from cuelog.schemas.rulesets import won_by_rack


def _score(score: tuple[int, int] | None) -> str:
    return "-" if score is None else f"{score[0]}-{score[1]}"


_COLUMNS: Final[tuple[tuple[str, Justify], ...]] = (
    ("stroke", "right"),
    ("finding", "left"),
    ("kind", "left"),
    ("rule", "left"),
    ("side", "center"),
    ("points", "right"),
    ("message", "left"),
)


def findings_text(findings: list[Finding], title: str | None = None) -> str:
    """Findings as an aligned table: stroke, what was wrong (in words, with its kind), rule,
    side, points, message (and, for uncertain findings, the fact that would excuse the
    call). Plain text in one pass (:mod:`cuelog.analytics.plain`): a message may quote a
    recorded name, so every cell is escaped, never read as markup."""
    uncertain = any(not f.certain for f in findings)
    columns = [*_COLUMNS, ("unless", "left")] if uncertain else list(_COLUMNS)
    rows = []
    for f in sorted(findings, key=Finding.sort_key):
        row = [str(f.n), kind_words(f.kind), f.kind, f.rule, f.side or "-", str(f.points), f.message]
        rows.append([*row, f.unless or "-"] if uncertain else row)
    text = plain.table([c for c, _ in columns], rows, [j for _, j in columns])
    return (plain.terminal_text(title) + "\n" + text) if title is not None else text


def _findings_block(findings: list[Finding], title: str | None = None) -> str:
    """Certain findings first; those one unrecorded fact could excuse in a section of their own."""
    certain = [f for f in findings if f.certain]
    uncertain = [f for f in findings if not f.certain]
    out = findings_text(certain, title) if certain else ""
    if uncertain:
        out += findings_text(uncertain, f"{title or ' '} uncertain (not counted)")
    return out


def _corrections(m: MatchResult) -> list[str]:
    """One line per officials' correction applied before the replay: stroke, fields set, note."""
    out = []
    for c in sorted(m.corrections, key=lambda c: (c.frame, c.n)):
        fields = ", ".join(f"{name} = {json.dumps(value, ensure_ascii=False)}" for name, value in sorted(c.set.items()))
        note = f" ({c.note})" if c.note else ""
        out.append(f"  correction applied: frame {c.frame} stroke {c.n}: {fields}{note}")
    return out


def _frame_line(fr: FrameResult) -> str:
    # A frame with no winner by the rules has not ended in the log (no frame_end, or a
    # log cut short): said in words, not left as a dash (docs/format.md section 4).
    result = f"winner {fr.winner}" if fr.winner else "not finished (no winner by the rules)"
    return f"  frame {fr.frame}: official {_score(fr.score)}, recorded {_score(fr.recorded)}, {result}"


def _rack_line(fr: FrameResult) -> str:
    return f"  frame {fr.frame}: {rack_words(fr.winner, fr.recorded_winner, fr.recorded)}"


def human_text(m: MatchResult) -> str:
    """One match as the human output writes it: its header line, the corrections applied,
    the findings outside any frame, each frame. Plain lines, every log-supplied text escaped
    for the terminal: no rich layout per line, so a season prints in linear time."""
    sides = f"{m.sides.get('A', 'A')} v {m.sides.get('B', 'B')}"
    parts = [plain.terminal_text(f"{m.match}  {m.rules}  {sides}"), "\n"]
    parts.extend(plain.terminal_text(line) + "\n" for line in _corrections(m))
    if m.findings:
        parts.append(_findings_block(m.findings, "  match"))
    said = _rack_line if won_by_rack(m.rules) else _frame_line
    for fr in m.frames:
        parts.append(plain.terminal_text(said(fr)) + "\n")
        if fr.findings:
            parts.append(_findings_block(fr.findings))
    return "".join(parts)
