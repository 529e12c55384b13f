"""Quoted globs for log paths: `cuelog ingest 'logs/*.jsonl'` as for `--clock 'clocks/*.csv'`.

A shell leaves a quoted pattern (or one under a shell that does not expand) whole; the
commands that read logs expand it themselves, sorted, and say so when it matches nothing.
"""

from __future__ import annotations

import json
import shutil

from tests.conftest import EXAMPLES
from tests.ingest.conftest import cli

LOGS = ("billiards-game.jsonl", "snooker-maximum.jsonl", "snooker-officiating.jsonl")


def _logs(tmp_path):
    d = tmp_path / "logs"
    d.mkdir()
    for name in LOGS:
        shutil.copy(EXAMPLES / name, d / name)
    return d


def test_ingest_expands_a_quoted_glob_of_logs_sorted(tmp_path):
    d = _logs(tmp_path)
    result = cli("ingest", str(d / "snooker-*.jsonl"), "--db", tmp_path / "s.duckdb", "--json")
    assert result.exit_code == 0, result.output
    files = json.loads(result.stdout)["files"]
    assert [(f["path"], f["status"]) for f in files] == [
        (str(d / "snooker-maximum.jsonl"), "loaded"),
        (str(d / "snooker-officiating.jsonl"), "loaded"),
    ]


def test_replay_of_a_quoted_glob_equals_the_replay_of_the_files(tmp_path):
    d = _logs(tmp_path)
    by_glob = cli("replay", str(d / "*.jsonl"), "--json")
    by_name = cli("replay", *(d / name for name in LOGS), "--json")
    assert by_glob.exit_code == by_name.exit_code == 1  # the examples hold findings
    assert by_glob.stdout == by_name.stdout
    assert len(json.loads(by_glob.stdout)["matches"]) == 3


def test_validate_of_a_quoted_glob_checks_every_match(tmp_path):
    d = _logs(tmp_path)
    result = cli("validate", str(d / "*.jsonl"))
    assert result.exit_code == 0, result.output
    assert "3 file(s) checked: valid" in result.stderr


def test_a_glob_of_logs_that_matches_nothing_is_a_clear_error(tmp_path):
    pattern = str(tmp_path / "logs" / "*.jsonl")
    for command in (
        ("ingest", pattern, "--db", tmp_path / "s.duckdb"),
        ("replay", pattern),
        ("validate", pattern),
        ("audit", pattern, "--out", tmp_path / "a.html"),
    ):
        result = cli(*command)
        assert result.exit_code == 2, command
        assert f"PATHS {pattern}: no file matches this pattern" in " ".join(result.stderr.split())
    assert not (tmp_path / "s.duckdb").exists()
