"""Replay output against outputs stored before the engines, the store and the pipeline were
restructured (issue 9): a simulated season of every ruleset with an engine, the bundled
examples, and ``replay --db`` of seasons loaded with their shot clocks, byte for byte.

A rule change that is meant to change these outputs regenerates them with the commands in
each test (``cuelog simulate ... --seed 7 --errors 0.03``, then ``cuelog replay``) and says
so in its commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuelog.cli import app

ROOT = Path(__file__).resolve().parents[1]
STORED = ROOT / "tests" / "data" / "stored"
RULES = (
    "snooker/wpbsa-2024",
    "billiards/wpbsa-2024",
    "snooker/six-reds-2024",
    "snooker/classic",
    "billiards/classic",
    "billiards/one-red",
)
IN_THE_DATABASE = ("snooker/wpbsa-2024", "billiards/wpbsa-2024", "snooker/classic", "billiards/one-red")


def cuelog(*args: str | Path, exit_codes: tuple[int, ...] = (0, 1)) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code in exit_codes, result.stderr
    return result.stdout


def simulate(rules: str, out: Path) -> Path:
    cuelog("simulate", "--rules", rules, "--matches", 4, "--seed", 7, "--out", out, "--errors", 0.03)
    return out


def stored(name: str) -> str:
    return (STORED / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("rules", RULES)
def test_a_simulated_season_replays_to_its_stored_output(rules: str, tmp_path: Path) -> None:
    season = simulate(rules, tmp_path / "season")
    assert cuelog("replay", season / "logs", "--json") == stored(f"replay_{rules.replace('/', '_')}.json")


def test_the_examples_replay_to_their_stored_output() -> None:
    assert cuelog("replay", ROOT / "examples", "--json") == stored("replay_examples.json")


def test_replay_of_the_database_gives_its_stored_output(tmp_path: Path) -> None:
    seasons = [simulate(rules, tmp_path / rules.replace("/", "_")) for rules in RULES if rules in IN_THE_DATABASE]
    clocks = [arg for s in seasons for csv in sorted((s / "clocks").glob("*.csv")) for arg in ("--clock", csv)]
    db = tmp_path / "db.duckdb"
    # The seasons share match ids: a later season's claim on a loaded id is refused, as stored.
    out = cuelog(
        "ingest", *(s / "logs" for s in seasons), ROOT / "examples", *clocks, "--db", db, "--json", exit_codes=(2,)
    )
    files = json.loads(out)["files"]
    refused = [(Path(f["path"]).parent.parent.name, f["problems"][0]["code"]) for f in files if f["status"] != "loaded"]
    assert refused == [("snooker_classic", "match_exists")] * 4 + [("billiards_one-red", "match_exists")] * 4
    assert cuelog("replay", "--db", db, "--json", "--workers", 2) == stored("replay_db.json")
