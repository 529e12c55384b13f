"""The rule makers' diff: replay history under two rulesets and say what changes.

Every selected frame is replayed under the old ruleset (the one recorded, unless another
is named) and under the new one, from the same records. The strokes stay as played: once
the due calls of the two rulesets differ, the rest of the frame is a counterfactual (the
players would have played on from another position), so each frame marks its first
divergence, the first stroke whose due call differs.

Per frame: the first divergence, the official score and winner under each ruleset, the
findings added and removed. The summary: frames compared, frames with any difference,
winners changed, the mean and distribution of the score change, findings by kind before
and after, the players who gain or lose most. Everything is sorted, so the document is
the same bytes for any number of workers.
"""

from __future__ import annotations

import collections
import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import duckdb
import pyarrow as pa

from cuelog.errors import InputError, Problem
from cuelog.ingest.cores import cores_left, usable_cores
from cuelog.ingest.processes import ordered
from cuelog.pipeline import ReplayFailed, _decode, replay_all
from cuelog.replay import NoEngine, UnknownRuleset, replay_match
from cuelog.replay.derived import Derived, install, parameters_of, under
from cuelog.replay.model import FINDING_KINDS, Finding, FrameResult, MatchResult, Outcome
from cuelog.replay.output import finding_doc
from cuelog.replay.rulesets import ruleset
from cuelog.store.arrow import rows_table
from cuelog.store.reads import LoadedMatch, loaded_matches, match_index, select_matches
from cuelog.store.settings import threads_held

if TYPE_CHECKING:  # matplotlib is imported by plot() only: `cuelog diff` without --plot never needs it
    from matplotlib.figure import Figure

FORMAT = "cuelog-diff/1"
COUNTERFACTUAL = (
    "The strokes stay as played: from a frame's first divergence (the first stroke whose due "
    "call differs) the rest of that frame is a counterfactual, not what the players would have done."
)
DPI = 100
RECORDED = "recorded"
"""The old side of a diff when no ruleset is named: each match's recorded ruleset."""


@dataclass(frozen=True, slots=True)
class FrameDiff:
    """One frame under the old and the new ruleset (a side is None when the frame is missing there)."""

    match: str
    frame: int
    event: str | None
    sides: tuple[str, str]
    old_rules: str
    new_rules: str
    diverges_at: int | None
    """The first stroke whose due call differs (None: the calls agree throughout)."""
    old_score: tuple[int, int] | None
    new_score: tuple[int, int] | None
    old_winner: str | None
    new_winner: str | None
    added: tuple[Finding, ...]
    removed: tuple[Finding, ...]

    @property
    def winner_changed(self) -> bool:
        return self.old_winner != self.new_winner

    @property
    def delta(self) -> tuple[int, int]:
        """Points each side gains under the new ruleset."""
        old, new = self.old_score or (0, 0), self.new_score or (0, 0)
        return (new[0] - old[0], new[1] - old[1])

    @property
    def changed(self) -> bool:
        return bool(
            self.diverges_at is not None
            or self.old_score != self.new_score
            or self.winner_changed
            or self.added
            or self.removed
        )


@dataclass(frozen=True, slots=True)
class MatchDiff:
    """The frames of one match, with the findings of each side (for the counts by kind)."""

    match: str
    frames: tuple[FrameDiff, ...]
    kinds_before: tuple[str, ...]
    kinds_after: tuple[str, ...]


# -- comparing -------------------------------------------------------------------------


def due_call(o: Outcome) -> tuple[object, ...]:
    """What the rules make of a stroke, without the running score (which differs after any
    earlier change): the calls a referee would announce."""
    return (
        o.striker,
        o.scored,
        o.penalty,
        o.foul,
        o.reasons,
        o.miss,
        o.free_ball,
        o.respots,
        o.next_striker,
        o.frame_over,
        o.winner,
    )


def first_divergence(old: Sequence[Outcome], new: Sequence[Outcome]) -> int | None:
    """The first stroke whose due call differs, or that one side has and the other not."""
    by_n = {o.n: o for o in new}
    seen: set[int] = set()
    for o in old:
        seen.add(o.n)
        other = by_n.get(o.n)
        if other is None or due_call(o) != due_call(other):
            return o.n
    extra = [o.n for o in new if o.n not in seen]
    return min(extra) if extra else None


def _finding_key(f: Finding) -> tuple[int, int, str, str, str, int]:
    return (f.n, FINDING_KINDS.index(f.kind), f.rule, f.message, f.side or "", f.points)


