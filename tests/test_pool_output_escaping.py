"""What a pool log supplies is shown as text by ``cuelog replay``, never read as markup."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cuelog.cli import app


def test_log_text_in_findings_is_escaped(tmp_path: Path) -> None:
    records = [
        {"type": "match", "format": "cuelog/1", "match": "[bold]m1", "rules": "eightball/wpa",
         "sides": {"A": "[red]Ann", "B": "Bob"}},
        {"type": "frame", "frame": 1, "breaker": "A"},
        {"type": "stroke", "frame": 1, "n": 1, "striker": "A", "first": ["1"], "potted": [],
         "cushions": {"objects": 5}, "call": {"foul": True, "reason": "[blink]odd[/blink]"}},
    ]  # fmt: skip
    log = tmp_path / "m.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = CliRunner().invoke(app, ["replay", str(log)], env={"COLUMNS": "200"}, terminal_width=200)
    assert result.exit_code == 1, result.output
    assert "[bold]m1" in result.output and "[red]Ann" in result.output
    assert "foul called ([blink]odd[/blink])" in result.output
