"""The engine protocol (cuelog/replay/engine.py): every registered engine implements it,
is found through the ruleset registry, and its pure fold gives what its replay gives."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from cuelog.replay.engine import Engine, NoEngine, engine_for, fold_frame
from cuelog.replay.model import Outcome
from cuelog.schemas.records import Frame, FrameEnd, FrameRecord, Match, Record
from cuelog.schemas.rulesets import DISCIPLINES, ENGINES, RULESETS, UnknownRuleset
from cuelog.simulate import SeasonConfig, simulate_season

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PROTOCOL = ("editions", "new_frame", "apply", "finish", "replay_frame")
ENGINE_RULES = sorted(r for r, rs in RULESETS.items() if rs.engine is not None)


def _frames(records: list[Record]) -> list[tuple[Match, Frame, list[FrameRecord]]]:
    """Each frame of a log with its match and its records."""
    out: list[tuple[Match, Frame, list[FrameRecord]]] = []
    match: Match | None = None
    for r in records:
        if isinstance(r, Match):
            match = r
        elif isinstance(r, Frame):
            assert match is not None
            out.append((match, r, []))
        else:
            out[-1][2].append(r)
    return out


@pytest.mark.parametrize("rules", ENGINE_RULES)
def test_every_registered_ruleset_has_an_engine_with_the_whole_protocol(rules: str) -> None:
    engine = engine_for(rules)
    for name in PROTOCOL:
        assert hasattr(engine, name), f"{rules}: engine has no {name}"
    # The edition of the ruleset id is one of the engine's editions.
    assert RULESETS[rules].edition in engine.editions
    # Exactly the protocol's parameters: a caller that knows only Engine can call each one.
    assert list(inspect.signature(engine.new_frame).parameters) == ["match", "frame", "previous"]
    assert list(inspect.signature(engine.apply).parameters) == ["state", "record"]
    assert list(inspect.signature(engine.finish).parameters) == ["state"]
    assert list(inspect.signature(engine.replay_frame).parameters) == ["match", "frame", "records", "previous"]


def test_every_registered_engine_is_type_checked_against_the_protocol() -> None:
    """cuelog/replay/engines.py assigns each engine module to ``Engine``, so mypy checks
    its functions' types against the protocol; a registered engine left out is caught here."""
    source = (Path(__file__).resolve().parents[1] / "cuelog" / "replay" / "engines.py").read_text(encoding="utf-8")
    for discipline, module in ENGINES.items():
        name = module.rpartition(".")[2]
        assert f": Engine = {name}\n" in source, f"{discipline}: {module} is not checked in engines.py"


def test_engines_are_registered_by_discipline_in_the_ruleset_registry() -> None:
    assert {"snooker", "billiards"} <= set(ENGINES)
    assert {name: d.engine for name, d in DISCIPLINES.items()} == ENGINES
    assert engine_for("snooker/classic") is engine_for("snooker/wpbsa-2024")
    assert engine_for("billiards/one-red").__name__ == ENGINES["billiards"]


def test_unknown_ruleset_and_missing_engine_are_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UnknownRuleset, match="unknown rules 'snooker/1900'"):
        engine_for("snooker/1900")
    # A discipline registered before its module exists: no engine yet, not an ImportError.
    monkeypatch.setitem(ENGINES, "nineball", "cuelog.replay.not_written_yet")
    with pytest.raises(NoEngine, match="no rules engine for 'nineball/wpa' yet"):
        engine_for("nineball/wpa")


def _fold_agrees(engine: Engine, records: list[Record]) -> int:
    """Every frame of ``records``: the pure fold (``new_frame``, ``apply``, ``finish``)
    gives the whole result the replay gives: score, recorded score and winner, winner,
    breaks, visits, end, breaker, findings and outcomes. Returns the strokes compared."""
    strokes = 0
    previous = None
    for match, frame, body in _frames(records):
        replayed = engine.replay_frame(match, frame, body, previous)
        folded = fold_frame(engine, match, frame, body, previous)
        assert folded.findings == replayed.findings
        assert folded.outcomes == replayed.outcomes
        assert folded == replayed
        ends = [r for r in body if isinstance(r, FrameEnd)]
        assert folded.recorded_winner == (ends[-1].winner if ends else None)
        strokes += len(replayed.outcomes)
        previous = replayed
    return strokes


