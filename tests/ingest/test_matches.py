"""`cuelog matches` lists what is loaded; every command has help with examples."""

from __future__ import annotations

import json

import pytest

from tests.conftest import EXAMPLES
from tests.ingest.conftest import cli


def test_matches_lists_the_loaded_examples(tmp_path):
    db = tmp_path / "db.duckdb"
    assert cli("ingest", EXAMPLES, "--db", db).exit_code == 0
    result = cli("matches", "--db", db, "--json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)["matches"]
    summary = {r["match"]: (r["rules"], r["sides"]["A"], r["frames"], r["strokes"]) for r in rows}
    assert summary == {
        "example-147": ("snooker/wpbsa-2024", "Player A", 1, 37),
        "example-billiards": ("billiards/wpbsa-2024", "Player A", 1, 15),
        "example-eightball": ("eightball/world-2015", "Player A", 2, 15),
        "example-officiating": ("snooker/wpbsa-2024", "Player A", 1, 15),
    }
    assert [r["match"] for r in rows] == sorted(summary)
    human = cli("matches", "--db", db)
    assert human.exit_code == 0
    # One line a match, in id order: its id and rules first, frames, strokes and clocked last.
    lines = [line.split() for line in human.stdout.splitlines() if line.strip().startswith("example-")]
    assert [cells[0] for cells in lines] == sorted(summary)
    for cells, r in zip(lines, rows, strict=True):
        assert cells[1] == r["rules"]
        assert cells[-3:] == [str(r["frames"]), str(r["strokes"]), str(r["clocked"])]


def test_matches_without_a_database_is_bad_input(tmp_path):
    result = cli("matches", "--db", tmp_path / "missing.duckdb")
    assert result.exit_code == 2
    assert "no database" in result.stderr


@pytest.mark.parametrize("command", ["validate", "ingest", "matches", "schema"])
def test_every_command_has_help_with_an_example(command):
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert "cuelog " + command in result.stdout


def test_usage_error_exits_2():
    result = cli("ingest")
    assert result.exit_code == 2


@pytest.mark.parametrize("command", ["validate", "ingest"])
def test_a_directory_without_logs_is_bad_input(command, tmp_path):
    (tmp_path / "notes.txt").write_text("no logs here")
    result = cli(command, tmp_path)
    assert result.exit_code == 2
    assert "no log files" in result.stderr
