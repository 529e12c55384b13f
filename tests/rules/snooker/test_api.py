"""The public fold the simulator and the store build on: new_frame, apply, finish, replay_frame."""

from __future__ import annotations

from cuelog.replay import engine_for
from cuelog.replay.snooker import apply, finish, new_frame, replay_frame
from cuelog.schemas.records import Frame

from ._build import foul, match, stroke


def test_apply_leaves_the_given_state_unchanged() -> None:
    """``apply`` is pure: asking what a stroke is worth does not play it."""
    s0 = new_frame(match(), Frame(frame=1, breaker="A"))
    before = (s0.reds, s0.colours, s0.phase, s0.to_play, list(s0.ledger.official), len(s0.outcomes))
    s1, o, findings = apply(s0, stroke(1, "A", ["black"], ["red"]))
    assert (s0.reds, s0.colours, s0.phase, s0.to_play, list(s0.ledger.official), len(s0.outcomes)) == before
    assert o is not None and o.foul and o.penalty == 7 and [f.kind for f in findings] == ["condoned_foul"]
    assert s1.reds == 14


def test_due_call_then_record_with_it() -> None:
    """The simulator's loop: learn the due call from the facts, write it, and the record raises nothing."""
    s = new_frame(match(), Frame(frame=1, breaker="A"))
    facts = stroke(1, "A", ["pink"])
    _, due, _ = apply(s, facts)
    assert due is not None and due.foul and due.penalty == 6 and due.next_striker == "B"
    s, _, findings = apply(s, stroke(1, "A", ["pink"], call=foul(due.penalty, miss=due.miss), score=[0, 6]))
    assert findings == []
    result = finish(s)
    assert result.score == (0, 6) and result.findings == []


def test_finish_does_not_close_the_live_break() -> None:
    """``finish`` reports the break in progress without ending it in the state it was given."""
    s = new_frame(match(), Frame(frame=1, breaker="A"))
    s, _, _ = apply(s, stroke(1, "A", ["red"], ["red"]))
    assert [b.points for b in finish(s).breaks] == [1]
    s, _, _ = apply(s, stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]))
    assert [b.points for b in finish(s).breaks] == [8]


def test_engine_registry_points_at_the_snooker_module() -> None:
    """``ENGINES``: every snooker edition replays through this module."""
    for rules in ("snooker/wpbsa-2024", "snooker/six-reds-2024", "snooker/classic", "snooker/shootout-2024"):
        assert engine_for(rules).replay_frame is replay_frame
