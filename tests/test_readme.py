"""The README's examples work as written, and CI runs the README's test command."""

from __future__ import annotations

import contextlib
import io
import re

from typer.testing import CliRunner

from cuelog.cli import app
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_ci_runs_the_readme_test_command():
    test_command = next(b.strip() for b in blocks("sh") if "pytest" in b)
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_main_job_is_the_demo():
    assert any(b.strip().endswith("cuelog demo") for b in blocks("sh"))


def test_python_example_prints_what_the_readme_says(monkeypatch):
    monkeypatch.chdir(ROOT)
    (code,) = blocks("python")
    expected = [line.removeprefix("# ") for line in code.splitlines() if line.startswith("# ")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().splitlines() == expected


def test_replay_example_output_matches_the_readme(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "200")
    shown = [b for b in blocks("console") if b.startswith("$ cuelog replay")]
    assert len(shown) == 2  # snooker, eight-ball
    for block in shown:
        _check_replay_block(block)


def _check_replay_block(shown: str) -> None:
    command, *lines = shown.strip().splitlines()
    result = CliRunner().invoke(app, command.removeprefix("$ cuelog ").split(), terminal_width=200)
    assert result.exit_code == 1  # findings

    def words(text: list[str]) -> list[str]:
        # Compare the words of each line; the table's rule line depends on the width.
        return [" ".join(line.split()) for line in text if line.strip() and set(line.strip()) != {"─"}]

    assert words(result.output.splitlines()) == words(lines)
