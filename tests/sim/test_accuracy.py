"""Audit accuracy: the replay finds every injected officiating error and nothing else.

Short matches keep the run quick: one frame each, snooker frames with 3 to 15 reds (the
match ``reds`` field), billiards games to 60 points.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from cuelog.replay.model import FINDING_KINDS, FREE_BALL_ERROR
from cuelog.simulate import SeasonConfig, simulate_season
from cuelog.simulate.check import check_dir
from cuelog.simulate.writer import ERRORS_FILE, write_season
from tests.sim.conftest import cuelog, needs_billiards, needs_snooker

EVERY_KIND_BUT_FREE_BALL = frozenset(FINDING_KINDS) - {FREE_BALL_ERROR}


def _kinds(out: Path) -> Counter[str]:
    return Counter(json.loads(line)["kind"] for line in (out / ERRORS_FILE).read_text().splitlines())


@pytest.mark.parametrize(
    "cfg",
    [
        pytest.param(
            SeasonConfig("snooker/wpbsa-2024", 200, 31, 0.06, best_of=1, reds=0, kinds=EVERY_KIND_BUT_FREE_BALL),
            marks=needs_snooker,
            id="snooker",
        ),
        pytest.param(
            SeasonConfig("billiards/wpbsa-2024", 200, 31, 0.06, target=50, kinds=EVERY_KIND_BUT_FREE_BALL),
            marks=needs_billiards,
            id="billiards",
        ),
    ],
)
def test_recall_and_precision_are_one_over_two_hundred_matches(tmp_path: Path, cfg: SeasonConfig) -> None:
    write_season(tmp_path, simulate_season(cfg, workers=2))
    acc = check_dir(tmp_path)
    assert acc.missed == [] and acc.false_alarms == []
    assert acc.recall == 1.0 and acc.precision == 1.0
    kinds = _kinds(tmp_path)
    # The season exercised the officials' usual mistakes.
    usual = {
        "condoned_foul",
        "penalty_value",
        "score_mismatch",
        "respot_missing",
        "respot_wrong_spot",
        "respot_in_error",
    }
    assert usual <= set(kinds), kinds
    assert acc.injected == sum(kinds.values()) >= 100


@pytest.mark.parametrize(
    "cfg",
    [
        pytest.param(
            SeasonConfig(
                rules,
                60,
                17,
                0.08,
                best_of=1,
                reds=0 if rules.startswith("snooker") else None,
                target=None if rules.startswith("snooker") else 60,
                kinds=EVERY_KIND_BUT_FREE_BALL,
            ),
            marks=needs_snooker if rules.startswith("snooker") else needs_billiards,
            id=rules,
        )
        for rules in ("snooker/six-reds-2024", "snooker/classic", "billiards/classic", "billiards/one-red")
    ],
)
def test_other_editions_are_audited_exactly(tmp_path: Path, cfg: SeasonConfig) -> None:
    """The editions whose engines exist: the same season shape, the same accuracy."""
    write_season(tmp_path, simulate_season(cfg, workers=2))
    acc = check_dir(tmp_path)
    assert acc.missed == [] and acc.false_alarms == []
    assert acc.injected >= 20


@needs_snooker
def test_check_prints_recall_and_precision(tmp_path: Path) -> None:
    r = cuelog(
        "simulate",
        "--rules",
        "snooker/wpbsa-2024",
        "--matches",
        "5",
        "--seed",
        "3",
        "--out",
        str(tmp_path),
        "--errors",
        "0.05",
        "--best-of",
        "1",
        "--kinds",
        "condoned_foul,penalty_value,score_mismatch",
        "--check",
        "--json",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads(r.stdout)
    assert doc["recall"] == 1.0 and doc["precision"] == 1.0 and doc["errors"] > 0


@needs_snooker
def test_errors_jsonl_names_match_frame_stroke_and_kind(tmp_path: Path) -> None:
    write_season(tmp_path, simulate_season(SeasonConfig("snooker/wpbsa-2024", 4, 12, 0.1, best_of=1)))
    rows = [json.loads(line) for line in (tmp_path / ERRORS_FILE).read_text().splitlines()]
    assert rows
    for row in rows:
        assert set(row) == {"match", "frame", "stroke", "kind", "detail"}
        assert row["kind"] in FINDING_KINDS
        log = (tmp_path / "logs" / f"{row['match']}.jsonl").read_text()
        assert f'"frame":{row["frame"]},"n":{row["stroke"]},' in log


@needs_snooker
@pytest.mark.xfail(
    strict=True,
    reason="the snooker engine reports a free ball scored at its face value as score_mismatch; "
    "FORMAT.md section 7 has free_ball_error for a free ball scored against the rules (S3 R12(a),(c))",
)
def test_free_ball_scored_at_face_value_is_a_free_ball_error(tmp_path: Path) -> None:
    cfg = SeasonConfig("snooker/wpbsa-2024", 40, 5, 1.0, kinds=frozenset({FREE_BALL_ERROR}))
    write_season(tmp_path, simulate_season(cfg, workers=2))
    acc = check_dir(tmp_path)
    assert acc.injected > 0
    assert acc.recall == 1.0 and acc.precision == 1.0
