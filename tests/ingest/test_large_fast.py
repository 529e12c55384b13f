"""Large (and gzipped) logs get the fast check too, part by part (cuelog.ingest.reading.read_large).

A log over 4 MB, or gzipped, is loaded on its own and streamed; it used to go through the
detailed check line by line, twice as slow as the fast check of a clean log. Now its parts
(whole lines) are given the fast check with one state running across them, so a frame, a
match and the stroke numbers carry on from part to part. As for small logs, "clean" may
only be said when the detailed check finds nothing: a log it cannot call clean is read
again by the detailed check, which names every problem, and the store and the progress
bar are as if it had been read once.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuelog.ingest import clean, load, reading
from cuelog.ingest.validate import detailed_problems
from cuelog.store import connect
from tests.ingest.conftest import cli, frame, match, snapshot, stroke, write
from tests.ingest.corpus import CASES
from tests.ingest.test_clean import varied_logs


@pytest.fixture(scope="module")
def season_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated season's matches in one log, as a recorder that keeps one log a day writes it."""
    out = tmp_path_factory.mktemp("season")
    assert cli("simulate", "--rules", "snooker/wpbsa-2024", "--matches", 4, "--seed", 3, "--out", out).exit_code == 0
    day = out / "day.jsonl"
    day.write_bytes(b"".join(p.read_bytes() for p in sorted((out / "logs").glob("*.jsonl"))))
    return day


def _load(path: Path, db: Path) -> tuple[dict[str, Any], int]:
    """The file loaded on its own: its result, and what the progress bar was given."""
    given: list[int] = []
    con = connect(db)
    try:
        result = load.ingest_file(con, path, progress=given.append)
    finally:
        con.close()
    return result.to_dict(), sum(given)


def _stored(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    snap = snapshot(db)
    snap["ingest_log"] = [row[:4] for row in snap["ingest_log"]]
    return snap


@pytest.mark.parametrize("zipped", [False, True])
def test_a_large_log_checked_in_parts_loads_as_the_detailed_check_loads_it(
    season_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zipped: bool
) -> None:
    """Parts of a few KB, so that they cut through matches, frames and visits; batches of a
    few hundred records, so that rows are staged part by part."""
    path = season_log
    if zipped:
        path = tmp_path / "day.jsonl.gz"
        path.write_bytes(gzip.compress(season_log.read_bytes()))
    monkeypatch.setattr(clean, "PART_BYTES", 3000)
    monkeypatch.setattr(reading, "BATCH", 300)
    parts = []
    real = clean.clean_part

    def counting(state: Any, data: bytes, first: int = 1, **options: Any) -> Any:
        parts.append(first)
        return real(state, data, first, **options)

    monkeypatch.setattr(clean, "clean_part", counting)
    fast, fast_progress = _load(path, tmp_path / "fast.duckdb")
    assert len(parts) > 20 and parts == sorted(parts)  # the fast check ran, part by part
    monkeypatch.setattr(load, "read_large", lambda *args: None)  # the detailed check only
    detailed, detailed_progress = _load(path, tmp_path / "detailed.duckdb")
    assert fast == detailed and fast["status"] == "loaded" and len(fast["matches"]) == 4
    assert fast_progress == detailed_progress == 2 * len(season_log.read_bytes())
    assert _stored(tmp_path / "fast.duckdb") == _stored(tmp_path / "detailed.duckdb")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_no_file_of_the_bad_input_corpus_is_called_clean_in_parts(
    case: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = case.make(tmp_path)
    assert detailed_problems(path)
    monkeypatch.setattr(clean, "PART_BYTES", 64)  # a part every line or two
    assert reading.read_large(path, None) is None


def test_a_problem_in_a_late_part_rejects_the_log_with_every_problem_and_stages_nothing(
    season_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first parts are clean and their rows staged; then a stroke out of order: the
    detailed check reads the log again, names the problem, and the store is untouched."""
    lines = season_log.read_bytes().split(b"\n")
    late = max(i for i, line in enumerate(lines) if b'"type":"stroke"' in line)
    record = json.loads(lines[late])
    record["n"] += 5
    lines[late] = json.dumps(record, separators=(",", ":")).encode()
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(lines))
    monkeypatch.setattr(clean, "PART_BYTES", 3000)
    monkeypatch.setattr(reading, "BATCH", 300)
    result, progress = _load(bad, tmp_path / "db.duckdb")
    assert result["status"] == "rejected"
    assert [(p["line"], p["code"]) for p in result["problems"]] == [
        (p.line, p.code) for p in detailed_problems(bad)
    ] and result["problems"][0]["line"] == late + 1
    assert progress == 2 * bad.stat().st_size
    assert _stored(tmp_path / "db.duckdb")["records"] == []


def test_a_line_longer_than_the_reader_takes_is_left_to_the_detailed_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "long.jsonl", [match(), frame(), stroke(1, event="x" * 5000)])
    monkeypatch.setattr(clean, "PART_BYTES", 512)
    monkeypatch.setattr(clean, "MAX_LINE", 1024)
    assert reading.read_large(path, None) is None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=varied_logs(), part=st.integers(40, 400))
def test_the_fast_check_in_parts_agrees_with_the_detailed_check_rule_by_rule(
    records: list[dict[str, Any]], part: int, tmp_path: Path
) -> None:
    """Strokes varied one rule at a time (tests/ingest/test_clean.py), cut into parts of
    every size: clean in parts exactly when the detailed check finds nothing."""
    path = tmp_path / "varied.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    problems = detailed_problems(path)
    previous = clean.PART_BYTES
    clean.PART_BYTES = part
    try:
        read = reading.read_large(path, None)
    finally:
        clean.PART_BYTES = previous
    assert (read is not None) == (not problems), problems


def test_a_clock_record_naming_no_stroke_of_the_last_frame_is_found_at_the_end_of_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/format.md section 4: a ``clock`` record names a stroke of its frame. The last
    frame is only closed at the log's end, after its last part."""
    clock = {"type": "clock", "frame": 1, "n": 9, "elapsed_s": 12.5}
    path = write(tmp_path / "clock.jsonl", [match(), frame(), stroke(1), stroke(2, striker="B"), clock])
    assert [p.code for p in detailed_problems(path)] == ["clock_unknown"]
    monkeypatch.setattr(clean, "PART_BYTES", 100)
    assert reading.read_large(path, None) is None
    clock["n"] = 2
    path = write(tmp_path / "clock-ok.jsonl", [match(), frame(), stroke(1), stroke(2, striker="B"), clock])
    assert detailed_problems(path) == [] and reading.read_large(path, None) is not None


def test_cuelog_validate_gives_a_large_log_the_fast_check_in_parts_and_a_bad_one_every_problem(
    season_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clean, "FAST_CHECK_BYTES", 1000)  # the day's log is a large log here
    monkeypatch.setattr(clean, "PART_BYTES", 3000)
    zipped = tmp_path / "day.jsonl.gz"
    zipped.write_bytes(gzip.compress(season_log.read_bytes()))
    assert clean.is_clean(season_log) and clean.is_clean(zipped)
    lines = season_log.read_bytes().split(b"\n")
    lines.insert(len(lines) // 2, b'{"type": "stroke", "frame": 1}')
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(lines))
    assert not clean.is_clean(bad)
    result = cli("validate", season_log, zipped, bad, "--json")
    assert result.exit_code == 2
    found = json.loads(result.stdout)
    assert [(p["file"], p["line"], p["code"]) for p in found["problems"]] == [
        (str(bad), p.line, p.code) for p in detailed_problems(bad)
    ]
