"""An ingest worker's work a record, step by step, against two C++ JSON readers as floors.

    python benchmarks/ingest_check.py --logs LOGS --files 1000   # the first 1,000 small logs of a folder
    python benchmarks/ingest_check.py --snooker 60 --billiards 30  # a simulated season, one match a file
    python benchmarks/ingest_check.py --logs LOGS --rounds 5 --json

What an ingest worker does with a batch of small clean logs (``cuelog.ingest.parallel.
check_batch``: ``reading.read_small``, the fast check of ``cuelog.ingest.clean``, then the
rows), each step timed on its own over the same files, in this one process:

- ``lines``: each log's lines numbered and stripped (``reader.lines_of``);
- ``decode``: the typed decoder over the log's bytes (``reader.typed_decoder``, msgspec);
- ``check``: each stroke's fast check (``clean.stroke_clean``), the other records' detailed
  checks (``validate.check_record``) and the last frame's (``validate.close_frame``);
- ``times``: the strokes' times read in one Arrow cast (``validate.times_us``);
- ``tuples``: the rows as tuples (``reading._take``);
- ``arrow_records``, ``arrow_strokes``, ``arrow_shot_clock``: the tuples as the Arrow
  table of each store table (``cuelog.store.arrow.rows_table``), a batch of about 1 MB of
  logs at a time, as a worker's.

And two floors, labelled as such: the same bytes read by Arrow's JSON reader and by DuckDB's
``read_ndjson`` (one thread), each given the strokes' columns, no check made. They say what
reading the logs' JSON in C++ costs before any check: a path that hands the reading to
either pays at least that.

Each round times every step over every file; the figures are the medians of the rounds with
their spread, in nanoseconds a record. The script checks that the steps give the rows
``read_small`` gives (the same count in each store table) and that both readers read as
many records; a log the fast check does not call clean stops it, named (the figures are those
of clean logs). Timings are CPU time of this process; never assert them in tests.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.json as pajson  # noqa: E402

from cuelog.ingest import clean, reader, reading  # noqa: E402
from cuelog.ingest.parallel import BATCH_BYTES  # noqa: E402
from cuelog.ingest.validate import FileState, check_record, close_frame, times_us  # noqa: E402
from cuelog.schemas.records import TypedStroke  # noqa: E402
from cuelog.store.arrow import rows_table  # noqa: E402
from cuelog.store.loads import ROW_SCHEMAS  # noqa: E402

STEPS = ("lines", "decode", "check", "times", "tuples", "arrow_records", "arrow_strokes", "arrow_shot_clock")
FLOORS = ("arrow_json", "duckdb_read_ndjson")

_CALL = pa.struct([("foul", pa.bool_()), ("points", pa.int64()), ("miss", pa.bool_()), ("free_ball", pa.bool_())])
STROKE_COLUMNS = pa.schema(
    [
        ("type", pa.string()),
        ("frame", pa.int64()),
        ("n", pa.int64()),
        ("striker", pa.string()),
        ("t", pa.string()),
        ("first", pa.list_(pa.string())),
        ("potted", pa.list_(pa.string())),
        ("nominated", pa.string()),
        ("call", _CALL),
        ("score", pa.list_(pa.int64())),
        ("break", pa.int64()),
    ]
)
"""The columns the ``strokes`` table takes from a stroke (``cuelog.ingest.rows``), as the two
readers are given them: the least either would have to read."""


def _duckdb_type(t: pa.DataType) -> str:
    """DuckDB's name for an Arrow type of :data:`STROKE_COLUMNS`."""
    if pa.types.is_list(t):
        return f"{_duckdb_type(t.value_type)}[]"
    if pa.types.is_struct(t):
        return "STRUCT(" + ", ".join(f"{f.name} {_duckdb_type(f.type)}" for f in t) + ")"
    return {pa.string(): "VARCHAR", pa.int64(): "BIGINT", pa.bool_(): "BOOLEAN"}[t]


