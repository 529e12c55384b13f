"""The shared snooker examples replay to their ``.expected.json`` (docs/format.md section 7)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from cuelog.replay.output import document, dumps

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CASES = ["snooker-maximum", "snooker-officiating"]


def _frame(name: str) -> dict[str, object]:
    records = [r for _, r in read_records(EXAMPLES / f"{name}.jsonl")]
    doc = json.loads(dumps(document(replay_matches(records), "test")))
    (match,) = doc["matches"]
    (frame,) = match["frames"]
    return frame  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", CASES)
def test_example_replays_to_expected(name: str) -> None:
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    frame = _frame(name)
    assert frame["score"] == expected["score"]
    assert frame["winner"] == expected["winner"]
    if "recorded" in expected:
        assert frame["recorded"] == expected["recorded"]
    got = {(f["n"], f["kind"]): f for f in frame["findings"]}  # type: ignore[attr-defined]
    want = {(f["n"], f["kind"]): f for f in expected["findings"]}
    assert sorted(got) == sorted(want)
    for key, w in want.items():
        for fieldname, value in w.items():
            assert got[key][fieldname] == value, (key, fieldname)
    for b in expected.get("breaks", []):
        assert b in frame["breaks"]  # type: ignore[operator]


def test_cli_json_prints_the_expected_findings() -> None:
    """`cuelog replay FILE --json` prints the document; exit 1 because there are findings."""
    proc = subprocess.run(
        [sys.executable, "-m", "cuelog", "replay", str(EXAMPLES / "snooker-officiating.jsonl"), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    kinds = [(f["n"], f["kind"]) for f in doc["matches"][0]["frames"][0]["findings"]]
    assert kinds == [(2, "condoned_foul"), (5, "penalty_value"), (7, "respot_missing")]


def test_cli_clean_maximum_exits_zero() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cuelog", "replay", str(EXAMPLES / "snooker-maximum.jsonl")],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
