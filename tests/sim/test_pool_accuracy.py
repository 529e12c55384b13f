"""Pool audit accuracy: over 200 one-rack matches per ruleset the replay finds every
injected officiating error (fouls not called, wrong visits or ball in hand, a loss of
frame missed, a wrong group, balls not spotted or spotted in error, fouls called on legal
shots, a push out allowed late) and nothing else."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from cuelog.simulate import SeasonConfig, nineball, simulate_season, straight_pool
from cuelog.simulate.check import check_dir
from cuelog.simulate.eightball import KINDS
from cuelog.simulate.writer import ERRORS_FILE, write_season
from tests.sim.conftest import cuelog

EDITIONS = ("eightball/world-2015", "eightball/wepf", "eightball/wpa", "eightball/blackball")


@pytest.mark.parametrize("rules", EDITIONS)
def test_eightball_recall_and_precision_are_one_over_two_hundred_matches(tmp_path: Path, rules: str) -> None:
    write_season(tmp_path, simulate_season(SeasonConfig(rules, 200, 41, 0.05, best_of=1), workers=2))
    acc = check_dir(tmp_path)
    assert acc.missed == [] and acc.false_alarms == []
    assert acc.recall == 1.0 and acc.precision == 1.0
    kinds = Counter(json.loads(line)["kind"] for line in (tmp_path / ERRORS_FILE).read_text().splitlines())
    # Every pool mistake the model makes was made (a ball to spot is rare: not required).
    assert set(KINDS) - {"respot_missing"} <= set(kinds), kinds
    assert acc.injected == sum(kinds.values()) >= 100


def test_nineball_recall_and_precision_are_one_over_two_hundred_matches(tmp_path: Path) -> None:
    write_season(tmp_path, simulate_season(SeasonConfig("nineball/wpa", 200, 43, 0.06, best_of=1), workers=2))
    acc = check_dir(tmp_path)
    assert acc.missed == [] and acc.false_alarms == []
    kinds = Counter(json.loads(line)["kind"] for line in (tmp_path / ERRORS_FILE).read_text().splitlines())
    # The 9 on a foul is rare in one rack: respot_missing is not required.
    assert set(nineball.KINDS) - {"respot_missing"} <= set(kinds), kinds
    assert acc.injected == sum(kinds.values()) >= 60


def test_straight_pool_recall_and_precision_are_one_over_two_hundred_games(tmp_path: Path) -> None:
    """14.1 games to 15 points: every point checked against the scoreboard (WPA 4.7)."""
    cfg = SeasonConfig("straight-pool/wpa", 200, 47, 0.03, target=15)
    write_season(tmp_path, simulate_season(cfg, workers=2))
    acc = check_dir(tmp_path)
    assert acc.missed == [] and acc.false_alarms == []
    kinds = Counter(json.loads(line)["kind"] for line in (tmp_path / ERRORS_FILE).read_text().splitlines())
    # A safety that pockets a ball is rare: respot_missing is not required; a re-rack
    # placement on the wrong spot is tested below.
    assert set(straight_pool.KINDS) - {"respot_missing", "respot_wrong_spot"} <= set(kinds), kinds
    assert acc.injected == sum(kinds.values()) >= 100


def test_straight_pool_rerack_placements_audit_is_exact(tmp_path: Path) -> None:
    """WPA 4.8(c),(d): the fifteenth ball or the cue ball placed on the wrong spot, or not
    placed, at the re-racks of 60 games to 40 points: every one found, nothing else."""
    kinds_in = frozenset({"respot_wrong_spot", "respot_missing"})
    cfg = SeasonConfig("straight-pool/wpa", 60, 53, 0.5, target=40, kinds=kinds_in)
    write_season(tmp_path, simulate_season(cfg, workers=2))
    acc = check_dir(tmp_path)
    assert acc.missed == [] and acc.false_alarms == []
    rows = [json.loads(line) for line in (tmp_path / ERRORS_FILE).read_text().splitlines()]
    wrong = [r for r in rows if r["kind"] == "respot_wrong_spot"]
    assert len(wrong) >= 3 and all("re-rack" in r["detail"] for r in wrong)


def test_simulate_eightball_command_is_deterministic(tmp_path: Path) -> None:
    """``cuelog simulate --rules eightball/world-2015``: the same seed gives the same bytes, --check exact."""
    outs = []
    for name in ("a", "b"):
        out = tmp_path / name
        r = cuelog(
            "simulate", "--rules", "eightball/world-2015", "--matches", "6", "--seed", "9",
            "--out", str(out), "--errors", "0.05", "--check", "--json",
        )  # fmt: skip
        assert r.returncode == 0, r.stderr
        doc = json.loads(r.stdout)
        assert doc["recall"] == 1.0 and doc["precision"] == 1.0
        outs.append(sorted((p.relative_to(out), p.read_bytes()) for p in out.rglob("*") if p.is_file()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("rules", [*EDITIONS, "nineball/wpa", "straight-pool/wpa"])
def test_simulated_pool_logs_are_valid(tmp_path: Path, rules: str) -> None:
    """The simulated logs pass ``cuelog validate`` (called safeties, negative 14.1 scores)."""
    cfg = SeasonConfig(rules, 3, 5, 0.05, target=15 if rules.startswith("straight") else None)
    write_season(tmp_path, simulate_season(cfg))
    r = cuelog("validate", str(tmp_path / "logs"))
    assert r.returncode == 0, r.stdout + r.stderr