_DUCKDB_COLUMNS = "{" + ", ".join(f"'{f.name}': '{_duckdb_type(f.type)}'" for f in STROKE_COLUMNS) + "}"
""":data:`STROKE_COLUMNS` as ``read_ndjson``'s ``columns``."""


class Timer:
    """CPU seconds spent in each step of one round."""

    def __init__(self) -> None:
        self.spent = dict.fromkeys(STEPS, 0.0)

    def __call__(self, step: str, work: Callable[[], Any]) -> Any:
        start = time.process_time()
        done = work()
        self.spent[step] += time.process_time() - start
        return done


def stepwise(datas: list[bytes], timer: Timer) -> dict[str, int]:
    """Every log through the worker's steps in turn, each timed (``clean.clean_part`` and
    ``reading._take`` taken apart step by step); the rows made, by store table. The rows become Arrow tables a batch of logs at a time, as a worker's do
    (:data:`cuelog.ingest.parallel.BATCH_BYTES`). Every log is one the fast check calls
    clean (:func:`measure` checked): the figures are those of clean logs."""
    made = dict.fromkeys(ROW_SCHEMAS, 0)
    batch = reading.FileRead()
    held = 0
    for data in datas:
        numbered = timer("lines", lambda data=data: reader.lines_of(data))
        records = timer("decode", lambda data=data: reader.typed_decoder.decode_lines(data))
        assert numbered is not None  # measure() read every log through the fast check first
        state = FileState("")
        stamps: list[str | None] = []

        def check(
            state: FileState = state,
            numbered: list[tuple[int, str]] = numbered,
            records: list[Any] = records,
            stamps: list[str | None] = stamps,
        ) -> bool:
            for (number, _), record in zip(numbered, records, strict=True):
                if type(record) is TypedStroke:
                    clean.stroke_clean(state, record)
                    stamps.append(record.t)
                elif check_record(state, number, record):
                    return False
            return not close_frame(state)

        clean_log = timer("check", check)
        times = timer("times", lambda stamps=stamps: times_us(stamps, by_arrow=True))
        assert clean_log and times is not None
        log = clean.CleanLog([n for n, _ in numbered], [t for _, t in numbered], records, times, len(data))
        timer("tuples", lambda log=log: reading._take(batch, log, reading._Place()))
        held += len(data)
        if held >= BATCH_BYTES:
            _to_arrow(batch, timer, made)
            held = 0
    _to_arrow(batch, timer, made)
    return made


def _to_arrow(batch: reading.FileRead, timer: Timer, made: dict[str, int]) -> None:
    """A batch's rows as the Arrow table of each store table, timed table by table."""
    rows = batch.batch
    for table, tuples in (("records", rows.records), ("strokes", rows.strokes), ("shot_clock", rows.clocks)):
        built = timer(f"arrow_{table}", lambda table=table, tuples=tuples: rows_table(ROW_SCHEMAS[table], tuples))
        made[table] += built.num_rows
    rows.clear()


def as_read_small(paths: list[Path], datas: list[bytes]) -> dict[str, int]:
    """The rows ``read_small`` makes of the same logs, by store table."""
    made = dict.fromkeys(ROW_SCHEMAS, 0)
    for path, data in zip(paths, datas, strict=True):
        for table, count in reading.read_small(path, data, None).batch.counts().items():
            made[table] += count
    return made


def floors(paths: list[Path], datas: list[bytes]) -> tuple[dict[str, float], dict[str, int]]:
    """CPU seconds of the two readers over every log, and the records each read."""
    spent, read = {}, {}
    joined = b"".join(d if d.endswith(b"\n") else d + b"\n" for d in datas)
    start = time.process_time()
    table = pajson.read_json(
        io.BytesIO(joined),
        read_options=pajson.ReadOptions(use_threads=False, block_size=len(joined) + 1),
        parse_options=pajson.ParseOptions(explicit_schema=STROKE_COLUMNS, unexpected_field_behavior="ignore"),
    )
    spent["arrow_json"], read["arrow_json"] = time.process_time() - start, table.num_rows
    con = duckdb.connect()
    con.execute("SET threads = 1")
    start = time.process_time()
    rows = con.sql(
        f"SELECT * FROM read_ndjson($files, columns = {_DUCKDB_COLUMNS})", params={"files": [str(p) for p in paths]}
    ).to_arrow_table()
    spent["duckdb_read_ndjson"], read["duckdb_read_ndjson"] = time.process_time() - start, rows.num_rows
    con.close()
    return spent, read


