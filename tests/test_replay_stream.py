"""``replay --db`` streams: each chunk of matches is written and handed on as it arrives, in
match id order, inside one transaction that a failure anywhere rolls back; ``replay LOGS``
and the JSON document written match by match give the same bytes as the whole document."""

from __future__ import annotations

import gc
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cuelog import __version__
from cuelog import replay as engines
from cuelog.cli import app
from cuelog.errors import InputError
from cuelog.ingest.reader import read_records
from cuelog.pipeline import ReplayFailed, _decode, _replay_chunk, part_matches, replay_db, replay_loaded, stream_db
from cuelog.replay.model import MatchResult
from cuelog.replay.output import JSON_TEXT, Rendered, document, document_text, dumps, rendered
from cuelog.store import connect, results, summaries
from cuelog.store.arrow import counted_runs, ipc_bytes, rows_table
from cuelog.store.reads import (
    _ROWS,
    DecodedMatch,
    LoadedMatch,
    StoredChunk,
    UnknownMatch,
    _decoded_bodies,
    listed_matches,
    stored_chunks,
)
from cuelog.store.results import REPLAY_TABLES
from tests.analytics import kit

runner = CliRunner()


def season(db: Path, matches: int, *extra: kit.Log) -> Path:
    """``matches`` snooker matches (more than one chunk of eight), then ``extra``."""
    logs = [kit.maximum(f"m{i:02d}-maximum") if i % 2 else kit.two_fifties(f"m{i:02d}-fifties") for i in range(matches)]
    return kit.load(db, *logs, *extra)


def table_rows(db: Path, table: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
    finally:
        con.close()


def test_each_chunk_comes_in_id_order_without_its_outcomes_and_is_stored(tmp_path: Path) -> None:
    db = season(tmp_path / "s.duckdb", 19)
    chunks: list[list[MatchResult]] = []
    con = connect(db)
    try:
        done = stream_db(con, workers=1, each=chunks.append)
    finally:
        con.close()
    ids = [m.match for chunk in chunks for m in chunk]
    assert len(chunks) == 3 and [len(c) for c in chunks] == [8, 8, 3]
    assert ids == sorted(ids) and len(ids) == 19
    # The per-stroke outcomes are in replay_strokes, not in what is handed on.
    assert all(fr.outcomes == [] for chunk in chunks for m in chunk for fr in m.frames)
    assert done.matches == 19 and done.strokes == len(table_rows(db, "replay_strokes")) > 0
    assert {r[0] for r in table_rows(db, "replay_frames")} == set(ids)


@pytest.mark.parametrize("workers", [1, 2])
def test_with_a_renderer_each_match_comes_as_its_output_made_where_it_was_replayed(
    tmp_path: Path, workers: int
) -> None:
    """``cuelog replay --db`` has each match's text made in the worker that replayed it: the
    same text and counts as made from the result, and the same rows stored."""
    condoned = kit.Log("z-condoned", "Ann", "Bob").frame(breaker="A")
    condoned.stroke("A", ["pink"], []).safety("B")  # pink first with reds on, no foul called (S3 R11(b)(iv))
    db = season(tmp_path / "s.duckdb", 17, condoned)
    made_here: list[MatchResult | Rendered] = []
    made_there: list[MatchResult | Rendered] = []
    tables = ("replay_frames", "replay_strokes", "replay_findings")
    con = connect(db)
    try:
        stream_db(con, workers=1, each=made_here.extend)
        rows = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in tables}
        stream_db(con, workers=workers, each=made_there.extend, render=JSON_TEXT)
        again = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in tables}
    finally:
        con.close()
    assert all(isinstance(m, MatchResult) for m in made_here)
    assert all(isinstance(m, Rendered) for m in made_there)
    assert made_there == [rendered(m, JSON_TEXT) for m in made_here if isinstance(m, MatchResult)]
    assert [m.findings for m in made_there if isinstance(m, Rendered)][-1] == 1  # the condoned foul, counted
    assert again == rows


def test_streamed_rows_equal_the_rows_of_the_whole_replay(tmp_path: Path) -> None:
    streamed, whole = season(tmp_path / "a.duckdb", 11), season(tmp_path / "b.duckdb", 11)
    con = connect(streamed)
    try:
        stream_db(con, workers=1)
    finally:
        con.close()
    con = connect(whole)
    try:
        results = replay_db(con, workers=1)
    finally:
        con.close()
    # replay_db still returns every result with its outcomes.
    assert sum(len(fr.outcomes) for m in results for fr in m.frames) == len(table_rows(whole, "replay_strokes"))
    for table in ("replay_frames", "replay_strokes", "replay_breaks", "replay_findings"):
        assert table_rows(streamed, table) == table_rows(whole, table), table


