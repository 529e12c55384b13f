"""The public fold the simulator and the store build on: new_frame, apply, finish, replay_frame."""

from __future__ import annotations

import msgspec

from cuelog.replay import engine_for
from cuelog.replay.model import Outcome
from cuelog.replay.snooker import State, apply, finish, new_frame, replay_frame
from cuelog.schemas.records import Call, Frame, FrameRecord, Respot, Stroke

from ._build import event, foul, match, stroke


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


def _written(state: State, facts: Stroke, due: Outcome) -> Stroke:
    """The facts with the due call written, then the scoreboard that call gives, as the
    simulator writes them."""
    call = Call(foul=True, points=due.penalty, miss=due.miss, free_ball=due.free_ball) if due.foul else None
    respots = [Respot(ball=b, spot=sp) for b, sp in due.respots]
    called = msgspec.structs.replace(facts, call=call, respots=respots)
    _, scored, _ = apply(state, called)
    assert scored is not None
    return msgspec.structs.replace(called, score=list(scored.score))


def test_new_rules_due_calls_written_raise_nothing_and_apply_stays_pure() -> None:
    """S3 R3(h)(iv), R7(b), R12 in hand, R14(c): for each, the due call of the bare facts,
    written as the record, raises no finding, and asking never changes the state asked."""
    blue_in_front = [("red", 889.0, 3000.0), ("blue", 889.0, 2940.0), ("black", 889.0, 3245.0)]
    open_table = [("white", 400.0, 1000.0), ("red", 400.0, 2500.0), ("black", 889.0, 3245.0)]
    cases: list[tuple[list[FrameRecord], Stroke, dict[str, object]]] = [
        (  # R3(h)(iv): striking before the Pink is spotted, in a break
            [
                stroke(1, "A", ["red"], ["red"]),
                stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]),
            ],
            stroke(3, "A", ["red"], infringements=["before_spotted"]),
            {"foul": True, "penalty": 6},
        ),
        (  # R12 after an in-off, snookered from the whole D
            [],
            stroke(1, "A", ["red"], ["white"], positions=blue_in_front),
            {"foul": True, "free_ball": True},
        ),
        (  # R14(c): a clear path to the Red, nothing hit
            [stroke(1, "B", ["red"], positions=open_table)],
            stroke(2, "A", []),
            {"foul": True, "miss": True, "penalty": 4},
        ),
    ]
    for before, facts, expected in cases:
        s = new_frame(match(), Frame(frame=1, breaker=before[0].striker if before else "A"))  # type: ignore[union-attr]
        for r in before:
            s, _, _ = apply(s, r)
        frozen = finish(s)
        _, due, _ = apply(s, facts)
        assert due is not None
        assert {k: getattr(due, k) for k in expected} == expected
        written = _written(s, facts, due)
        s2, _, findings = apply(s, written)
        assert findings == []
        assert finish(s) == frozen  # asking changed nothing
        assert finish(s2).score == tuple(written.score or ())


def test_before_spotted_written_scoreboard_leaves_the_pink_out() -> None:
    """S3 R3(h)(iv): the scoreboard the simulator writes for the due call has the Red only."""
    s = new_frame(match(), Frame(frame=1, breaker="A"))
    for r in (
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["pink"], ["pink"], nominated="pink", respots=[("pink", "pink")]),
    ):
        s, _, _ = apply(s, r)
    facts = stroke(3, "A", ["red"], infringements=["before_spotted"])
    _, due, _ = apply(s, facts)
    assert due is not None
    assert _written(s, facts, due).score == [1, 6]


def test_deferred_points_taken_back_on_a_copy_only() -> None:
    """S3 R7(b): the correction that takes the points back changes the new state only."""
    s = new_frame(match(reds=0), Frame(frame=1, breaker="A"))
    for r in (
        stroke(1, "A", ["yellow"], ["yellow"], respots=[("yellow", "yellow")]),
        stroke(2, "A", ["yellow"], ["yellow"], respots=[]),
    ):
        s, _, _ = apply(s, r)
    frozen = finish(s)
    s2, _, _ = apply(s, event(2, "spot_correction", ball="yellow", remove=True))
    assert finish(s) == frozen and frozen.score == (4, 0)
    assert finish(s2).score == (2, 0)