def measure(paths: list[Path], rounds: int) -> dict[str, Any]:
    datas = [p.read_bytes() for p in paths]
    for path, data in zip(paths, datas, strict=True):
        if clean.clean_log(data, by_arrow=True) is None:
            raise SystemExit(f"{path}: the fast check does not call it clean; give clean small logs")
    expected = as_read_small(paths, datas)
    records = expected["records"]
    steps: dict[str, list[float]] = {step: [] for step in STEPS}
    floor_s: dict[str, list[float]] = {name: [] for name in FLOORS}
    read: dict[str, int] = {}
    gc.disable()  # as a worker checks its batch (cuelog.ingest.collector)
    try:
        for _ in range(rounds):
            timer = Timer()
            made = stepwise(datas, timer)
            if made != expected:
                raise SystemExit(f"the steps made {made} rows, read_small {expected}")
            for step, seconds in timer.spent.items():
                steps[step].append(seconds)
            spent, read = floors(paths, datas)
            for name, seconds in spent.items():
                floor_s[name].append(seconds)
    finally:
        gc.enable()
    totals = [sum(steps[s][i] for s in STEPS) for i in range(rounds)]
    return {
        "files": len(paths),
        "records": records,
        "rows": expected,
        "rounds": rounds,
        "steps": {step: _figure(values, records) for step, values in steps.items()},
        "total": _figure(totals, records),
        "floors": {name: _figure(values, records) for name, values in floor_s.items()},
        "floors_read": read,
        "same_records": all(n == records for n in read.values()),
    }


def _figure(seconds: list[float], records: int) -> dict[str, Any]:
    median = statistics.median(seconds)
    return {
        "seconds": round(median, 4),
        "spread": [round(min(seconds), 4), round(max(seconds), 4)],
        "ns_per_record": round(median / records * 1e9) if records else None,
    }


def season(dest: Path, snooker: int, billiards: int) -> list[Path]:
    from compare import make_logs  # the benchmarks' simulated season, one match a file

    make_logs(dest, snooker, billiards, 1)
    return sorted((dest / "logs").glob("*.jsonl"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", type=Path, help="a folder of small clean logs (default: a simulated season)")
    ap.add_argument("--files", type=int, help="the first N logs of the folder, by name")
    ap.add_argument("--snooker", type=int, default=60, help="snooker matches to simulate (without --logs)")
    ap.add_argument("--billiards", type=int, default=30, help="billiards matches to simulate (without --logs)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuelog-ingest-check-") as tmp:
        if args.logs is None:
            paths = season(Path(tmp), args.snooker, args.billiards)
        else:
            paths = sorted(p for p in args.logs.iterdir() if p.suffix == ".jsonl")
        doc = measure(paths[: args.files] if args.files else paths, args.rounds)
    if args.json:
        print(json.dumps(doc, indent=2))
        return
    print(f"{doc['records']:,} records in {doc['files']} logs, {doc['rounds']} rounds (CPU time, medians):")
    total = doc["total"]["seconds"]
    for step, f in doc["steps"].items():
        share = f["seconds"] / total if total else 0.0
        print(f"  {step:<22}{f['ns_per_record']:>7} ns a record  {share:6.1%}  ({f['spread'][0]}-{f['spread'][1]} s)")
    print(f"  {'the steps together':<22}{doc['total']['ns_per_record']:>7} ns a record")
    print("floors (reading the JSON alone, the strokes' columns given, no check):")
    for name, f in doc["floors"].items():
        print(f"  {name:<22}{f['ns_per_record']:>7} ns a record  ({f['spread'][0]}-{f['spread'][1]} s)")
    print("both readers read every record" if doc["same_records"] else f"READ DIFFERS: {doc['floors_read']}")


if __name__ == "__main__":
    main()