def test_parts_of_any_size_store_the_same_rows_in_the_same_order(tmp_path: Path) -> None:
    """A replay hands its workers parts of more matches when each worker still gets eight
    of them (``part_matches``): one worker takes this season in parts of 17 matches, two in
    parts of 8, and both store the same rows, row for row in the order stored."""
    assert (part_matches(140, 1), part_matches(140, 2)) == (17, 8)
    one, two = season(tmp_path / "one.duckdb", 140), tmp_path / "two.duckdb"
    two.write_bytes(one.read_bytes())
    handed: dict[int, list[int]] = {1: [], 2: []}
    for db, workers in ((one, 1), (two, 2)):
        con = connect(db)
        try:
            done = stream_db(con, workers=workers, each=lambda chunk, w=workers: handed[w].append(len(chunk)))
        finally:
            con.close()
        assert done.matches == 140
    assert handed[1] == [17] * 8 + [4] and handed[2] == [8] * 17 + [4]
    for table in (*REPLAY_TABLES, "summary_sides_rows", "summary_shots", "summary_shot_counts"):
        assert _stored_order(one, table) == _stored_order(two, table), table


def _stored_order(db: Path, table: str) -> list[tuple[object, ...]]:
    """The rows of a replay table (every generation's) or a summary table, as stored."""
    name = results.ROWS.get(table, table)
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f"SELECT * FROM {name} ORDER BY rowid").fetchall()
    finally:
        con.close()


def test_a_failure_after_chunks_were_written_rolls_the_whole_replay_back(tmp_path: Path, monkeypatch) -> None:
    # The last match by id has no engine: the chunks before it were appended, then undone.
    pool = kit.Log("z-pool", "Ann", "Bob", rules="straight-pool/wpa")
    db = season(tmp_path / "s.duckdb", 17, pool)
    con = connect(db)
    try:
        stream_db(con, workers=1)
    finally:
        con.close()
    before = {t: table_rows(db, t) for t in ("replay_frames", "replay_strokes")}
    assert before["replay_frames"]
    monkeypatch.delitem(engines.ENGINES, "straight-pool")
    handed: list[str] = []
    con = connect(db)
    try:
        with pytest.raises(ReplayFailed, match="z-pool"):
            stream_db(con, workers=1, each=lambda chunk: handed.extend(m.match for m in chunk))
    finally:
        con.close()
    assert len(handed) == 16  # two chunks of eight handed on, the third held back by its failure
    assert {t: table_rows(db, t) for t in before} == before


def test_a_chunk_with_a_match_that_fails_hands_on_each_attempt_in_order_and_no_rows(
    tmp_path: Path, monkeypatch
) -> None:
    """A worker builds each match's rows as soon as it is replayed; a match of the chunk
    that cannot be replayed leaves the chunk without rows (nothing of it is written), and
    every match still comes back in order, the strokes counted before the outcomes go."""
    pool = kit.Log("m00a-pool", "Ann", "Bob", rules="straight-pool/wpa")
    db = season(tmp_path / "s.duckdb", 2, pool)
    con = connect(db)
    try:
        (part,) = stored_chunks(con, listed_matches(con, None))
        whole, tables, counted = _replay_chunk(part, tabulate=True, slim=True)
        monkeypatch.delitem(engines.ENGINES, "straight-pool")
        failed, no_tables, strokes = _replay_chunk(part, tabulate=True, slim=True)
    finally:
        con.close()
    assert [type(o) for o in failed] == [MatchResult, ReplayFailed, MatchResult]
    assert [o.match for o in failed if isinstance(o, MatchResult)] == ["m00-fifties", "m01-maximum"]
    assert tables is not None and no_tables is None
    pool_strokes = sum(1 for r in pool.records if r["type"] == "stroke")
    assert strokes == counted - pool_strokes == len(tables["replay_strokes"]) - pool_strokes > 0
    assert [type(o) for o in whole] == [MatchResult] * 3


