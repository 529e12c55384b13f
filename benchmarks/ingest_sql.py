"""Experiment: DuckDB reading a group of clean one-match logs itself, strokes checked in SQL.

Not wired into ``cuelog ingest``: this script measures whether the step is worth taking.
For one group of small files (the many-files-per-transaction path of
``cuelog.ingest.load.ingest_paths``) it compares, back to back on the same files, each
in a fresh database:

- **python**: today's path for the group (``read_small`` per file: the typed decode, the
  fast check, the rows; then ``loads.publish_files``);
- **sql**: one statement reads every file of the group (``read_text``; the lines split in
  SQL with their numbers, blank lines included), the strokes (nine lines in ten) are
  parsed with ``json_transform`` and checked set-based (the open frame, ``n`` from 1
  without gap, the side, the bounds of ``cuelog.schemas.bounds``, the balls of the
  match's ruleset, the pockets, the JSON types of the loaded columns), the other records
  are decoded and checked in Python as today, and the ``records`` and ``strokes`` rows are
  inserted straight from staging.

It then checks that both databases hold the same ``records`` and ``strokes`` rows, and
prints the medians (with their spread) of wall and CPU time. The SQL checks here cover
the loaded columns and the stroke rules above, not every rule of the fast check (times
of non-loaded fields, ``then``/``off_table``/``respots``/``infringements`` balls, calls'
visits, cushions): the figures are a lower bound of the cost of a complete SQL check.

A third run, labelled as a floor, reads, parses and publishes the same rows with no check
at all: no SQL path can be cheaper than that.

    python benchmarks/ingest_sql.py LOGDIR [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402
import pyarrow as pa  # noqa: E402

from cuelog.ingest import reading  # noqa: E402
from cuelog.ingest.collector import collector_paused  # noqa: E402
from cuelog.ingest.validate import FileState, check_record, close_frame  # noqa: E402
from cuelog.schemas.bounds import INT_BOUNDS, MAX_POINTS  # noqa: E402
from cuelog.schemas.records import Match, decode  # noqa: E402
from cuelog.store import connect, loads  # noqa: E402

LINES = """
CREATE OR REPLACE TEMP TABLE x_lines AS
WITH f AS (SELECT filename, string_split(content, chr(10)) AS ls FROM read_text($files)),
l AS (SELECT filename, unnest(ls) AS raw, generate_subscripts(ls, 1) AS line FROM f)
-- a line that is not one JSON object from its first byte to its last (white space, a BOM,
-- CR) sends its file to the Python reader, which says what it is
SELECT filename, line::INTEGER AS line, raw AS body, NOT (starts_with(raw, '{') AND ends_with(raw, '}')) AS odd,
       json_transform(CASE WHEN json_valid(raw) THEN raw END,
                      '{"type":"VARCHAR","frame":"INTEGER","n":"INTEGER","after":"INTEGER"}') AS k
FROM l WHERE raw <> ''
"""

STROKE_TYPE = (
    '{"frame":"BIGINT","n":"BIGINT","striker":"VARCHAR","t":"VARCHAR","first":["VARCHAR"],'
    '"potted":["VARCHAR"],"nominated":"VARCHAR","pockets":["VARCHAR"],"pocket_called":"VARCHAR",'
    '"call":{"foul":"BOOLEAN","points":"BIGINT","miss":"BOOLEAN","free_ball":"BOOLEAN"},'
    '"score":["BIGINT"],"break":"BIGINT"}'
)
# JSON types the loaded fields must have (NULL: absent); json_transform alone would cast "3" to 3.
TYPE_PATHS = ["$.frame", "$.n", "$.striker", "$.first", "$.potted", "$.score", "$.break", "$.call"]

STROKES = f"""
CREATE OR REPLACE TEMP TABLE x_strokes AS
SELECT filename, line, body, json_transform(body, '{STROKE_TYPE}') AS s,
       json_type(body, {TYPE_PATHS!r}) AS types