def finding_changes(old: Iterable[Finding], new: Iterable[Finding]) -> tuple[tuple[Finding, ...], tuple[Finding, ...]]:
    """(added, removed): the findings only the new side has, and only the old side has (as multisets)."""
    before = collections.Counter(old)
    after = collections.Counter(new)
    added = sorted((after - before).elements(), key=_finding_key)
    removed = sorted((before - after).elements(), key=_finding_key)
    return tuple(added), tuple(removed)


def compare_frames(
    match: str,
    event: str | None,
    sides: tuple[str, str],
    rules: tuple[str, str],
    old: FrameResult | None,
    new: FrameResult | None,
) -> FrameDiff:
    """One frame under both rulesets. Without outcomes on the old side (a stored baseline
    document), the first divergence is the first stroke whose findings differ."""
    added, removed = finding_changes(old.findings if old else (), new.findings if new else ())
    if old is not None and new is not None and (old.outcomes or not new.outcomes):
        diverges = first_divergence(old.outcomes, new.outcomes)
    else:
        diverges = min((f.n for f in (*added, *removed)), default=None)
    number = old.frame if old is not None else new.frame if new is not None else 0
    return FrameDiff(
        match=match,
        frame=number,
        event=event,
        sides=sides,
        old_rules=rules[0],
        new_rules=rules[1],
        diverges_at=diverges,
        old_score=old.score if old is not None else None,
        new_score=new.score if new is not None else None,
        old_winner=old.winner if old is not None else None,
        new_winner=new.winner if new is not None else None,
        added=added,
        removed=removed,
    )


def compare_match(old: MatchResult, new: MatchResult, event: str | None = None) -> MatchDiff:
    """Every frame of one match under both rulesets, by frame number."""
    olds = {fr.frame: fr for fr in old.frames}
    news = {fr.frame: fr for fr in new.frames}
    sides = (new.sides.get("A", "A"), new.sides.get("B", "B"))
    frames = tuple(
        compare_frames(new.match, event, sides, (old.rules, new.rules), olds.get(n), news.get(n))
        for n in sorted(olds.keys() | news.keys())
    )

    def kinds(m: MatchResult) -> tuple[str, ...]:
        return tuple(f.kind for f in itertools.chain(m.findings, *(fr.findings for fr in m.frames)))

    return MatchDiff(new.match, frames, kinds(old), kinds(new))


# -- replaying both sides --------------------------------------------------------------

Rules = str | Derived


def diff_loaded(loaded: LoadedMatch, new: Rules, old: Rules | None) -> MatchDiff | InputError | ReplayFailed:
    """Replay one loaded match under both rulesets (decoded once) and compare. Errors are
    returned, not raised, so a worker pool keeps order."""
    try:
        match, body = _decode(loaded)
    except InputError as exc:
        return exc
    try:
        before = replay_match(under(match, old) if old is not None else match, body)
        after = replay_match(under(match, new), body)
    except (UnknownRuleset, NoEngine, ValueError, ImportError) as exc:
        return ReplayFailed(f"match {loaded.match_id!r} ({loaded.file}): {exc}")
    return compare_match(before, after, match.event)


def _diff_chunk(items: list[LoadedMatch], new: Rules, old: Rules | None) -> list[MatchDiff | InputError | ReplayFailed]:
    return [diff_loaded(item, new, old) for item in items]


def _ordered(
    items: Iterable[LoadedMatch], work: Callable[[list[LoadedMatch]], list[Any]], workers: int, chunk: int = 8
) -> Iterator[Any]:
    """``work`` over chunks of ``items`` in ``workers`` processes, results in input order,
    at most four chunks per worker in flight."""
    source = iter(items)
    chunks = iter(lambda: list(itertools.islice(source, chunk)), [])
    for _, done in ordered(work, chunks, workers, ahead=4):
        yield from done


@dataclass(frozen=True, slots=True)
class Selection:
    """The matches a diff compares, and the ones it leaves out with the reason."""

    compared: tuple[str, ...]
    other_discipline: tuple[str, ...]


def select(
    con: duckdb.DuckDBPyConnection, discipline: str | None, ids: Sequence[str] | None, events: Sequence[str] | None
) -> Selection:
    """The loaded matches to compare: ``ids`` (all must exist) or all, of ``events`` when
    given, and of the new ruleset's discipline (the others are listed, not dropped silently)."""
    chosen = select_matches(con, ids)
    info = match_index(con)
    if events:
        wanted = set(events)
        chosen = [m for m in chosen if info[m][1] in wanted]
    same = tuple(m for m in chosen if discipline is None or info[m][0].split("/", 1)[0] == discipline)
    other = tuple(m for m in chosen if discipline is not None and info[m][0].split("/", 1)[0] != discipline)
    return Selection(same, other)