def test_the_rows_of_matches_added_in_any_order_are_in_match_id_order(tmp_path: Path) -> None:
    """The replay rows, and the side rows the report summaries hold, are the same whatever
    order a worker adds its matches in: the tables hold them in match id order."""
    db = season(tmp_path / "s.duckdb", 5)
    con = connect(db)
    try:
        (part,) = stored_chunks(con, listed_matches(con, None))
        replayed, _, _ = _replay_chunk(part)
    finally:
        con.close()
    matches = [o for o in replayed if isinstance(o, MatchResult)]
    assert len(matches) == 5 and [m.match for m in matches] == sorted(m.match for m in matches)
    in_order = results.result_tables(matches, sides=True)
    shuffled = results.result_tables([matches[3], matches[0], matches[4], matches[2], matches[1]], sides=True)
    assert list(shuffled) == [*REPLAY_TABLES, results.SIDES]
    assert all(shuffled[name].equals(in_order[name]) for name in in_order)
    # The side rows are each match's (summaries.match_sides), in match id order.
    sides = [row for m in sorted(matches, key=lambda m: m.match) for row in summaries.match_sides(m)]
    assert in_order[results.SIDES].equals(rows_table(summaries.SIDES_SCHEMA, sides))
    ids = in_order["replay_strokes"].column("match_id").to_pylist()
    assert ids == sorted(ids) and len(set(ids)) == 5


def test_the_document_written_match_by_match_is_the_whole_document(tmp_path: Path) -> None:
    """Ids with quotes and non-ASCII letters, no match at all, one, several."""
    db = kit.load(tmp_path / "s.duckdb", kit.Log('m1 "é" ☃', "Zoë", "Bob").frame(breaker="A").safety("A"))
    con = connect(db)
    try:
        results = replay_db(con, workers=1)
    finally:
        con.close()
    for chosen in ([], results, results * 3):
        assert "".join(document_text(chosen, "1.0 ü")) == dumps(document(chosen, "1.0 ü"))