FROM x_lines WHERE NOT odd AND k.type = 'stroke'
"""


def _bad_files_sql() -> str:
    n_hi = INT_BOUNDS["stroke"]["n"][1]
    return f"""
    WITH ctx AS (
      SELECT x.*, c.rules, c.balls, c.frame AS open_frame, c.line AS frame_line
      FROM x_strokes x ASOF JOIN x_ctx c ON x.filename = c.filename AND x.line >= c.line
    ), seq AS (
      SELECT *, lag(s.n) OVER (PARTITION BY filename, frame_line ORDER BY line) AS prev_n FROM ctx
    )
    SELECT DISTINCT filename FROM seq WHERE NOT (
      coalesce(types[1] IN ('UBIGINT', 'BIGINT') AND types[2] IN ('UBIGINT', 'BIGINT')
        AND types[3] = 'VARCHAR' AND types[4] = 'ARRAY' AND types[5] = 'ARRAY'
        AND coalesce(types[6], 'ARRAY') IN ('ARRAY', 'NULL')
        AND coalesce(types[7], 'UBIGINT') IN ('UBIGINT', 'NULL')
        AND coalesce(types[8], 'OBJECT') IN ('OBJECT', 'NULL'), false)
      AND s.frame = open_frame AND s.n = coalesce(prev_n, 0) + 1 AND s.n <= {n_hi}
      AND s.striker IN ('A', 'B')
      AND (s.t IS NULL OR regexp_full_match(s.t, '\\d{{4}}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)'))
      AND (s.score IS NULL OR (len(s.score) = 2 AND list_min(s.score) >= 0 AND list_max(s.score) <= {MAX_POINTS}))
      AND (s.break IS NULL OR s.break BETWEEN 0 AND {MAX_POINTS})
      AND (s.call.points IS NULL OR s.call.points BETWEEN 0 AND {MAX_POINTS})
      AND list_has_all(balls, list_concat(s.first, s.potted))
      AND (s.nominated IS NULL OR list_contains(balls, s.nominated))
      AND (s.pockets IS NULL OR (len(s.pockets) = len(s.potted)
           AND list_has_all(['TL','TR','ML','MR','BL','BR'], s.pockets)))
    )
    """


OTHERS = """
WITH a AS (
  SELECT filename, line, body, odd, k.type AS type, CASE WHEN k.type = 'stroke' AND NOT odd THEN k.n END AS sn,
         -- the frame (or match) a line belongs to: the last one opened before it
         max(CASE WHEN k.type IN ('frame', 'match') THEN line END)
           OVER (PARTITION BY filename ORDER BY line ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS opened
  FROM x_lines
), b AS (
  SELECT *, max(sn) OVER (PARTITION BY filename, opened ORDER BY line) AS last_n,
         line = max(line) OVER (PARTITION BY filename) AS last_line
  FROM a
)
SELECT filename, line, CASE WHEN odd THEN '' ELSE body END, coalesce(last_n, 0), last_line, sn IS NOT NULL
FROM b WHERE sn IS NULL OR last_line ORDER BY filename, line
"""


def _python_side(con: duckdb.DuckDBPyConnection) -> tuple[set[str], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The records other than strokes: decoded and checked as today. The strokes were
    checked in SQL (1, 2, ... in each frame), so the state is given the frame's last
    stroke number and its strokes as a range."""
    bad: set[str] = set()
    ctx: list[tuple[Any, ...]] = []
    matches: list[tuple[Any, ...]] = []
    state = FileState("")
    for filename, line, body, last_n, last_line, is_stroke in con.execute(OTHERS).fetchall():
        if state.file != filename:
            state = FileState(filename)
        if filename in bad:
            continue
        state.last_n, state.strokes = last_n, range(1, last_n + 1)  # type: ignore[assignment]
        if not is_stroke:
            try:
                record = decode(body)
            except Exception:
                bad.add(filename)
                continue
            if check_record(state, line, record):
                bad.add(filename)
            elif isinstance(record, Match):
                matches.append((filename, line, record, body))
            elif type(record).__name__ == "Frame":
                rs = state.ruleset
                ctx.append((filename, line, rs.id if rs else None, sorted(rs.balls) if rs else None, record.frame))
        if last_line and close_frame(state):
            bad.add(filename)
    return bad, ctx, matches


PUBLISH_RECORDS = """
INSERT INTO records
SELECT m.match_id, (row_number() OVER (PARTITION BY l.filename, m.match_id ORDER BY l.line) - 1)::INTEGER,
       l.line, l.k.type, l.k.frame, coalesce(l.k.n, l.k.after), l.body
FROM x_lines l ASOF JOIN x_mid m ON l.filename = m.filename AND l.line >= m.line
WHERE l.filename NOT IN (SELECT filename FROM x_bad) ORDER BY l.filename, l.line
"""
PUBLISH_STROKES = """
INSERT INTO strokes
SELECT m.match_id, x.s.frame, x.s.n, x.s.striker, x.s.t::TIMESTAMPTZ, x.s.first, x.s.potted, x.s.nominated,
       coalesce(x.s.call.foul, false), x.s.call.points, coalesce(x.s.call.miss, false),
       coalesce(x.s.call.free_ball, false), x.s.score[1], x.s.score[2], x.s.break
FROM x_strokes x ASOF JOIN x_mid m ON x.filename = m.filename AND x.line >= m.line
WHERE x.filename NOT IN (SELECT filename FROM x_bad) ORDER BY x.filename, x.line
"""


def sql_group(con: duckdb.DuckDBPyConnection, files: list[str]) -> set[str]:
    """Check and publish a group of files; the files that would go to the Python path."""
    con.execute(LINES, {"files": files})
    con.execute(STROKES)
    bad, ctx, matches = _python_side(con)
    columns = ["filename", "line", "rules", "balls", "frame"]
    _table(con, "x_ctx", columns, ctx, [pa.string(), pa.int32(), pa.string(), pa.list_(pa.string()), pa.int64()])
    bad |= {f for (f,) in con.execute(_bad_files_sql()).fetchall()}
    _table(con, "x_bad", ["filename"], [(f,) for f in sorted(bad)], [pa.string()])
    mids = [(f, ln, m.match) for f, ln, m, _ in matches]
    _table(con, "x_mid", ["filename", "line", "match_id"], mids, [pa.string(), pa.int32(), pa.string()])
    con.begin()
    con.execute(PUBLISH_RECORDS)
    con.execute(PUBLISH_STROKES)
    con.commit()
    return bad


def _table(con: duckdb.DuckDBPyConnection, name: str, cols: list[str], rows: list[Any], types: list[Any]) -> None:
    arrays = [pa.array([r[i] for r in rows], type=t) for i, t in enumerate(types)]
    con.register("x_arrow", pa.Table.from_arrays(arrays, names=cols))
    con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM x_arrow")
    con.unregister("x_arrow")


FLOOR_STAGE = f"""
CREATE OR REPLACE TEMP TABLE y AS
WITH f AS (SELECT filename, string_split(content, chr(10)) AS ls FROM read_text($files)),
l AS (SELECT filename, unnest(ls) AS raw, generate_subscripts(ls, 1)::INTEGER AS line FROM f),
k AS (SELECT *, json_transform(raw, '{{"type":"VARCHAR","match":"VARCHAR","frame":"INTEGER","n":"INTEGER",
                                      "after":"INTEGER"}}') AS k FROM l WHERE raw <> '')
SELECT filename, line, raw AS body, k,
  last_value(CASE WHEN k.type = 'match' THEN k.match END IGNORE NULLS)
    OVER (PARTITION BY filename ORDER BY line) AS match_id,
  CASE WHEN k.type = 'stroke' THEN json_transform(raw, '{STROKE_TYPE}') END AS s
FROM k
"""
FLOOR_RECORDS = """
INSERT INTO records SELECT match_id, (row_number() OVER (PARTITION BY filename, match_id ORDER BY line) - 1)::INTEGER,
  line, k.type, k.frame, coalesce(k.n, k.after), body FROM y ORDER BY filename, line
"""
FLOOR_STROKES = """
INSERT INTO strokes SELECT match_id, s.frame, s.n, s.striker, s.t::TIMESTAMPTZ, s.first, s.potted, s.nominated,
  coalesce(s.call.foul, false), s.call.points, coalesce(s.call.miss, false), coalesce(s.call.free_ball, false),
  s.score[1], s.score[2], s.break
FROM y WHERE s IS NOT NULL ORDER BY filename, line
"""


def run_floor(db: Path, files: list[str]) -> None:
    """The floor of any SQL path, labelled as such: the lines read, parsed and published in
    three statements, with no check at all (not a way to load: a bad file would load)."""
    con = connect(db)
    con.execute(FLOOR_STAGE, {"files": files})
    con.begin()
    con.execute(FLOOR_RECORDS)
    con.execute(FLOOR_STROKES)
    con.commit()
    con.close()


def run_python(db: Path, files: list[str]) -> None:
    con = connect(db)
    rows = []
    with collector_paused():  # as ingest_paths runs it
        for f in files:
            read = reading.read_small(f, Path(f).read_bytes(), None)
            rows.append(loads.FileRows(f, f, read.matches, read.records, read.batch.arrow()))
        loads.publish_files(con, rows)
    con.close()


def run_sql(db: Path, files: list[str]) -> set[str]:
    con = connect(db)
    bad = sql_group(con, files)
    con.close()
    return bad


TABLES = {
    "records": "SELECT * FROM records ORDER BY match_id, seq",
    "strokes": "SELECT * FROM strokes ORDER BY match_id, frame, n",
}


def same_tables(a: Path, b: Path) -> bool:
    ca, cb = duckdb.connect(str(a), read_only=True), duckdb.connect(str(b), read_only=True)
    ok = all(ca.sql(q).to_arrow_table().equals(cb.sql(q).to_arrow_table()) for q in TABLES.values())
    ca.close()
    cb.close()
    return ok


def _timed(fn: Any, *args: Any) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    files = sorted(str(p) for p in args.logs.glob("*.jsonl"))
    records = sum(1 for f in files for line in Path(f).read_text(encoding="utf-8").splitlines() if line.strip())
    times: dict[str, list[tuple[float, float]]] = {"python": [], "sql": [], "floor: sql, no checks": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            py, sq, fl = (Path(tmp) / f"{name}{r}.duckdb" for name in ("py", "sql", "floor"))
            for db in (py, sq, fl):
                connect(db).close()
            times["python"].append(_timed(run_python, py, files))
            times["sql"].append(_timed(run_sql, sq, files))
            times["floor: sql, no checks"].append(_timed(run_floor, fl, files))
            if r == 0:
                equal = f"sql {same_tables(py, sq)}, floor {same_tables(py, fl)}"
                print(f"{len(files)} files, {records} records; tables equal to the python path's: {equal}")
    for name, runs in times.items():
        wall = [records / w for w, _ in runs]
        cpu = [records / c for _, c in runs]
        print(
            f"{name:22s} wall {statistics.median(wall):9,.0f} rows/s (spread {min(wall):,.0f}-{max(wall):,.0f})"
            f"   CPU {statistics.median(cpu):9,.0f} rows/CPU s (spread {min(cpu):,.0f}-{max(cpu):,.0f})"
        )


if __name__ == "__main__":
    main()
