"""Databases for the analytics tests, built in a temporary directory.

``stats_db`` holds the four hand-built matches of ``kit`` twice over: once with replay
results built by hand stroke by stroke (``outcomes``), once replayed by the rules engines
through ``cuelog replay --db``. Every statistic must come out the same, worked out by hand
in the tests. The replayed variant needs the engine of each discipline; a test whose
matches have no engine in the tree is skipped with that reason.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuelog.cli import app
from cuelog.replay.model import MatchResult
from cuelog.store import connect
from cuelog.store.results import write_results
from tests.analytics import kit
from tests.analytics import outcomes as o

ENGINES = {d for d in ("snooker", "billiards") if importlib.util.find_spec(f"cuelog.replay.{d}") is not None}


def hand_results() -> list[MatchResult]:
    """The replay results of the four hand-built logs, stroke by stroke (see ``outcomes``)."""
    return [
        o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", o.maximum_frame()),
        o.match("m2-two-fifties", "snooker/wpbsa-2024", "Ann", "Bob", o.two_fifties_frame()),
        o.match("m3-misses", "snooker/wpbsa-2024", "Ann", "Bob", o.miss_frame()),
        o.match("m4-billiards", "billiards/wpbsa-2024", "Cara", "Dan", o.billiards_frame()),
    ]


def logs() -> list[kit.Log]:
    return [kit.maximum(), kit.two_fifties(), kit.miss_sequence(), kit.billiards_game()]


@pytest.fixture(params=["hand-built", "replayed"])
def stats_db(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The four hand-built matches loaded, with their replay results stored."""
    db = kit.load(tmp_path / "stats.duckdb", *logs())
    if request.param == "hand-built":
        results = hand_results()
        con = connect(db)
        try:
            write_results(con, [r.match for r in results], results)
        finally:
            con.close()
        return db
    needed = set(getattr(request.node.get_closest_marker("disciplines"), "args", ("snooker", "billiards")))
    if missing := sorted(needed - ENGINES):
        pytest.skip(f"the {' and '.join(missing)} engine is not merged yet")
    ids = [log.records[0]["match"] for log in logs() if log.records[0]["rules"].split("/")[0] in ENGINES]
    result = CliRunner().invoke(app, ["replay", "--db", str(db), "--workers", "1", *(f"--match={i}" for i in ids)])
    assert result.exit_code in (0, 1), result.stderr
    return db


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "disciplines(*names): the engines a test's replayed database needs (default: all)"
    )