def test_replay_of_logs_with_a_correction_of_a_missing_match_reports_it(tmp_path: Path) -> None:
    log = kit.maximum().write(tmp_path / "m1.jsonl")
    fixes = tmp_path / "fixes.corrections.jsonl"
    fixes.write_text(
        json.dumps({"match": "nope", "frame": 1, "n": 1, "set": {"first": ["red"]}}) + "\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["replay", str(log), "--corrections", str(fixes), "--json"])
    assert result.exit_code == 2
    (problem,) = json.loads(result.stdout)["problems"]
    assert (Path(problem["file"]).name, problem["line"], problem["code"]) == (fixes.name, 1, "no_such_stroke")


def test_records_are_read_a_group_of_matches_at_a_time_in_id_order(tmp_path: Path) -> None:
    """However small the groups, every match comes once, whole, in id order."""
    from cuelog.store.reads import loaded_matches

    db = season(tmp_path / "s.duckdb", 7)
    con = connect(db, read_only=True)
    try:
        ids = [r[0] for r in con.execute("SELECT match_id FROM matches ORDER BY match_id DESC").fetchall()]
        whole = list(loaded_matches(con, ids, group=10**9))
        small = list(loaded_matches(con, ids, group=10))
    finally:
        con.close()
    assert small == whole
    assert [m.match_id for m in small] == sorted(ids)
    assert all(m.lines and m.lines[0][0] == 1 for m in small)


def test_the_records_sent_to_the_workers_as_arrow_are_the_loaded_records(tmp_path: Path) -> None:
    """A worker gets the stored rows as Arrow IPC bytes: the same matches, records and files,
    in id order, whatever the group and chunk sizes; a match without records still comes."""
    from cuelog.store.reads import loaded_matches, stored_chunks

    db = season(tmp_path / "s.duckdb", 7)
    con = connect(db)
    try:
        con.execute("INSERT INTO matches SELECT 'zz-empty', * EXCLUDE (match_id) FROM matches LIMIT 1")
        ids = [r[0] for r in con.execute("SELECT match_id FROM matches ORDER BY match_id").fetchall()]
        whole = list(loaded_matches(con, ids))
        for group, chunk in ((10**9, 8), (10, 1), (500, 3)):
            parts = list(stored_chunks(con, listed_matches(con, ids), chunk=chunk, group=group))
            assert [m for part in parts for m in part.loaded()] == whole
            assert [part.records for part in parts] == [sum(len(m.lines) for m in part.loaded()) for part in parts]
    finally:
        con.close()
    assert whole[-1].match_id == "zz-empty" and whole[-1].lines == ()


def test_the_listed_matches_name_each_match_once_with_its_file_and_records(tmp_path: Path) -> None:
    """What a replay reads is listed first (``listed_matches``): every loaded match, or the
    ones named (each once, in id order), with the file it was loaded from and the records
    it holds; a match row without records counts none, and an unknown id is refused."""
    db = season(tmp_path / "s.duckdb", 3)
    con = connect(db)
    try:
        con.execute("INSERT INTO matches SELECT 'm00-empty', * EXCLUDE (match_id) FROM matches LIMIT 1")
        every = listed_matches(con, None).to_pylist()
        named = listed_matches(con, ["m01-maximum", "m00-empty", "m01-maximum"]).to_pylist()
        with pytest.raises(UnknownMatch):
            listed_matches(con, ["m99-none"])
        stored = dict(con.execute("SELECT match_id, count(*) FROM records GROUP BY ALL").fetchall())
    finally:
        con.close()
    assert [m["match_id"] for m in every] == ["m00-empty", "m00-fifties", "m01-maximum", "m02-fifties"]
    assert {m["match_id"]: m["records"] for m in every} == {**stored, "m00-empty": 0}
    assert all(Path(m["file"]).name == f"{m['match_id']}.jsonl" for m in every if m["records"])
    assert named == [every[0], *[m for m in every if m["match_id"] == "m01-maximum"]]


def test_matches_are_read_in_runs_of_about_the_records_asked_for_a_large_one_alone() -> None:
    counts = pa.table({"match_id": ["a", "b", "c", "d", "e"], "records": [3, 3, 3, 10, 1]})
    assert [part.column("match_id").to_pylist() for part in counted_runs(counts, "records", 6)] == [
        ["a", "b"],
        ["c"],
        ["d"],
        ["e"],
    ]
    assert [part.num_rows for part in counted_runs(counts, "records", 100)] == [5]
    assert list(counted_runs(counts.slice(0, 0), "records", 6)) == []


def test_matches_stored_out_of_id_order_or_replaced_reach_the_workers_in_id_and_file_order(tmp_path: Path) -> None:
    """The replay reads the records as stored, unsorted, when they are in order (as a season
    of one-match files loads them). Matches loaded in another order, and one replaced since
    (its records now stored after the others'), come in id and file order all the same."""
    from cuelog.store.reads import loaded_matches, stored_chunks

    db = tmp_path / "s.duckdb"
    for i in (5, 3, 9, 1):  # one run each: stored in this order
        kit.load(db, kit.maximum(f"m{i}-match") if i % 2 else kit.two_fifties(f"m{i}-match"))
    other = kit.two_fifties("m3-match").write(tmp_path / "m3-again.jsonl")
    result = runner.invoke(app, ["ingest", str(other), "--db", str(db), "--replace"])
    assert result.exit_code == 0, result.output
    con = connect(db)
    try:
        stored = [r[0] for r in con.execute("SELECT match_id FROM records").fetchall()]
        assert list(dict.fromkeys(stored)) == ["m5-match", "m9-match", "m1-match", "m3-match"]
        ids = sorted(set(stored))
        whole = list(loaded_matches(con, ids))  # read with ORDER BY
        for group, chunk in ((10**9, 8), (10**9, 1), (40, 2)):
            parts = list(stored_chunks(con, listed_matches(con, ids), chunk=chunk, group=group))
            assert [m for part in parts for m in part.loaded()] == whole
    finally:
        con.close()
    assert [m.match_id for m in whole] == ["m1-match", "m3-match", "m5-match", "m9-match"]


def _records(*rows: tuple[str, int]) -> pa.Table:
    return pa.table({"match_id": [m for m, _ in rows], "seq": pa.array([s for _, s in rows], pa.int32())})


@pytest.mark.parametrize(
    "rows",
    [
        [("a", 0), ("a", 1), ("b", 0), ("b", 1), ("b", 2), ("c", 0)],  # in order: as read
        [("b", 0), ("b", 1), ("a", 0), ("a", 1)],  # matches out of id order
        [("a", 0), ("b", 0), ("a", 1)],  # a match's records apart
        [("a", 0), ("a", 2), ("a", 1), ("b", 0)],  # a match's records out of file order
        [("a", 0), ("b", 1), ("b", 0)],  # out of order where a match begins and inside it
        [("a", 0), ("a", 0)],  # no step forward
        [("a", 2), ("a", 3), ("b", 0), ("a", 0), ("a", 1)],  # a match in two pieces, the later first
        [("b", 0), ("b", 1), ("c", 0), ("a", 0), ("a", 1), ("a", 2)],  # runs of matches out of id order
        [("a", 0), ("a", 2), ("b", 0), ("a", 1), ("a", 3)],  # a match's pieces interleaving
        [("a", 0), ("a", 1), ("b", 0), ("a", 1), ("a", 2)],  # a match's pieces overlapping
    ],
    ids=[
        "ordered",
        "matches-swapped",
        "match-apart",
        "records-swapped",
        "both",
        "repeated",
        "match-in-two-pieces",
        "runs-swapped",
        "pieces-interleaving",
        "pieces-overlapping",
    ],
)
def test_records_come_in_match_id_and_file_order_whatever_order_they_were_read_in(
    rows: list[tuple[str, int]],
) -> None:
    from cuelog.store.reads import in_file_order

    assert in_file_order(_records(*rows)).to_pylist() == _records(*sorted(rows)).to_pylist()


@settings(max_examples=200, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 40), min_size=1, max_size=30),
    cuts=st.lists(st.integers(1, 39), max_size=40),
    order=st.randoms(use_true_random=False),
)
def test_pieces_of_matches_in_any_order_come_in_match_id_and_file_order(
    sizes: list[int], cuts: list[int], order: Any
) -> None:
    """Matches of many records, cut into pieces at random places, the pieces shuffled: as
    the sorted rows, whether the pieces are put in order or (many of them) the rows sorted."""
    from cuelog.store.reads import in_file_order

    pieces = []
    for m, size in enumerate(sizes):
        rows = [(f"m{m:03d}", s) for s in range(size)]
        at = sorted({c for c in cuts if c < size})
        pieces += [rows[a:b] for a, b in itertools.pairwise([0, *at, size])]
    order.shuffle(pieces)
    rows = [r for piece in pieces for r in piece]
    assert in_file_order(_records(*rows)).to_pylist() == _records(*sorted(rows)).to_pylist()


