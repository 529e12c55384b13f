"""The shared billiards example replays to its ``.expected.json`` (docs/format.md section 7)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from cuelog.replay.output import document, dumps

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NAME = "billiards-game"


def _frame() -> dict[str, Any]:
    records = [r for _, r in read_records(EXAMPLES / f"{NAME}.jsonl")]
    doc = json.loads(dumps(document(replay_matches(records), "test")))
    (match,) = doc["matches"]
    (frame,) = match["frames"]
    return frame  # type: ignore[no-any-return]


def test_billiards_example_replays_to_expected() -> None:
    """Score capped at the target, winner A, the 27 break (strokes 8-15) kept whole, no findings."""
    expected = json.loads((EXAMPLES / f"{NAME}.expected.json").read_text())
    frame = _frame()
    assert frame["score"] == expected["score"]
    assert frame["winner"] == expected["winner"]
    if "recorded" in expected:
        assert frame["recorded"] == expected["recorded"]
    got = {(f["n"], f["kind"]): f for f in frame["findings"]}
    want = {(f["n"], f["kind"]): f for f in expected["findings"]}
    assert sorted(got) == sorted(want)
    for key, w in want.items():
        for field, value in w.items():
            assert got[key][field] == value, (key, field)
    for b in expected["breaks"]:
        assert b in frame["breaks"]


def test_billiards_example_visits() -> None:
    """Visits per side (the billiards average is points per visit): A 1-2, 8-15; B 3-7."""
    from cuelog.replay.billiards import replay_frame
    from cuelog.schemas.records import Frame, Match

    records = [r for _, r in read_records(EXAMPLES / f"{NAME}.jsonl")]
    match = next(r for r in records if isinstance(r, Match))
    frame = next(r for r in records if isinstance(r, Frame))
    rest = [r for r in records if not isinstance(r, Match | Frame)]
    result = replay_frame(match, frame, rest, None)  # type: ignore[arg-type]
    assert result.visits == (2, 1)
    assert [o.scored for o in result.outcomes] == [3, 0, 3, 2, 4, 6, 0, 3, 3, 4, 5, 3, 3, 3, 1]


def test_cli_json_replays_the_billiards_example() -> None:
    """`cuelog replay FILE --json` on the billiards log: exit 0, the capped score, no findings."""
    proc = subprocess.run(
        [sys.executable, "-m", "cuelog", "replay", str(EXAMPLES / f"{NAME}.jsonl"), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    frame = doc["matches"][0]["frames"][0]
    assert (frame["score"], frame["winner"], frame["findings"]) == ([30, 15], "A", [])


def test_cli_reports_a_billiards_finding(tmp_path: Path) -> None:
    """The Red left off the table after stroke 1 is reported; exit code 1."""
    lines = (EXAMPLES / f"{NAME}.jsonl").read_text().splitlines()
    lines[2] = lines[2].replace('[{"ball": "red", "spot": "spot"}]', "[]")
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "cuelog", "replay", str(log), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["matches"][0]["frames"][0]["findings"]
    assert [(f["n"], f["kind"], f["rule"]) for f in findings] == [(1, "respot_missing", "S3 R9(a)")]