def diff_db(
    con: duckdb.DuckDBPyConnection,
    new: Rules,
    old: Rules | None = None,
    *,
    ids: Sequence[str] | None = None,
    events: Sequence[str] | None = None,
    workers: int | None = None,
) -> tuple[Selection, list[MatchDiff]]:
    """Replay the selected loaded matches under ``old`` (default: as recorded) and ``new``.

    Raises InputError (unreadable records), ReplayFailed (the first match, by id, that
    cannot be replayed), NoMatches or UnknownMatch.
    """
    new_id = install(new) if isinstance(new, Derived) else new
    if old is not None:
        old_id = install(old) if isinstance(old, Derived) else old
        if ruleset(old_id).discipline != ruleset(new_id).discipline:
            raise ReplayFailed(f"{old_id!r} and {new_id!r} are rulesets of different disciplines")
    selection = select(con, ruleset(new_id).discipline, ids, events)
    n = max(1, min(workers if workers is not None else usable_cores(), len(selection.compared)))

    job = _Chunk(new, old)
    # The records are read while the workers replay: DuckDB on the cores they leave.
    with threads_held(con, cores_left(n)):
        outcomes = list(_ordered(loaded_matches(con, selection.compared), job, n)) if selection.compared else []
    return selection, collect_outcomes(outcomes)


@dataclass(frozen=True, slots=True)
class _Chunk:
    """The per-chunk work as a picklable callable for the worker processes."""

    new: Rules
    old: Rules | None

    def __call__(self, part: list[LoadedMatch]) -> list[MatchDiff | InputError | ReplayFailed]:
        return _diff_chunk(part, self.new, self.old)


def collect_outcomes(outcomes: list[MatchDiff | InputError | ReplayFailed]) -> list[MatchDiff]:
    problems = [p for o in outcomes if isinstance(o, InputError) for p in o.problems]
    if problems:
        raise InputError(problems)
    for o in outcomes:
        if isinstance(o, ReplayFailed):
            raise o
    diffs = [o for o in outcomes if isinstance(o, MatchDiff)]
    return sorted(diffs, key=lambda d: d.match)


def diff_results(
    old: Sequence[MatchResult], new: Sequence[MatchResult], events: dict[str, str | None]
) -> list[MatchDiff]:
    """Compare two sets of match results (a stored baseline and today's replay), by match id.

    A match on one side only is compared with an empty match: every frame of it differs.
    """
    olds = {m.match: m for m in old}
    news = {m.match: m for m in new}
    out = []
    for match_id in sorted(olds.keys() | news.keys()):
        a = olds.get(match_id) or MatchResult(match_id, "-", {}, [])
        b = news.get(match_id) or MatchResult(match_id, "-", dict(a.sides), [])
        if not b.sides:
            b = MatchResult(b.match, b.rules, dict(a.sides), b.frames, b.findings)
        out.append(compare_match(a, b, events.get(match_id)))
    return out


def diff_baseline(
    con: duckdb.DuckDBPyConnection,
    stored: Sequence[MatchResult],
    new: Rules | None = None,
    *,
    ids: Sequence[str] | None = None,
    events: Sequence[str] | None = None,
    workers: int | None = None,
) -> tuple[Selection, list[MatchDiff]]:
    """Today's replay of the selected matches (under ``new``, or as recorded) against a
    stored earlier replay. Without a selection, a stored match no longer loaded is compared
    with nothing (every frame of it differs)."""
    discipline = None if new is None else ruleset(install(new) if isinstance(new, Derived) else new).discipline
    selection = select(con, discipline, ids, events)
    n = max(1, min(workers if workers is not None else usable_cores(), len(selection.compared)))
    loaded = loaded_matches(con, selection.compared)
    with threads_held(con, cores_left(n)):  # the records are read while the workers replay
        today = replay_all(loaded, n, rules=new) if selection.compared else []
    event_of: dict[str, str | None] = {m: event for m, (_, event) in match_index(con).items()}
    chosen = set(selection.compared)
    whole = not (ids or events)
    kept = [m for m in stored if m.match in chosen or (whole and m.match not in event_of)]
    return selection, diff_results(kept, today, event_of)