def test_many_small_pieces_are_sorted_row_by_row() -> None:
    from cuelog.store.reads import in_file_order

    rows = [(f"m{i % 50:02d}", i // 50) for i in range(2000)]  # 2,000 pieces of one row
    assert in_file_order(_records(*rows)).to_pylist() == _records(*sorted(rows)).to_pylist()


def test_a_chunk_decoded_at_once_gives_each_match_the_records_its_lines_give(tmp_path: Path) -> None:
    """A worker decodes each match's bodies in one call (``StoredChunk.each_match``): each
    match gets the records that decoding its lines one by one gives, whatever the group and
    chunk sizes; a chunk holding a match without records is left to the line-by-line read."""
    db = season(tmp_path / "s.duckdb", 7)
    con = connect(db)
    try:
        con.execute("INSERT INTO matches SELECT 'zz-empty', * EXCLUDE (match_id) FROM matches LIMIT 1")
        ids = [r[0] for r in con.execute("SELECT match_id FROM matches ORDER BY match_id").fetchall()]
        for group, chunk in ((10**9, 8), (10, 1), (500, 3)):
            parts = list(stored_chunks(con, listed_matches(con, ids), chunk=chunk, group=group))
            *full, empty = parts
            assert list(empty.each_match()) == empty.loaded()
            assert [m for m, _, _ in empty.matches] == ["zz-empty"]
            decoded = [d for part in full for d in part.each_match()]
            loaded = [m for part in full for m in part.loaded()]
            assert all(isinstance(d, DecodedMatch) for d in decoded)
            assert [(d.match_id, d.file, d.match, d.body) for d in decoded] == [
                (m.match_id, m.file, *_decode(m)) for m in loaded
            ]
    finally:
        con.close()


def _chunk(bodies: list[str]) -> StoredChunk:
    """A stored chunk of one match whose records are ``bodies``, on lines 1, 2, ..."""
    table = pa.table(
        {"match_id": ["m"] * len(bodies), "line": list(range(1, len(bodies) + 1)), "body": bodies},
        schema=_ROWS,
    )
    return StoredChunk((("m", "m.jsonl", len(bodies)),), ipc_bytes(table))


_MATCH = (
    '{"type":"match","format":"cuelog/1","match":"m","rules":"snooker/wpbsa-2024","sides":{"A":"a","B":"b"},'
    '"best_of":1,"reds":15}'
)
_FRAME = '{"type":"frame","frame":1,"breaker":"A"}'


def test_a_stroke_naming_a_ball_outside_the_schema_is_read_line_by_line() -> None:
    """The typed decoder refuses a ball no ruleset has, so the match is read line by line
    and the stroke comes as text, for the engine to judge as before."""
    purple = '{"type":"stroke","frame":1,"n":1,"striker":"A","first":["purple"],"potted":[]}'
    part = _chunk([_MATCH, _FRAME, purple])
    (loaded,) = part.each_match()
    assert isinstance(loaded, LoadedMatch) and [loaded] == part.loaded()
    assert [body for _, body in loaded.lines] == [_MATCH, _FRAME, purple]


def test_only_the_match_the_decoder_refuses_is_read_line_by_line_and_the_replay_is_the_same() -> None:
    """Each match of a chunk is decoded on its own: a stroke naming a ball no ruleset has
    sends its match alone to the line-by-line read, and the chunk replays as its matches
    read line by line do."""
    red = '{"type":"stroke","frame":1,"n":1,"striker":"A","first":["red"],"potted":["red"],"score":[1,0]}'
    purple = '{"type":"stroke","frame":1,"n":1,"striker":"A","first":["purple"],"potted":[]}'
    bodies = {
        "m": [_MATCH, _FRAME, red],
        "n": [_MATCH.replace('"match":"m"', '"match":"n"'), _FRAME, purple],
        "o": [_MATCH.replace('"match":"m"', '"match":"o"'), _FRAME, red],
    }
    ids = [m for m, lines in bodies.items() for _ in lines]
    lines = [i for ls in bodies.values() for i in range(1, len(ls) + 1)]
    table = pa.table({"match_id": ids, "line": lines, "body": [b for ls in bodies.values() for b in ls]}, schema=_ROWS)
    part = StoredChunk(tuple((m, f"{m}.jsonl", len(ls)) for m, ls in bodies.items()), ipc_bytes(table))
    items = list(part.each_match())
    assert [type(i) for i in items] == [DecodedMatch, LoadedMatch, DecodedMatch]
    assert items[1] == part.loaded()[1]
    chunk, tables, strokes = _replay_chunk(part, tabulate=True)
    lined = [replay_loaded(m) for m in part.loaded()]
    assert [type(o) for o in chunk] == [type(o) for o in lined] and all(isinstance(o, MatchResult) for o in chunk)
    assert tables is not None and strokes == 3
    by_lines = results.result_tables(lined, sides=True)
    assert all(tables[name].equals(by_lines[name]) for name in by_lines)


def test_a_body_that_is_not_a_record_is_reported_on_its_line_as_the_log_reader_reports_it(tmp_path: Path) -> None:
    no_n = '{"type":"stroke","frame":1,"striker":"A","first":["red"],"potted":[]}'
    part = _chunk([_MATCH, _FRAME, no_n])
    assert list(part.each_match()) == part.loaded()
    (outcome,), tables, _ = _replay_chunk(part, tabulate=True)
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join([_MATCH, _FRAME, no_n]) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        list(read_records(path))
    assert isinstance(outcome, InputError) and tables is None
    assert [(p.line, p.code, p.field) for p in outcome.problems] == [
        (p.line, p.code, p.field) for p in err.value.problems
    ]
    assert [p.line for p in outcome.problems] == [3]


def test_a_chunk_cut_from_a_larger_table_decodes_its_own_bodies_only() -> None:
    """A chunk's rows are a slice of a group's table: its bodies start part way into the
    column's text, and only they are read."""
    frames = [f'{{"type":"frame","frame":{i}}}' for i in range(1, 6)]
    table = pa.table({"match_id": ["m"] * 6, "line": list(range(1, 7)), "body": [_MATCH, *frames]}).slice(2, 4)
    column = table.column("body")
    assert column.chunks[0].offset == 2
    assert [r.frame for r in _decoded_bodies(column) or []] == [2, 3, 4, 5]  # type: ignore[attr-defined]


def test_two_values_in_one_body_are_not_taken_for_two_records() -> None:
    """Read back to back, a body holding two values would give one record too many: the
    count differs, and the match is read line by line (where the line is one problem)."""
    (two,) = _chunk([_MATCH, _FRAME + '{"type":"frame","frame":2}', _FRAME]).each_match()
    (one,) = _chunk([_MATCH, _FRAME]).each_match()
    assert isinstance(two, LoadedMatch) and isinstance(one, DecodedMatch)


def _replay_tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    return {t: table_rows(db, t) for t in REPLAY_TABLES}


def test_an_interrupted_replay_leaves_the_previous_results_as_they_were(tmp_path: Path, monkeypatch) -> None:
    """Chunks were committed (one commit per chunk here), then the replay stopped: readers
    still see the previous replay, whole, and the interrupted one's rows are gone."""
    db = season(tmp_path / "s.duckdb", 19)
    con = connect(db)
    try:
        stream_db(con, workers=1)
    finally:
        con.close()
    before = _replay_tables(db)
    assert before["replay_strokes"]
    monkeypatch.setattr(results, "COMMIT_ROWS", 1)
    seen: list[int] = []

    def stop_at_the_second_chunk(chunk: list[MatchResult]) -> None:
        seen.append(len(chunk))
        if len(seen) == 2:
            # the first two chunks' rows are committed under the new generation by now
            look = con.cursor()
            assert look.execute("SELECT count(*) FROM replay_strokes_rows").fetchall()[0][0] > len(old)
            look.close()
            raise KeyboardInterrupt

    old = before["replay_strokes"]
    con = connect(db)
    try:
        with pytest.raises(KeyboardInterrupt):
            stream_db(con, workers=1, each=stop_at_the_second_chunk)
    finally:
        con.close()
    assert _replay_tables(db) == before
    assert len(table_rows(db, "replay_strokes_rows")) == len(before["replay_strokes"])


# A replay killed in the middle (no exception handler runs): the chunks committed so far stay
# in the file under a generation that was never made current.
_KILLED = """
import os, sys
from cuelog.pipeline import stream_db
from cuelog.store import connect, results
results.COMMIT_ROWS = 1
def die(chunk):
    if chunk[0].match >= "m08":
        os._exit(9)
stream_db(connect(sys.argv[1]), workers=1, each=die)
"""


def test_a_killed_replay_leaves_the_previous_results_and_a_rerun_gives_the_same_bytes(tmp_path: Path) -> None:
    db = season(tmp_path / "s.duckdb", 19)
    first = runner.invoke(app, ["replay", "--db", str(db), "--json", "--workers", "1"])
    assert first.exit_code in (0, 1), first.output
    before = _replay_tables(db)
    killed = subprocess.run([sys.executable, "-c", _KILLED, str(db)], capture_output=True, text=True, check=False)
    assert killed.returncode == 9, killed.stderr
    # The killed replay's committed rows are in the file, and no reader sees them.
    assert len(table_rows(db, "replay_strokes_rows")) > len(before["replay_strokes"])
    assert _replay_tables(db) == before
    again = runner.invoke(app, ["replay", "--db", str(db), "--json", "--workers", "1"])
    assert (again.exit_code, again.stdout) == (first.exit_code, first.stdout)
    assert _replay_tables(db) == before
    # The rerun removed the killed replay's rows and the ones it replaced.
    assert len(table_rows(db, "replay_strokes_rows")) == len(before["replay_strokes"])


def test_the_replay_writes_under_the_memory_cap_and_sets_the_limit_back(tmp_path: Path, monkeypatch) -> None:
    """The chunks are written under DuckDB's small replay limit (memory flat with the store:
    DuckDB would otherwise cache every block it reads), the generation made current under the
    shot times' own (a range of their matches joined and sorted at a time); the database's
    own limit is set back afterwards."""
    db = season(tmp_path / "s.duckdb", 11)
    con = connect(db)
    seen: dict[str, list[str]] = {"flush": [], "current": []}

    def limit() -> str:
        return str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])

    before = limit()
    insert_sides, add_matches = results.summaries.insert_sides, results.summaries.add_matches

    def flushing(*args: object) -> None:
        seen["flush"].append(limit())
        insert_sides(*args)  # type: ignore[arg-type]

    def made_current(*args: object) -> None:
        seen["current"].append(limit())
        add_matches(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(results.summaries, "insert_sides", flushing)
    monkeypatch.setattr(results.summaries, "add_matches", made_current)
    try:
        stream_db(con, workers=1)
        after = limit()
    finally:
        con.close()

    def read_back(setting: str) -> str:
        capped = duckdb.connect()
        try:
            capped.execute(f"SET memory_limit = '{setting}'")
            return str(capped.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
        finally:
            capped.close()

    cap = read_back(results.REPLAY_MEMORY)
    assert seen["flush"] and set(seen["flush"]) == {cap}
    assert seen["current"] == [read_back(results.summaries.SHOTS_MEMORY)]
    # Set back (as DuckDB reads back what was set: "18.8 GiB" may read "18.7 GiB").
    assert after != cap and after[-3:] == before[-3:]


@pytest.mark.parametrize("workers", [1, 2])
def test_the_rows_stream_on_the_duckdb_threads_the_workers_leave_and_the_shot_times_get_them_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """While the workers replay (this process alone: it replays beside its DuckDB threads),
    DuckDB reads and writes on the cores they leave: on cores they fill, its other threads
    only take turns with them. The shot times' summaries of the last transaction, with no
    replay beside them, run on the database's own threads, which are set back after."""
    from cuelog.ingest import cores

    db = season(tmp_path / "s.duckdb", 11)
    monkeypatch.setattr(cores, "usable_cores", lambda: 4)
    con = connect(db)
    con.execute("SET threads = 7")
    seen: dict[str, list[int]] = {"written": [], "current": []}

    def threads(on: duckdb.DuckDBPyConnection) -> int:
        return int(on.execute("SELECT current_setting('threads')").fetchall()[0][0])

    insert_sides, add_matches = results.summaries.insert_sides, results.summaries.add_matches

    def written(on: duckdb.DuckDBPyConnection, *args: object) -> None:
        seen["written"].append(threads(on))
        insert_sides(on, *args)  # type: ignore[arg-type]

    def made_current(on: duckdb.DuckDBPyConnection, *args: object) -> None:
        seen["current"].append(threads(on))
        add_matches(on, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(results.summaries, "insert_sides", written)
    monkeypatch.setattr(results.summaries, "add_matches", made_current)
    try:
        assert stream_db(con, workers=workers).matches == 11
        assert threads(con) == 7
    finally:
        con.close()
    assert seen["written"] and set(seen["written"]) == {4 - workers}
    assert seen["current"] == [7]


def test_the_threads_are_set_back_when_a_replay_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay that fails half-way leaves DuckDB's threads as the database had them."""
    db = season(tmp_path / "s.duckdb", 11)
    con = connect(db)
    con.execute("SET threads = 3")

    def broken(*_: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(results.summaries, "insert_sides", broken)
    try:
        with pytest.raises(RuntimeError, match="disk full"):
            stream_db(con, workers=1)
        assert int(con.execute("SELECT current_setting('threads')").fetchall()[0][0]) == 3
    finally:
        con.close()


def test_an_error_inside_the_held_threads_is_the_one_raised_when_they_cannot_be_set_back(tmp_path: Path) -> None:
    """Setting the threads back needs the connection: when the error being raised closed it,
    that error is reported, not the failed restore."""
    from cuelog.store.settings import threads_held

    con = duckdb.connect(str(tmp_path / "s.duckdb"))
    with pytest.raises(RuntimeError, match="the writer failed"), threads_held(con, 1):
        con.close()
        raise RuntimeError("the writer failed")
    con = duckdb.connect(str(tmp_path / "s.duckdb"))
    try:
        con.execute("SET threads = 3")
        with threads_held(con, 1) as held:
            assert int(con.execute("SELECT current_setting('threads')").fetchall()[0][0]) == 1
            held.release()
            assert int(con.execute("SELECT current_setting('threads')").fetchall()[0][0]) == 3
            con.execute("SET threads = 2")  # set after the release: leaving keeps it
        assert int(con.execute("SELECT current_setting('threads')").fetchall()[0][0]) == 2
    finally:
        con.close()


def test_the_replay_checkpoints_under_its_limit_before_the_connection_closes(tmp_path: Path) -> None:
    """The replay's rows are checkpointed before it returns, under its limit: left to the
    connection's close, the checkpoint runs without one (779 MB at 10M strokes). Nothing is
    then left in the write-ahead log, and every match's results are there after the close."""
    db = season(tmp_path / "s.duckdb", 11)
    wal = Path(f"{db}.wal")
    con = connect(db)
    try:
        done = stream_db(con, workers=1)
        assert done.matches == 11
        assert not wal.exists() or wal.stat().st_size == 0
    finally:
        con.close()
    assert {r[0] for r in table_rows(db, "replay_frames")} == {r[0] for r in table_rows(db, "matches")}


@pytest.mark.parametrize("spool_bytes", [1, 4 << 20], ids=["spooled-to-disk", "spooled-in-memory"])
def test_replay_of_logs_holds_no_replayed_match_and_prints_them_in_id_order(
    tmp_path: Path, monkeypatch, spool_bytes: int
) -> None:
    """The output is in match id order and the logs need not be: the replayed matches wait
    pickled in a spool (to disk past SPOOL_BYTES), not as objects, until every file is read."""
    from cuelog import logreplay
    from cuelog.cli import replay as command

    logs = tmp_path / "logs"
    logs.mkdir()
    ids = ["m07", "m02", "m11", "m05", "m03", "m10", "m01", "m08"]
    for i, match in enumerate(ids):  # files in an order other than their match ids'
        log = kit.maximum(match) if i % 2 else kit.two_fifties(match)
        log.write(logs / f"{i:02d}-{match}.jsonl")
    monkeypatch.setattr(command, "SPOOL_BYTES", spool_bytes)
    alive: list[int] = []
    real = logreplay.replay_match

    def counted(*args, **kwargs):
        alive.append(sum(isinstance(o, MatchResult) for o in gc.get_objects()))
        return real(*args, **kwargs)

    monkeypatch.setattr(logreplay, "replay_match", counted)
    gc.collect()
    before = sum(isinstance(o, MatchResult) for o in gc.get_objects())  # other tests' in this process
    result = runner.invoke(app, ["replay", str(logs), "--json"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert [m["match"] for m in printed["matches"]] == sorted(ids)
    # Each log replayed on its own, in memory, then sorted: the same document.
    alone = []
    for path in sorted(logs.iterdir()):
        ((match, body),) = engines.split_matches(r for _, r in read_records(path))
        replayed = engines.replay_match(match, body)
        for fr in replayed.frames:
            fr.outcomes = []
        alone.append(replayed)
    assert result.stdout == dumps(document(sorted(alone, key=lambda m: m.match), __version__))
    # At most the match just replayed is alive when the next is replayed, not every one before.
    assert len(alive) == len(ids) and max(alive) - before <= 1, (before, alive)
