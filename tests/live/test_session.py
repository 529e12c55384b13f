"""The incremental replay, record by record: findings at once, corrections named, bad lines survived."""

from __future__ import annotations

from cuelog.ingest.reader import read_records
from cuelog.live.messages import Closed, DueSaid, FindingSaid, FrameSaid, ProblemSaid, Withdrawn
from cuelog.live.remedy import NEXT_STROKE, remedy, still_open
from cuelog.live.session import Session
from cuelog.replay import replay_matches
from cuelog.schemas.records import Frame, encode
from tests.conftest import EXAMPLES
from tests.rules.billiards._build import call, match, stroke


def _in_offs(first: int, count: int) -> list[object]:
    return [stroke(n, "A", ["red"], ["white"], placement="legal") for n in range(first, first + count)]


def test_s3_r11a_a_late_ten_hazards_call_withdraws_the_limit_finding_by_name() -> None:
    """The sixteenth hazard is flagged when it arrives; a TEN HAZARDS call recorded after it
    shows the sixteenth was legal (S3 R11(a)): the watch prints a correction naming it."""
    s = Session("t.jsonl", due=True)
    said = s.record(1, match()) + s.record(2, Frame(frame=1, breaker="A"))
    for i, r in enumerate(_in_offs(1, 16), start=3):
        said += s.record(i, r)  # type: ignore[arg-type]
    flagged = [m for m in said if isinstance(m, FindingSaid)]
    assert [(m.finding.n, m.finding.kind, m.finding.rule, m.open) for m in flagged] == [
        (16, "limit_exceeded", "S3 R15(k)", True)
    ]
    assert flagged[0].due == "FOUL: 2 to b"
    due16 = [m.outcome for m in said if isinstance(m, DueSaid) and m.outcome.n == 16]
    assert [(o.foul, o.reasons, o.penalty) for o in due16] == [(True, ("hazards",), 2)]
    correction = s.record(19, call(16, "ten_hazards"))
    assert [type(m) for m in correction] == [Withdrawn, DueSaid]
    w, revised = correction
    assert isinstance(w, Withdrawn) and w.finding == flagged[0].finding and w.line == 19
    assert "line 19" in w.reason and "stroke 16" in w.reason
    # The due call of stroke 16 is said again: no foul, the hazard scores.
    assert isinstance(revised, DueSaid) and revised.revised and revised.outcome.n == 16
    assert not revised.outcome.foul and revised.outcome.scored == 3
    assert s.standing == 0


def test_s3_r10c_a_condoned_foul_is_said_while_it_can_still_be_called() -> None:
    s = Session("x.jsonl", due=True)
    said = []
    for line, record in read_records(EXAMPLES / "snooker-officiating.jsonl"):
        said += s.record(line, record)
    said += s.close(20)
    first = next(m for m in said if isinstance(m, FindingSaid))
    assert (first.finding.n, first.finding.kind, first.line) == (2, "condoned_foul", 4)
    assert first.open and first.remedy.rule == "S3 R10(c)" and first.remedy.until == NEXT_STROKE
    assert first.due == "FOUL AND A MISS: 6 to Player A"
    # Stroke 3 (line 5) is made: the foul of stroke 2 is condoned, and the watch says so.
    closed = [(m.finding.n, m.finding.kind, m.line) for m in said if isinstance(m, Closed)]
    assert closed == [(2, "condoned_foul", 5), (5, "penalty_value", 8), (7, "respot_missing", 19)]
    # --due: the Outcome of every stroke, the same the replay computes.
    (result,) = replay_matches(r for _, r in read_records(EXAMPLES / "snooker-officiating.jsonl"))
    assert [m.outcome for m in said if isinstance(m, DueSaid)] == result.frames[0].outcomes
    due13 = next(m for m in said if isinstance(m, DueSaid) and m.outcome.n == 13)
    assert "FOUL: 5 to Player A, free ball due" in due13.text and due13.text.startswith("ball on blue")
    frames = [m for m in said if isinstance(m, FrameSaid)]
    assert [(f.score, f.recorded, f.winner, f.revised) for f in frames] == [((15, 37), (15, 34), "B", False)]


