"""What `cuelog watch` says while a recorder writes a log equals `cuelog replay` on the finished file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cuelog.cli import app
from tests.conftest import EXAMPLES
from tests.live.conftest import replay_doc, replayed, standing, watch_while_recording


def _frames(events: list[dict[str, Any]]) -> dict[tuple[str, int], tuple[Any, ...]]:
    """The last result said for each frame."""
    out: dict[tuple[str, int], tuple[Any, ...]] = {}
    for e in events:
        if e["event"] == "frame":
            out[(e["match"], e["frame"])] = (e["score"], e["recorded"], e["winner"])
    return out


def _replayed_frames(doc: dict[str, Any]) -> dict[tuple[str, int], tuple[Any, ...]]:
    return {
        (m["match"], fr["frame"]): (fr["score"], fr["recorded"], fr["winner"])
        for m in doc["matches"]
        for fr in m["frames"]
    }


def _check(tmp_path: Path, source: Path, *args: str) -> list[dict[str, Any]]:
    code, events, err = watch_while_recording(tmp_path / "live.jsonl", source, *args)
    replay_code, doc = replay_doc(source)
    assert err == ""
    assert standing(events) == replayed(doc)
    assert _frames(events) == _replayed_frames(doc)
    assert code == replay_code
    assert events[-1] == {
        "event": "notice",
        "code": "stopped",
        "message": "the match is over",
        "line": events[-1]["line"],
    }
    return events


@pytest.mark.parametrize("name", ["snooker-officiating", "snooker-maximum", "billiards-game"])
def test_watch_of_a_bundled_example_equals_its_replay(tmp_path: Path, name: str) -> None:
    events = _check(tmp_path, EXAMPLES / f"{name}.jsonl", "--settle", "1.5")
    if name == "snooker-officiating":
        found = [(e["n"], e["kind"], e["put_right"]["open"]) for e in events if e["event"] == "finding"]
        assert found == [(2, "condoned_foul", True), (5, "penalty_value", True), (7, "respot_missing", True)]


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for rules, seed in (("snooker/wpbsa-2024", 3), ("billiards/wpbsa-2024", 5)):
        root = tmp_path_factory.mktemp(rules.split("/")[0])
        r = CliRunner().invoke(
            app,
            [
                "simulate",
                "--rules",
                rules,
                "--matches",
                "1",
                "--seed",
                str(seed),
                "--out",
                str(root),
                "--errors",
                "0.05",
            ],
        )
        assert r.exit_code == 0, r.output
        out[rules.split("/")[0]] = next((root / "logs").glob("*.jsonl"))
    return out


@pytest.mark.parametrize("discipline", ["snooker", "billiards"])
def test_watch_of_a_simulated_match_equals_its_replay(tmp_path: Path, season: dict[str, Path], discipline: str) -> None:
    events = _check(tmp_path, season[discipline])
    # The simulator injected officiating errors: the watch found some of them live.
    assert sum(e["event"] == "finding" for e in events) > 0
    assert [e["event"] for e in events].count("match_over") == 1


def test_the_same_log_written_in_different_pieces_gives_the_same_output(tmp_path: Path) -> None:
    """Determinism: how the recorder's writes are cut and paced changes nothing said."""
    source = EXAMPLES / "snooker-officiating.jsonl"
    runs = []
    for seed in (1, 2):
        _, events, _ = watch_while_recording(tmp_path / f"live{seed}.jsonl", source, "--settle", "1", seed=seed)
        said = [e for e in events if e["event"] != "notice"]
        runs.append([{**e, "file": None} if e["event"] == "problem" else e for e in said])
    assert runs[0] == runs[1]
    assert any(e["event"] == "finding" for e in runs[0])