EXAMPLE_LOGS = sorted(p.name for p in EXAMPLES.glob("*.jsonl") if not p.name.endswith(".corrections.jsonl"))


@pytest.mark.parametrize("log", EXAMPLE_LOGS)
def test_fold_gives_the_replay_of_the_examples(log: str) -> None:
    records = [r for _, r in read_records(EXAMPLES / log)]
    match = records[0]
    assert isinstance(match, Match)
    assert _fold_agrees(engine_for(match.rules), records) > 0
    # The examples record their winners: the fold has them too.
    winners = [r.winner for r in records if isinstance(r, FrameEnd)]
    assert winners and all(winners)


def test_finish_gives_the_recorded_winner_before_and_after_the_frame_end() -> None:
    """``finish`` of a state before the ``frame_end`` has no recorded winner; after, the
    one recorded (billiards once left it empty in the fold)."""
    records = [r for _, r in read_records(EXAMPLES / "billiards-game.jsonl")]
    (match, frame, body) = _frames(records)[0]
    engine = engine_for(match.rules)
    state = engine.new_frame(match, frame, None)
    for record in body:
        if isinstance(record, FrameEnd):
            assert engine.finish(state).recorded_winner is None
        state, _, _ = engine.apply(state, record)
    end = body[-1]
    assert isinstance(end, FrameEnd) and end.winner
    assert engine.finish(state).recorded_winner == end.winner


@pytest.mark.parametrize("discipline", sorted(DISCIPLINES))
def test_every_discipline_folds_to_its_replay_on_a_simulated_season(discipline: str) -> None:
    """Each registered discipline, each of its rulesets: a short simulated season with
    officiating errors, the fold against the replay frame by frame."""
    rulesets = [r for r in ENGINE_RULES if RULESETS[r].discipline == discipline]
    assert rulesets
    for rules in rulesets:
        config = SeasonConfig(rules, 2, seed=13, errors=0.05, best_of=3, reds=0 if discipline == "snooker" else None)
        engine = engine_for(rules)
        assert sum(_fold_agrees(engine, sim.records) for sim in simulate_season(config)) > 0, rules


@pytest.mark.parametrize(
    "config",
    [
        SeasonConfig("snooker/wpbsa-2024", 2, seed=11, errors=0.05, best_of=3),
        SeasonConfig("billiards/wpbsa-2024", 3, seed=5, errors=0.05, target=150),
    ],
    ids=lambda c: c.rules,
)
def test_fold_gives_the_replay_of_a_simulated_season_with_errors(config: SeasonConfig) -> None:
    """Officiating errors included: every finding the replay raises, the fold raises too."""
    season = list(simulate_season(config))
    engine = engine_for(config.rules)
    for sim in season:
        assert _fold_agrees(engine, sim.records) > 0
    results = replay_matches(r for sim in season for r in sim.records)
    assert sum(len(f.findings) for m in results for f in m.frames) > 0


def test_replay_goes_through_the_protocol() -> None:
    """``replay_matches`` replays each frame with the engine the registry names."""
    records = [r for _, r in read_records(EXAMPLES / "billiards-game.jsonl")]
    match = records[0]
    assert isinstance(match, Match)
    (result,) = replay_matches(records)
    engine = engine_for(match.rules)
    (match_, frame, body) = _frames(records)[0]
    assert result.frames[0] == engine.replay_frame(match_, frame, body, None)


def test_outcome_fields_stay_in_the_order_the_hot_loops_write_them() -> None:
    """Snooker's clean stroke, billiards' plain stroke and the pool games' due calls make
    ``Outcome`` positionally (keywords cost msgspec several times as much): a field moved,
    added or renamed in ``cuelog.replay.model`` must move with those calls."""
    assert Outcome.__struct_fields__ == (
        "n", "striker", "scored", "penalty", "foul", "reasons", "ball_on", "miss", "free_ball", "respots",
        "turn_ends", "next_striker", "score", "break_id", "visit_id", "frame_over", "winner", "credited",
        "detail", "visits", "in_hand", "loss_of_frame",
    )  # fmt: skip
