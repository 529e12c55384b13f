"""The bundled eight-ball example replays to its ``.expected.json`` (docs/format.md section 7)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from cuelog.replay.output import document, dumps

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NAME = "eightball-league"


def test_eightball_example_replays_to_expected() -> None:
    """Two racks under World 2015 rules: every finding at its stroke with its rule, the racks' winners."""
    expected = json.loads((EXAMPLES / f"{NAME}.expected.json").read_text())
    records = [r for _, r in read_records(EXAMPLES / f"{NAME}.jsonl")]
    doc = json.loads(dumps(document(replay_matches(records), "test")))
    (match,) = doc["matches"]
    assert len(match["frames"]) == len(expected["frames"])
    for frame, want in zip(match["frames"], expected["frames"], strict=True):
        assert frame["score"] == want["score"] and frame["recorded"] == want["recorded"]
        assert frame["winner"] == want["winner"]
        got = [{k: f[k] for k in ("n", "kind", "rule")} for f in frame["findings"]]
        assert got == want["findings"]


def test_eightball_example_through_the_command_line() -> None:
    """``cuelog replay`` of the example: exit 1 (findings), the loss of frame named in the table."""
    proc = subprocess.run(
        [sys.executable, "-m", "cuelog", "replay", str(EXAMPLES / f"{NAME}.jsonl")],
        capture_output=True,
        text=True,
        check=False,
        env={"COLUMNS": "200", "PATH": ""},
    )
    assert proc.returncode == 1, proc.stderr
    assert "frame_end_error" in proc.stdout and "WE M(2)" in proc.stdout and "5 finding(s)" in proc.stdout
