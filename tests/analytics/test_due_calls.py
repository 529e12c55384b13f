"""Statistics follow what the rules make of the strokes, not what was recorded.

Replayed by the snooker engine: Bob goes in-off while potting a red and nobody calls it.
The foul stands (S3 R10(c)): Bob's red counts, his break goes on, Ann receives nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cuelog.cli import app
from tests.analytics import kit

runner = CliRunner()


def condoned_in_off() -> kit.Log:
    log = kit.Log("m6-condoned", "Ann", "Bob", event="Winter Cup").frame(breaker="A")
    log.safety("A")  # n1
    log.red("B").colour("B", "black")  # n2, n3: 8
    # n4: red and white both potted, no foul called, wrong scoreboard and break recorded.
    log.stroke("B", ["red"], ["red", "white"], score=[0, 9], **{"break": 20})
    log.reds -= 1
    log.last_red = True
    log.stroke(
        "B", ["black"], ["black"], nominated="black", placement="legal", respots=[{"ball": "black", "spot": "black"}]
    )  # n5: 7
    return log.safety("B")  # n6


def report(db: Path, kind: str) -> dict[str, dict]:
    result = runner.invoke(app, ["report", kind, "--db", str(db), "--json"])
    assert result.exit_code == 0, result.stderr
    return {row["player"]: row for row in json.loads(result.stdout)["players"]}


def test_condoned_foul_counts_as_a_foul_but_concedes_nothing(tmp_path: Path) -> None:
    log = condoned_in_off()
    db = kit.load(tmp_path / "t.duckdb", log)
    replay = runner.invoke(app, ["replay", "--db", str(db), "--json"])
    kinds = [f["kind"] for f in json.loads(replay.stdout)["matches"][0]["frames"][0]["findings"]]
    assert "condoned_foul" in kinds
    misses = report(db, "misses")
    assert misses["Bob"]["fouls"] == 1
    assert misses["Bob"]["condoned_fouls"] == 1
    assert misses["Bob"]["foul_points_conceded"] == 0
    assert misses["Bob"]["miss_calls"] == 0
    breaks = report(db, "breaks")
    # 1 + 7 + 1 (the red of the condoned stroke stands) + 7: one break of 16, whatever the
    # scoreboard and the recorded break said.
    assert breaks["Bob"]["breaks"] == [16]
    assert breaks["Bob"]["total_points"] == 16
    assert breaks["Ann"]["total_points"] == 0
