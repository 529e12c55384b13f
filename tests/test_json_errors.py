"""Every command with --json prints a JSON error document on stdout when it fails (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.ingest.conftest import cli, frame, match, stroke, write


@pytest.fixture(scope="module")
def replayed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("json-errors") / "store.duckdb"
    assert cli("ingest", EXAMPLES, "--db", db).exit_code == 0
    assert cli("replay", "--db", db, "--workers", "1").exit_code in (0, 1)
    return db


def error_of(*args: str | Path) -> dict[str, str]:
    result = cli(*args, "--json")
    assert result.exit_code == 2, result.output
    doc = json.loads(result.stdout)
    assert doc["ok"] is False
    assert doc["error"]["message"]
    assert doc["error"]["message"] in " ".join(result.stderr.split())
    return doc["error"]


def test_no_database(tmp_path):
    nowhere = tmp_path / "none.duckdb"
    assert error_of("matches", "--db", nowhere)["code"] == "no_database"
    assert error_of("report", "breaks", "--db", nowhere)["code"] == "no_database"
    assert error_of("replay", "--db", nowhere)["code"] == "no_database"
    assert not nowhere.exists()


def test_unknown_match(replayed_db):
    error = error_of("replay", "--db", replayed_db, "--match", "no-such-match")
    assert error["code"] == "unknown_match"
    assert "no-such-match" in error["message"]


def test_unknown_player(replayed_db):
    error = error_of("report", "breaks", "--db", replayed_db, "--player", "Nobody")
    assert error["code"] == "bad_selection"
    assert "Nobody" in error["message"]


def test_bad_report_kind(replayed_db):
    assert error_of("report", "colours", "--db", replayed_db)["code"] == "unknown_report"


def test_bad_grouping(replayed_db):
    error = error_of("report", "breaks", "--db", replayed_db, "--by", "venue")
    assert error["code"] == "usage"
    assert "--by" in error["message"]


def test_unknown_ruleset(tmp_path):
    log = write(tmp_path / "martian.jsonl", [match(rules="snooker/martian"), frame(), stroke(1)])
    error = error_of("replay", log)
    assert error["code"] == "unknown_rules"
    assert "snooker/martian" in error["message"]
    assert (
        error_of("simulate", "--rules", "pool/none", "--matches", "1", "--seed", "1", "--out", tmp_path / "s")["code"]
        == "unknown_rules"
    )


def test_no_logs(tmp_path):
    assert error_of("validate", tmp_path)["code"] == "no_logs"
    assert error_of("ingest", tmp_path, "--db", tmp_path / "x.duckdb")["code"] == "no_logs"


def test_without_json_stdout_stays_empty(tmp_path):
    result = cli("matches", "--db", tmp_path / "none.duckdb")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "no database" in result.stderr


def test_a_usage_error_of_a_command_given_json_is_a_json_error_too(tmp_path):
    error = error_of("replay", "--db", tmp_path / "x.duckdb", "--workers", "0")
    assert error["code"] == "usage"
    assert "--workers" in error["message"]
    plain = cli("replay", "--db", tmp_path / "x.duckdb", "--workers", "0")
    assert plain.exit_code == 2 and plain.stdout == ""
