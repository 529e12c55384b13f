"""Databases for the analytics tests, built in a temporary directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuelog.analytics.results import write_results
from cuelog.store import connect
from tests.analytics import kit
from tests.analytics import outcomes as o


def hand_results() -> list:
    """The replay results of the four hand-built logs, stroke by stroke (see ``outcomes``)."""
    return [
        o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", o.maximum_frame()),
        o.match("m2-two-fifties", "snooker/wpbsa-2024", "Ann", "Bob", o.two_fifties_frame()),
        o.match("m3-misses", "snooker/wpbsa-2024", "Ann", "Bob", o.miss_frame()),
        o.match("m4-billiards", "billiards/wpbsa-2024", "Cara", "Dan", o.billiards_frame()),
    ]


@pytest.fixture
def stats_db(tmp_path: Path) -> Path:
    """The four hand-built matches loaded, with their replay results stored."""
    logs = (kit.maximum(), kit.two_fifties(), kit.miss_sequence(), kit.billiards_game())
    db = kit.load(tmp_path / "stats.duckdb", *logs)
    results = hand_results()
    con = connect(db)
    try:
        write_results(con, [r.match for r in results], results)
    finally:
        con.close()
    return db