def test_remedy_windows_follow_the_rules() -> None:
    """S3 R10(c): until the next stroke; S3 R7(c)(i): a missing colour while the frame is in play;
    S3 R7(c): a colour on a wrong spot counts as correctly spotted once played with."""
    foul = remedy("snooker", "condoned_foul")
    assert still_open(foul, n=2, last_stroke=2, frame_over=False, next_frame=False)
    assert not still_open(foul, n=2, last_stroke=3, frame_over=False, next_frame=False)
    missing = remedy("snooker", "respot_missing")
    assert missing.rule == "S3 R7(c)(i)"
    assert still_open(missing, n=7, last_stroke=12, frame_over=False, next_frame=False)
    assert not still_open(missing, n=7, last_stroke=12, frame_over=True, next_frame=False)
    wrong_spot = remedy("snooker", "respot_wrong_spot")
    assert not still_open(wrong_spot, n=7, last_stroke=8, frame_over=False, next_frame=False)
    assert remedy("billiards", "condoned_foul").rule == "S3 R16(d)"
    # WPA 6: a foul not called before the next shot begins is assumed not to have happened.
    assert (remedy("nineball", "condoned_foul").rule, remedy("eightball", "penalty_value").until) == (
        "WPA 6",
        NEXT_STROKE,
    )
    assert not still_open(remedy("snooker", "invalid_record"), n=1, last_stroke=1, frame_over=False, next_frame=False)


def test_a_bad_line_mid_match_is_reported_with_its_number_and_the_watch_goes_on() -> None:
    lines = (EXAMPLES / "snooker-officiating.jsonl").read_bytes().splitlines()
    lines.insert(3, b'{"type": "stroke", "frame": 1, "n": "two"}')
    lines.insert(4, b"not json at all")
    s = Session("live.jsonl")
    said = [m for number, data in enumerate(lines, start=1) for m in s.feed(number, data)]
    problems = [m.problem for m in said if isinstance(m, ProblemSaid)]
    assert [(p.file, p.line, p.code) for p in problems] == [
        ("live.jsonl", 4, "invalid_record"),
        ("live.jsonl", 5, "invalid_json"),
    ]
    assert problems[0].field == "n"
    # The findings after the bad lines are still said, on their own (shifted) lines.
    assert [(m.finding.n, m.line) for m in said if isinstance(m, FindingSaid)] == [(2, 6), (5, 9), (7, 11)]
    assert s.problems == 2


def test_records_outside_their_frame_are_findings_as_in_the_replay() -> None:
    s = Session("m.jsonl")
    s.record(1, match())
    said = s.record(2, stroke(1, "A", ["red"]))
    assert [(m.frame, m.finding.kind, m.finding.rule) for m in said if isinstance(m, FindingSaid)] == [
        (None, "invalid_record", "FORMAT 2")
    ]


def test_a_record_before_any_match_is_a_problem_not_a_crash() -> None:
    s = Session("m.jsonl")
    said = s.feed(1, encode(stroke(1, "A", ["red"])))
    assert isinstance(said[0], ProblemSaid) and said[0].problem.code == "no_match"


def test_findings_an_engine_gives_only_with_the_frame_result_are_said_then(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An engine whose ``finish`` adds a finding at the frame's end (e.g. a frame left
    unfinished): the watch says it with the frame's result, and the result counts it."""
    import types

    from cuelog.live import session as session_module
    from cuelog.replay import snooker
    from cuelog.replay.model import FRAME_END_ERROR, Finding

    late = Finding(n=15, kind=FRAME_END_ERROR, rule="S2 R1", side=None, points=0, message="found at the end")

    def finish(state):  # type: ignore[no-untyped-def]
        result = snooker.finish(state)
        result.findings = sorted([*result.findings, late], key=Finding.sort_key)
        return result

    engine = types.SimpleNamespace(new_frame=snooker.new_frame, apply=snooker.apply, finish=finish)
    monkeypatch.setattr(session_module, "engine_module", lambda rules: engine)
    s = Session("x.jsonl")
    said = [m for line, r in read_records(EXAMPLES / "snooker-officiating.jsonl") for m in s.record(line, r)]
    at_end = said[-2:]
    assert isinstance(at_end[0], FindingSaid) and at_end[0].finding == late and at_end[0].line == 20
    assert isinstance(at_end[1], FrameSaid) and at_end[1].findings == 4
    assert s.standing == 4
