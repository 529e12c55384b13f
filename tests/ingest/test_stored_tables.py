"""The ``records`` and ``strokes`` tables ingest stores, against the logs read independently.

Each line of a simulated season is read here with ``json.loads`` and
``datetime.fromisoformat`` and turned into the rows the store must hold; the tables loaded
by ``cuelog ingest`` (one-match files: the fast check, many files to a transaction) and by
the streaming path (the same logs gzipped: the detailed check, one file at a time) must
equal them exactly, as Arrow tables.
"""

from __future__ import annotations

import gzip
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from cuelog.store import connect
from cuelog.store.loads import RECORDS_SCHEMA, STROKES_SCHEMA
from tests.ingest.conftest import cli

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _other_time_shapes(path: Path, rng: random.Random) -> None:
    """Rewrite some stroke times in the other ISO 8601 shapes a log may use (an offset, no
    fraction, microseconds), keeping the instant: the stored time must not depend on the shape."""
    out = []
    for text in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(text)
        if record["type"] == "stroke" and record.get("t") and rng.random() < 0.3:
            t = datetime.fromisoformat(record["t"])
            shape = rng.choice(["offset", "seconds", "micro"])
            if shape == "offset":
                record["t"] = t.astimezone(UTC).replace(tzinfo=None).isoformat() + "+00:00"
            elif shape == "seconds":
                record["t"] = t.replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
            else:
                record["t"] = t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+02:00"
            text = json.dumps(record, separators=(",", ":"))
        out.append(text)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("season")
    for rules, seed in (("snooker/wpbsa-2024", 3), ("billiards/wpbsa-2024", 4), ("eightball/world-2015", 5)):
        out = root / rules.split("/")[0]
        assert cli("simulate", "--rules", rules, "--matches", 2, "--seed", seed, "--out", out).exit_code == 0
    logs = root / "logs"
    logs.mkdir()
    rng = random.Random(16)
    for i, path in enumerate(sorted(root.glob("*/logs/*.jsonl"))):
        copy = logs / f"{i:03d}.jsonl"
        copy.write_bytes(path.read_bytes())
        _other_time_shapes(copy, rng)
    return logs


def _expected(logs: Path) -> tuple[pa.Table, pa.Table]:
    """The rows of ``records`` and ``strokes``, read from the logs with the standard library."""
    records: list[dict[str, Any]] = []
    strokes: list[dict[str, Any]] = []
    for path in sorted(logs.glob("*.jsonl")):
        match_id, seq = "", 0
        for line, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            if not text.strip():
                continue
            r = json.loads(text)
            if r["type"] == "match":
                match_id, seq = r["match"], 0
            else:
                seq += 1
            n = r.get("n") if r["type"] in ("stroke", "clock") else r.get("after")
            records.append(
                {"match_id": match_id, "seq": seq, "line": line, "type": r["type"]}
                | {"frame": r.get("frame"), "n": n, "body": text.strip()}
            )
            if r["type"] == "stroke":
                strokes.append(_stroke_row(match_id, r))
    return pa.Table.from_pylist(records, schema=RECORDS_SCHEMA), pa.Table.from_pylist(strokes, schema=STROKES_SCHEMA)


def _stroke_row(match_id: str, r: dict[str, Any]) -> dict[str, Any]:
    call = r.get("call") or {}
    score = r.get("score") or [None, None]
    t = None if r.get("t") is None else _EPOCH + (datetime.fromisoformat(r["t"]) - _EPOCH)
    return {
        "match_id": match_id,
        "frame": r["frame"],
        "n": r["n"],
        "striker": r["striker"],
        "t": t,
        "first": r["first"],
        "potted": r["potted"],
        "nominated": r.get("nominated"),
        "foul_called": bool(call.get("foul", False)),
        "points_called": call.get("points"),
        "miss_called": bool(call.get("miss", False)),
        "free_ball_called": bool(call.get("free_ball", False)),
        "score_a": score[0],
        "score_b": score[1],
        "break_": r.get("break"),
    }


def _stored(db: Path) -> tuple[pa.Table, pa.Table]:
    con = connect(db, read_only=True)
    try:
        records = con.sql("SELECT * FROM records ORDER BY match_id, seq").to_arrow_table()
        strokes = con.sql("SELECT * FROM strokes ORDER BY match_id, frame, n").to_arrow_table()
    finally:
        con.close()
    return records.cast(RECORDS_SCHEMA), strokes.cast(STROKES_SCHEMA)


def _sorted(table: pa.Table, keys: list[str]) -> pa.Table:
    return table.sort_by([(k, "ascending") for k in keys])


def test_ingest_stores_every_line_and_every_stroke_as_the_log_gives_them(season: Path, tmp_path: Path) -> None:
    db = tmp_path / "store.duckdb"
    result = cli("ingest", season, "--db", db, "--json")
    assert result.exit_code == 0, result.stderr
    assert {f["status"] for f in json.loads(result.stdout)["files"]} == {"loaded"}
    records, strokes = _stored(db)
    want_records, want_strokes = _expected(season)
    assert strokes.num_rows > 500
    assert records.equals(_sorted(want_records, ["match_id", "seq"]))
    assert strokes.equals(_sorted(want_strokes, ["match_id", "frame", "n"]))


def test_the_streaming_path_stores_the_same_tables(season: Path, tmp_path: Path) -> None:
    gz = tmp_path / "gz"
    gz.mkdir()
    for path in sorted(season.glob("*.jsonl")):
        (gz / (path.name + ".gz")).write_bytes(gzip.compress(path.read_bytes()))
    plain, streamed = tmp_path / "plain.duckdb", tmp_path / "streamed.duckdb"
    assert cli("ingest", season, "--db", plain).exit_code == 0
    assert cli("ingest", gz, "--db", streamed).exit_code == 0
    assert _stored(streamed)[0].equals(_stored(plain)[0])
    assert _stored(streamed)[1].equals(_stored(plain)[1])


def test_a_time_with_an_offset_is_stored_as_its_instant(tmp_path: Path) -> None:
    base = {"type": "stroke", "frame": 1, "striker": "A", "first": ["red"], "potted": []}
    times = ["2026-05-01T14:03:22.120Z", "2026-05-01T16:03:22.121+02:00", "2026-05-01T14:03:22Z"]
    lines = [
        {"type": "match", "format": "cuelog/1", "match": "m1", "rules": "snooker/wpbsa-2024"}
        | {"sides": {"A": "Player A", "B": "Player B"}},
        {"type": "frame", "frame": 1, "breaker": "A"},
        *({**base, "n": n, "t": t, "striker": "AB"[n % 2]} for n, t in enumerate(times, start=1)),
    ]
    (tmp_path / "m1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    db = tmp_path / "store.duckdb"
    assert cli("ingest", tmp_path / "m1.jsonl", "--db", db).exit_code == 0
    con = connect(db, read_only=True)
    stored = [row[0] for row in con.execute("SELECT epoch_us(t) FROM strokes ORDER BY n").fetchall()]
    con.close()
    start = (datetime(2026, 5, 1, 14, 3, 22, tzinfo=UTC) - _EPOCH) // timedelta(microseconds=1)
    assert stored == [start + 120_000, start + 121_000, start]
