"""The rows of a clean log read by the fast check, against the rows the detailed check builds.

A small clean log is read by the fast check (:func:`cuelog.ingest.reading.read_small`), any
other by the detailed check (:func:`cuelog.ingest.reading.read_log`). Both must give the
store the same ``records``, ``strokes`` and ``shot_clock`` rows, for any mix of records.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from cuelog.ingest.clean import clean_log
from cuelog.ingest.reading import read_log, read_small
from tests.ingest.conftest import frame, lines, match, stroke

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.jsonl") if "corrections" not in p.name)


def _two_matches() -> list[dict[str, object]]:
    """Two matches in one file, each record type, strokes with and without a call, a score,
    a break and a time, and shot-clock records."""
    return [
        match(match="m-1"),
        frame(1, t="2026-05-01T14:00:00.000Z"),
        stroke(1, t="2026-05-01T14:00:20.120Z", score=[1, 0], potted=["red"], **{"break": 1}),
        {"type": "clock", "frame": 1, "n": 1, "elapsed_s": 19.5, "limit_s": 30.0},
        stroke(2, first=["black"], call={"foul": True, "points": 7, "miss": True}, score=[1, 7]),
        {"type": "choice", "frame": 1, "after": 2, "side": "B", "option": "replace"},
        stroke(3, striker="B", first=[], score=None, t="2026-05-01T14:01:02+02:00"),
        {"type": "clock", "frame": 1, "n": 3, "elapsed_s": 7.25, "paused_s": 1.0},
        {"type": "event", "frame": 1, "after": 3, "kind": "concede", "side": "A"},
        {"type": "frame_end", "frame": 1, "winner": "B", "score": [1, 7], "reason": "concession"},
        match(match="m-2", sides={"A": "Cy", "B": "Di"}),
        frame(1),
        stroke(1, call={"foul": False, "free_ball": True}, score=[0, 0]),
        {"type": "frame_end", "frame": 1, "winner": "A", "score": [0, 0]},
    ]


def _detailed(path: Path) -> dict[str, pa.Table]:
    read = read_log(path, True, None)
    assert not read.problems, read.problems
    return read.batch.arrow()


def test_a_clean_log_read_by_the_fast_check_gives_the_rows_of_the_detailed_check(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    path.write_text(lines(_two_matches()), encoding="utf-8")
    assert clean_log(path.read_bytes()) is not None  # the fast check's path, not the detailed one
    fast = read_small(path, path.read_bytes(), None)
    assert fast.records == 14
    assert [m.match for m, _ in fast.matches] == ["m-1", "m-2"]
    assert [line for line, _ in fast.claims] == [1, 11]
    tables = fast.batch.arrow()
    assert tables == _detailed(path)
    assert tables["records"].column("match_id").to_pylist() == ["m-1"] * 10 + ["m-2"] * 4
    assert tables["records"].column("seq").to_pylist() == list(range(10)) + list(range(4))
    assert tables["records"].column("n").to_pylist() == [None, None, 1, 1, 2, 2, 3, 3, 3, None, None, None, 1, None]
    assert tables["shot_clock"].column("match_id").to_pylist() == ["m-1", "m-1"]
    assert tables["shot_clock"].column("shot_s").to_pylist() == [19.5, 7.25]
    assert tables["strokes"].column("foul_called").to_pylist() == [False, True, False, False]
    assert tables["strokes"].column("score_a").to_pylist() == [1, 1, None, 0]


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_examples_give_the_same_rows_both_ways(name: str) -> None:
    path = ROOT / "examples" / name
    assert clean_log(path.read_bytes()) is not None
    fast = read_small(path, path.read_bytes(), None)
    assert fast.records > 15
    assert fast.batch.arrow() == _detailed(path)