def read_baseline(path: str) -> list[MatchResult]:
    """The match results of a stored ``cuelog replay --json`` document (cuelog-replay/1).

    Raises InputError naming the file and what was expected.
    """
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError([_problem(path, "", "unreadable", str(exc), "a cuelog-replay/1 JSON document")]) from None
    if not isinstance(doc, dict) or doc.get("format") != "cuelog-replay/1":
        found = repr(doc.get("format")) if isinstance(doc, dict) else type(doc).__name__
        raise InputError([_problem(path, "format", "wrong_format", found, "'cuelog-replay/1' (cuelog replay --json)")])
    try:
        return [_match_from_doc(m) for m in doc["matches"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(
            [_problem(path, "matches", "bad_document", repr(exc), "the matches of cuelog replay --json")]
        ) from None


def _problem(path: str, key: str, code: str, found: str, expected: str) -> Problem:
    return Problem(file=path, line=0, field=key, code=code, found=found, expected=expected)


def _finding_from_doc(f: dict[str, Any]) -> Finding:
    if f["kind"] not in FINDING_KINDS:
        raise ValueError(f"finding kind {f['kind']!r}")
    return Finding(
        n=int(f["n"]),
        kind=f["kind"],
        rule=str(f["rule"]),
        side=f["side"],
        points=int(f["points"]),
        message=str(f["message"]),
    )


def _match_from_doc(m: dict[str, Any]) -> MatchResult:
    frames = [
        FrameResult(
            frame=int(fr["frame"]),
            score=(int(fr["score"][0]), int(fr["score"][1])),
            recorded=None,
            winner=fr["winner"],
            findings=[_finding_from_doc(f) for f in fr["findings"]],
        )
        for fr in m["frames"]
    ]
    findings = [_finding_from_doc(f) for f in m.get("findings", [])]
    return MatchResult(str(m["match"]), str(m["rules"]), {}, frames, findings)


# -- the report ------------------------------------------------------------------------


def frame_doc(d: FrameDiff) -> dict[str, Any]:
    return {
        "match": d.match,
        "frame": d.frame,
        "event": d.event,
        "diverges_at": d.diverges_at,
        "old": {"rules": d.old_rules, "score": _pair(d.old_score), "winner": d.old_winner},
        "new": {"rules": d.new_rules, "score": _pair(d.new_score), "winner": d.new_winner},
        "winner_changed": d.winner_changed,
        "score_change": list(d.delta),
        "findings_added": [finding_doc(f) for f in d.added],
        "findings_removed": [finding_doc(f) for f in d.removed],
    }


def _pair(score: tuple[int, int] | None) -> list[int] | None:
    return list(score) if score is not None else None


def summary(diffs: Sequence[MatchDiff], top: int = 5) -> dict[str, Any]:
    """What a rule maker reads first. The score change of a frame is the points the new
    ruleset adds to (or takes from) the frame's total, both sides together."""
    frames = [f for d in diffs for f in d.frames]
    changed = [f for f in frames if f.changed]
    totals = [sum(f.delta) for f in frames]
    distribution = collections.Counter(totals)
    before = collections.Counter(k for d in diffs for k in d.kinds_before)
    after = collections.Counter(k for d in diffs for k in d.kinds_after)
    return {
        "frames_compared": len(frames),
        "frames_changed": len(changed),
        "frames_diverged": sum(1 for f in frames if f.diverges_at is not None),
        "winners_changed": sum(1 for f in frames if f.winner_changed),
        "score_change": {
            "mean": round(sum(totals) / len(totals), 4) if totals else 0.0,
            "distribution": [{"points": k, "frames": distribution[k]} for k in sorted(distribution)],
        },
        "findings_by_kind": [
            {"kind": k, "before": before[k], "after": after[k]} for k in FINDING_KINDS if before[k] or after[k]
        ],
        "winners_changed_by_event": _by_event(frames),
        **_players(frames, top),
    }


def _by_event(frames: Sequence[FrameDiff]) -> list[dict[str, Any]]:
    counts: dict[str, list[int]] = {}
    for f in frames:
        row = counts.setdefault(f.event or "-", [0, 0])
        row[0] += 1
        row[1] += f.winner_changed
    return [{"event": e, "frames": c[0], "winners_changed": c[1]} for e, c in sorted(counts.items())]


def _players(frames: Sequence[FrameDiff], top: int) -> dict[str, list[dict[str, Any]]]:
    """Players by frames won gained under the new ruleset, then points gained."""
    points: collections.Counter[str] = collections.Counter()
    won: collections.Counter[str] = collections.Counter()
    for f in frames:
        for i, side in enumerate("AB"):
            name = f.sides[i]
            points[name] += f.delta[i]
            won[name] += (f.new_winner == side) - (f.old_winner == side)
    rows = [(won[p], points[p], p) for p in sorted(points)]
    gain = sorted((r for r in rows if r[0] > 0 or r[1] > 0), key=lambda r: (-r[0], -r[1], r[2]))
    lose = sorted((r for r in rows if r[0] < 0 or r[1] < 0), key=lambda r: (r[0], r[1], r[2]))

    def doc(r: tuple[int, int, str]) -> dict[str, Any]:
        return {"player": r[2], "frames_won": r[0], "points": r[1]}

    return {"players_gaining": [doc(r) for r in gain[:top]], "players_losing": [doc(r) for r in lose[:top]]}


def parameter_changes(new: Rules, old: Rules | None) -> list[dict[str, Any]]:
    """The parameters whose value differs between two rulesets of one discipline: against
    ``old``, or (no old ruleset named) against the base a derived ruleset comes from."""
    new_id = install(new) if isinstance(new, Derived) else new
    if old is not None:
        old_id = install(old) if isinstance(old, Derived) else old
    else:
        old_id = new.base if isinstance(new, Derived) else new_id
    before = {p.name: p for p in parameters_of(old_id)}
    return [
        {"parameter": p.name, "rule": p.rule, "old": _plain(before[p.name].value), "new": _plain(p.value)}
        for p in parameters_of(new_id)
        if p.name in before and p.value != before[p.name].value
    ]


def _plain(value: object) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict | Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    return value


def document(
    diffs: Sequence[MatchDiff],
    *,
    new: str,
    old: str,
    engine: str,
    not_compared: Sequence[str] = (),
    changes: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The whole diff as one JSON-ready document in a fixed key order: the parameters that
    differ, the summary, then every frame that differs."""
    return {
        "format": FORMAT,
        "engine": engine,
        "old": old,
        "new": new,
        "parameters_changed": list(changes),
        "note": COUNTERFACTUAL,
        "summary": summary(diffs),
        "not_compared": list(not_compared),
        "frames": [frame_doc(f) for d in diffs for f in d.frames if f.changed],
    }


FRAME_TABLE = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("event", pa.string()),
        ("old_rules", pa.string()),
        ("new_rules", pa.string()),
        ("diverges_at", pa.int32()),
        ("old_a", pa.int32()),
        ("old_b", pa.int32()),
        ("new_a", pa.int32()),
        ("new_b", pa.int32()),
        ("old_winner", pa.string()),
        ("new_winner", pa.string()),
        ("winner_changed", pa.bool_()),
        ("findings_added", pa.int32()),
        ("findings_removed", pa.int32()),
        ("changed", pa.bool_()),
    ]
)


def frame_table(diffs: Sequence[MatchDiff]) -> pa.Table:
    """One row per compared frame, by match and frame."""
    rows = [
        (
            f.match,
            f.frame,
            f.event,
            f.old_rules,
            f.new_rules,
            f.diverges_at,
            *(f.old_score or (None, None)),
            *(f.new_score or (None, None)),
            f.old_winner,
            f.new_winner,
            f.winner_changed,
            len(f.added),
            len(f.removed),
            f.changed,
        )
        for d in diffs
        for f in d.frames
    ]
    return rows_table(FRAME_TABLE, rows)


def plot(summary_doc: dict[str, Any], size: tuple[int, int] = (1000, 500)) -> Figure:
    """The score changes (frames by points added to their total) and the winners changed
    by event, side by side."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI)
    left, right = fig.subplots(1, 2)
    dist = summary_doc["score_change"]["distribution"]
    left.bar([d["points"] for d in dist], [d["frames"] for d in dist], color="#1f77b4", width=0.8)
    left.set_xlabel("score change (points added to the frame's total)")
    left.set_ylabel("frames")
    left.set_title(f"score change, mean {summary_doc['score_change']['mean']:+.2f}")
    events = summary_doc["winners_changed_by_event"]
    # A log's text is drawn as written: "$" would start matplotlib mathtext.
    names = [e["event"].replace("$", r"\$") for e in events]
    right.barh(names, [e["winners_changed"] for e in events], color="#d62728")
    right.set_xlabel("frames whose winner changes")
    right.set_title(f"winners changed: {summary_doc['winners_changed']} of {summary_doc['frames_compared']} frames")
    right.invert_yaxis()
    fig.tight_layout()
    return fig
