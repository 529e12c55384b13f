"""Shot-clock logs paired while the stroke logs load (``cuelog ingest LOGS --clock ...``).

Pairing needs nothing of the store, so the command pairs the device logs on a DuckDB of
their own, in a thread, while the logs load, and aligns them after. What is stored and
reported must be what pairing after the load gives.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cuelog.ingest import clock
from cuelog.store import connect
from tests.ingest.conftest import cli, snapshot


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("season")
    args = ("simulate", "--rules", "snooker/wpbsa-2024", "--matches", "6", "--seed", "11", "--out", out)
    assert cli(*args, "--errors", "0.02").exit_code == 0
    # A log the Python reader takes (quoted cells) and a log it rejects, beside the plain ones.
    first = sorted((out / "clocks").glob("*.csv"))[0]
    lines = first.read_text(encoding="utf-8").splitlines()
    (out / "clocks" / "quoted.csv").write_text(
        "\n".join([lines[0], *(f'"{line.split(",")[0]}",{line.split(",", 1)[1]}' for line in lines[1:])]) + "\n",
        encoding="utf-8",
    )
    (out / "clocks" / "zz-bad.csv").write_text("table,ts,event\nsnooker-1,yesterday,stop\n", encoding="utf-8")
    return out


def _without_load_times(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    snap = snapshot(db)
    snap["ingest_log"] = [row[:4] for row in snap["ingest_log"]]
    return snap


def test_clocks_paired_while_the_logs_load_store_what_pairing_after_gives(
    season: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches of one log each, so that several wait paired while the logs still load."""
    monkeypatch.setattr(clock, "PAIR_BYTES", 1)
    clocks = sorted((season / "clocks").glob("*.csv"))
    together = cli("ingest", season / "logs", "--db", tmp_path / "together.duckdb", "--clock", *clocks, "--json")
    assert together.exit_code == 2, together.stderr  # zz-bad.csv is rejected
    assert cli("ingest", season / "logs", "--db", tmp_path / "after.duckdb").exit_code == 0
    after = cli("ingest", "--db", tmp_path / "after.duckdb", "--clock", *clocks, "--json")
    assert after.exit_code == 2, after.stderr
    together_clocks = json.loads(together.stdout)["clocks"]
    assert together_clocks == json.loads(after.stdout)["clocks"]
    statuses = {Path(c["path"]).name: (c["status"], c["aligned"] > 0) for c in together_clocks}
    assert statuses["quoted.csv"] == ("loaded", True) and statuses["zz-bad.csv"] == ("rejected", False)
    assert _without_load_times(tmp_path / "together.duckdb") == _without_load_times(tmp_path / "after.duckdb")


def test_pairing_ahead_gives_the_batches_pairing_gives_in_order(season: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "PAIR_BYTES", 1)
    monkeypatch.setattr(clock, "PAIRED_AHEAD", 1)
    clocks = sorted((season / "clocks").glob("*.csv"))
    with clock.pairing_ahead(clocks) as paired:
        ahead = list(paired)
    now = list(clock.paired_batches(clocks))
    assert len(ahead) == len(clocks) == len(now)
    assert [b.found for b in ahead] == [b.found for b in now]
    assert [b.shots.to_pylist() for b in ahead] == [b.shots.to_pylist() for b in now]


def test_an_error_while_pairing_ahead_is_raised_where_its_batch_was_due(
    season: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clock, "PAIR_BYTES", 1)
    real = clock.pair_batch

    def failing(con: Any, batch: list[Path]) -> list[clock.Found]:
        if batch[0].name == "quoted.csv":
            raise OSError("the disk went away")
        return real(con, batch)

    monkeypatch.setattr(clock, "pair_batch", failing)
    clocks = sorted((season / "clocks").glob("*.csv"))
    seen = []
    with pytest.raises(OSError, match="the disk went away"), clock.pairing_ahead(clocks) as paired:
        for batch in paired:
            seen.append(batch.found[0].name)
    assert seen == [str(p) for p in clocks[: clocks.index(season / "clocks" / "quoted.csv")]]


def test_leaving_early_stops_the_pairing_thread(season: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A load that fails before the clocks are aligned leaves no thread behind."""
    monkeypatch.setattr(clock, "PAIR_BYTES", 1)
    monkeypatch.setattr(clock, "PAIRED_AHEAD", 1)
    clocks = sorted((season / "clocks").glob("*.csv"))
    with pytest.raises(RuntimeError, match="the logs failed"), clock.pairing_ahead(clocks):
        raise RuntimeError("the logs failed")
    assert not any(t.name.startswith("cuelog-clock-pair") for t in threading.enumerate())


def test_batches_paired_side_by_side_come_in_the_order_of_the_logs(
    season: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two threads pair batches at once; the first batch, held up, still comes first, and
    every batch is what pairing one batch at a time gives."""
    monkeypatch.setattr(clock, "PAIR_BYTES", 1)
    clocks = sorted((season / "clocks").glob("*.csv"))
    real = clock.pair_batch

    def slow_first(con: Any, batch: list[Path]) -> list[clock.Found]:
        if batch[0] == clocks[0]:
            time.sleep(0.3)
        return real(con, batch)

    monkeypatch.setattr(clock, "pair_batch", slow_first)
    side_by_side = list(clock.paired_batches(clocks))
    monkeypatch.setattr(clock, "PAIRING_THREADS", 1)
    one_at_a_time = list(clock.paired_batches(clocks))
    assert [b.found[0].name for b in side_by_side] == [str(p) for p in clocks]
    assert [b.found for b in side_by_side] == [b.found for b in one_at_a_time]
    assert [b.shots.to_pylist() for b in side_by_side] == [b.shots.to_pylist() for b in one_at_a_time]


def test_the_store_is_untouched_by_pairing(season: Path, tmp_path: Path) -> None:
    """Pairing runs on a database of its own: a store it ran beside holds no clock rows."""
    db = tmp_path / "db.duckdb"
    con = connect(db)
    with clock.pairing_ahead(sorted((season / "clocks").glob("*.csv"))) as paired:
        assert sum(b.shots.num_rows for b in paired) > 0
    con.close()
    assert snapshot(db)["shot_clock"] == []
