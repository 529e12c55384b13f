"""The README's examples work as written, and CI runs the README's test command."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import shutil

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
    shown = next(b for b in blocks("console") if b.startswith("$ cuelog replay"))
    command, *lines = shown.strip().splitlines()
    result = CliRunner().invoke(app, command.removeprefix("$ cuelog ").split(), terminal_width=200)
    assert result.exit_code == 1  # findings

    def words(text: list[str]) -> list[str]:
        # Compare the words of each line; the table's rule line depends on the width.
        return [" ".join(line.split()) for line in text if line.strip() and set(line.strip()) != {"─"}]

    assert words(result.output.splitlines()) == words(lines)


def tour() -> list[str]:
    (block,) = [b for b in blocks("sh") if b.startswith("cuelog validate")]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_the_tour_runs_as_written_on_a_first_run(tmp_path, monkeypatch):
    """Every tour command, in order, in a fresh directory holding only the bundled examples."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    commands = tour()
    assert len(commands) >= 10
    for command in commands:
        args = shlex.split(command)
        assert args[0] == "cuelog"
        result = CliRunner().invoke(app, args[1:])
        assert result.exception is None or isinstance(result.exception, SystemExit), command
        # 1 is documented for commands that report findings; 2 (bad input or usage) never.
        assert result.exit_code in (0, 1), f"{command}: {result.output}"
        if args[1] in ("validate", "ingest", "matches", "report", "plot", "schema"):
            assert result.exit_code == 0, f"{command}: {result.output}"
    assert (tmp_path / "worm.png").stat().st_size > 0
    assert sorted((tmp_path / "season" / "logs").glob("*.jsonl"))


def test_the_tour_loads_the_shipped_clocks_and_applies_the_shipped_corrections(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    ingest = next(c for c in tour() if c.startswith("cuelog ingest"))
    result = CliRunner().invoke(app, [*shlex.split(ingest)[1:], "--json"])
    [clocks] = json.loads(result.stdout)["clocks"]
    assert (clocks["status"], clocks["aligned"], clocks["unplaced"]) == ("loaded", 15, 0)
    fixed = next(c for c in tour() if "--corrections" in c)
    doc = json.loads(CliRunner().invoke(app, [*shlex.split(fixed)[1:], "--json"]).stdout)
    [officiating] = [m for m in doc["matches"] if m["match"] == "example-officiating"]
    assert [(c["frame"], c["n"]) for c in officiating["corrections"]] == [(1, 2)]
