"""The replay output document of docs/format.md section 7 (``cuelog-replay/1``).

Built from plain dicts in a fixed key order and dumped with fixed separators, so the
same results give the same bytes on any machine.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from cuelog.replay.model import Break, Finding, FrameResult, MatchResult
from cuelog.schemas.records import Correction

FORMAT = "cuelog-replay/1"


def finding_doc(f: Finding) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "n": f.n,
        "kind": f.kind,
        "rule": f.rule,
        "side": f.side,
        "points": f.points,
        "message": f.message,
    }
    if not f.certain:
        # Only uncertain findings carry the two keys: certain ones keep their old shape.
        doc["certain"] = False
        doc["unless"] = f.unless
    return doc


def correction_doc(c: Correction) -> dict[str, Any]:
    return {"frame": c.frame, "n": c.n, "set": c.set, "note": c.note}


def break_doc(b: Break) -> dict[str, Any]:
    return {"side": b.side, "points": b.points, "from": b.from_, "to": b.to}


def frame_doc(fr: FrameResult) -> dict[str, Any]:
    return {
        "frame": fr.frame,
        "score": list(fr.score),
        "recorded": list(fr.recorded) if fr.recorded is not None else None,
        "winner": fr.winner,
        "breaks": [break_doc(b) for b in fr.breaks],
        "findings": [finding_doc(f) for f in sorted(fr.findings, key=Finding.sort_key)],
    }


def match_doc(m: MatchResult) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "match": m.match,
        "rules": m.rules,
        "frames": [frame_doc(fr) for fr in sorted(m.frames, key=lambda fr: fr.frame)],
    }
    if m.findings:
        doc["findings"] = [finding_doc(f) for f in sorted(m.findings, key=Finding.sort_key)]
    if m.corrections:
        doc["corrections"] = [correction_doc(c) for c in sorted(m.corrections, key=lambda c: (c.frame, c.n))]
    return doc


def document(results: Iterable[MatchResult], engine: str) -> dict[str, Any]:
    """The whole replay document, matches sorted by id."""
    return {
        "format": FORMAT,
        "engine": engine,
        "matches": [match_doc(m) for m in sorted(results, key=lambda m: m.match)],
    }


def dumps(doc: dict[str, Any]) -> str:
    """Deterministic JSON text of a document."""
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def document_text(results: Iterable[MatchResult], engine: str) -> Iterator[str]:
    """The text of ``dumps(document(results, engine))`` piece by piece, one match at a time,
    for results that come already sorted by match id: a long replay is written out as it
    goes, never held whole."""
    yield document_head(engine)
    count = 0
    for m in results:
        yield match_text(m, first=count == 0)
        count += 1
    yield document_tail(empty=count == 0)


def document_head(engine: str) -> str:
    """The document's text up to its first match."""
    return f'{{\n "format": {json.dumps(FORMAT)},\n "engine": {json.dumps(engine, ensure_ascii=False)},\n "matches": ['


_ENCODER = msgspec.json.Encoder()


def match_text(m: MatchResult, *, first: bool) -> str:
    """One match of the ``matches`` list as ``dumps`` writes it: ``json.dumps`` with
    ``indent=1`` puts each list item on lines of its own, indented two spaces (no JSON
    string holds a raw newline).

    msgspec writes the same text as ``json.dumps`` (same key order, separators, escapes,
    UTF-8 kept) for everything but floats (``1e+16`` / ``1e16``), in a tenth of the time
    (``json.dumps`` with an indent runs its pure-Python encoder). A match document holds
    no float but in the values an official's corrections set: a match with corrections is
    written by ``json.dumps``."""
    doc = match_doc(m)
    if m.corrections:
        text = json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False)
    else:
        text = msgspec.json.format(_ENCODER.encode(doc), indent=1).decode()
    return ("\n" if first else ",\n") + "  " + text.replace("\n", "\n  ")


Render = Callable[[MatchResult], str]
"""A match's output as a command prints it, made where the match was replayed (in a
worker process too: a module-level function or a partial of one): the JSON text of one
match (:data:`JSON_TEXT`) or the human text (``cuelog.analytics.replay_text.human_text``)."""

JSON_TEXT: Final[Render] = functools.partial(match_text, first=True)
"""One match of the document's ``matches`` list, after a line break: the writer puts a
comma before each match but the first."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """A replayed match as its output: its id, its text (:data:`Render`) and what the
    output's totals count of it: its findings, certain and not, and the corrections applied.
    A worker sends this back instead of the result (its frames, breaks and findings
    pickled), and the printing process only writes it."""

    match: str
    text: str
    findings: int
    uncertain: int
    corrections: int


def rendered(m: MatchResult, render: Render) -> Rendered:
    """The match's output, made by ``render``, with its counts."""
    return Rendered(
        match=m.match,
        text=render(m),
        findings=count_findings([m]),
        uncertain=count_findings([m], certain=False),
        corrections=len(m.corrections),
    )


def document_tail(*, empty: bool) -> str:
    """The document's text after its last match."""
    return "]\n}\n" if empty else "\n ]\n}\n"


def all_findings(results: Iterable[MatchResult]) -> Iterator[Finding]:
    for m in results:
        yield from m.findings
        for fr in m.frames:
            yield from fr.findings


def count_findings(results: Iterable[MatchResult], *, certain: bool = True) -> int:
    """Findings that are (``certain=True``) or are not certain; only the first set the exit code."""
    return sum(1 for f in all_findings(results) if f.certain is certain)


def rack_words(winner: str | None, recorded_winner: str | None, recorded: tuple[int, int] | None) -> str:
    """A pool rack's result in words (docs/pool.md): a rack has no points, so the winner by
    the rules stands beside the recorded winner (compared), and the scoreboard (a match
    tally or a count of balls, as the recorder kept it) is shown, never compared."""
    parts = [f"winner {winner} by the rules" if winner else "not finished (no winner by the rules)"]
    parts.append(f"recorded winner {recorded_winner}" if recorded_winner else "no recorded winner")
    if recorded is not None:
        parts.append(f"scoreboard {recorded[0]}-{recorded[1]} (not compared: a rack has no points)")
    return ", ".join(parts)
