"""The README's recording of `cuelog watch` shows what the command prints for that log."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from cuelog.cli import app
from tests.conftest import EXAMPLES, ROOT


def test_the_readme_recording_is_what_the_watch_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (shown,) = [b for b in re.findall(r"```console\n(.*?)```", readme, flags=re.S) if b.startswith("$ cuelog watch")]
    commands = [line for line in shown.splitlines() if line.startswith("$ ")]
    printed = [line for line in shown.splitlines() if not line.startswith("$ ")]
    assert commands[0].startswith("$ cuelog watch live.jsonl --until-end")
    monkeypatch.setenv("COLUMNS", "200")
    r = CliRunner().invoke(
        app, ["watch", str(EXAMPLES / "snooker-officiating.jsonl"), "--until-end", "--settle", "0.2"]
    )
    assert r.exit_code == 1
    assert printed == r.stdout.splitlines()
    # The finding appears before the next stroke is appended: it could still be called.
    i = next(k for k, line in enumerate(shown.splitlines()) if "condoned_foul  side B" in line)
    assert "stroke 3 is played" in shown.splitlines()[i + 1]
