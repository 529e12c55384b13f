"""A small plain log is read whole and its lines decoded in one call; it gives the records,
line numbers and problems that reading it line by line gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuelog.errors import InputError
from cuelog.ingest import reader
from cuelog.ingest.reader import log_files, read_records, records_by_line, whole_records
from tests.ingest.conftest import cli, frame, match, stroke
from tests.ingest.corpus import CASES

ROOT = Path(__file__).resolve().parents[2]


def _read(read, path: Path) -> list[tuple[int, object]] | list[tuple[str, int, str, str]]:
    """The records with their lines, or the problem raised, as comparable values."""
    try:
        return list(read(path))
    except InputError as exc:
        return [(p.file, p.line, p.code, p.field) for p in exc.problems]


def test_the_examples_and_a_simulated_season_are_read_whole_as_line_by_line(tmp_path: Path) -> None:
    assert (
        cli("simulate", "--rules", "snooker/wpbsa-2024", "--matches", 2, "--seed", 3, "--out", tmp_path).exit_code == 0
    )
    for path in log_files([tmp_path / "logs", ROOT / "examples"]):
        whole = whole_records(path)
        if path.suffix == ".gz":
            assert whole is None, path
            continue
        assert whole is not None, path
        assert whole == list(records_by_line(path)) == list(read_records(path)), path


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_log_with_a_problem_reads_as_it_did_line_by_line(case, tmp_path: Path) -> None:
    """Whatever the bad-input corpus holds, the records before the problem and the problem
    itself (its file, line, code and field) are those of the line-by-line read."""
    path = case.make(tmp_path)
    assert _read(read_records, path) == _read(records_by_line, path)


def test_a_blank_line_keeps_the_numbering(tmp_path: Path) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_text("\n".join([json.dumps(match()), "", json.dumps(frame()), "  ", json.dumps(stroke(1))]) + "\n")
    whole = whole_records(path)
    assert whole is not None and [n for n, _ in whole] == [1, 3, 5] == [n for n, _ in records_by_line(path)]


def test_a_log_over_the_size_is_read_line_by_line(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [match(), frame(), stroke(1)]) + "\n")
    assert whole_records(path) is not None
    monkeypatch.setattr(reader, "WHOLE_FILE_BYTES", path.stat().st_size - 1)
    assert whole_records(path) is None
    assert [n for n, _ in read_records(path)] == [1, 2, 3]
