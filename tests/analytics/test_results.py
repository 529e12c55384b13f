"""The replay results store: what ``write_results`` puts in the replay_* tables."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pyarrow as pa
import pytest

from cuelog.replay.model import CONDONED_FOUL, Finding
from cuelog.store import connect
from cuelog.store.results import REPLAY_TABLES, result_tables, write_results
from tests.analytics import kit
from tests.analytics import outcomes as o


def _rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    con = connect(db, read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_every_outcome_frame_break_and_finding_is_stored(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "t.duckdb", kit.miss_sequence())
    finding = Finding(7, CONDONED_FOUL, "S3 R11(b)(iv)", "A", 4, "in-off not called")
    strokes = [o.S("B"), o.S("A"), o.S("B", 0, 5, miss=True), o.S("B", 1, ball_on="red")]
    result = o.match("m3-misses", "snooker/wpbsa-2024", "Ann", "Bob", o.frame(1, strokes, [finding]))
    con = connect(db)
    write_results(con, ["m3-misses"], [result])
    con.close()
    # Stroke 3: B's foul and a miss gives A 5; stroke 4: B pots a red.
    assert _rows(
        db, "SELECT n, striker, scored, penalty, foul, miss, ball_on, score_a, score_b FROM replay_strokes ORDER BY n"
    ) == [
        (1, "B", 0, 0, False, False, None, 0, 0),
        (2, "A", 0, 0, False, False, None, 0, 0),
        (3, "B", 0, 5, True, True, None, 5, 0),
        (4, "B", 1, 0, False, False, "red", 5, 1),
    ]
    assert _rows(db, "SELECT frame, score_a, score_b, winner FROM replay_frames") == [(1, 5, 1, "A")]
    assert _rows(db, "SELECT side, points, from_n, to_n FROM replay_breaks") == [("B", 1, 4, 4)]
    assert _rows(db, "SELECT frame, n, kind, rule, side, points FROM replay_findings") == [
        (1, 7, "condoned_foul", "S3 R11(b)(iv)", "A", 4)
    ]


def test_replaying_a_match_replaces_only_its_rows(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "t.duckdb", kit.maximum(), kit.two_fifties())
    con = connect(db)
    write_results(
        con,
        ["m1-maximum", "m2-two-fifties"],
        [
            o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", o.maximum_frame()),
            o.match("m2-two-fifties", "snooker/wpbsa-2024", "Ann", "Bob", o.two_fifties_frame()),
        ],
    )
    # Replay m2 again with a different result: its old rows go, m1's stay.
    write_results(
        con,
        ["m2-two-fifties"],
        [o.match("m2-two-fifties", "snooker/wpbsa-2024", "Ann", "Bob", o.frame(1, [o.S("A", 1), o.S("A")]))],
    )
    con.close()
    assert _rows(db, "SELECT match_id, count(*) FROM replay_strokes GROUP BY ALL ORDER BY 1") == [
        ("m1-maximum", 37),
        ("m2-two-fifties", 2),
    ]
    assert _rows(db, "SELECT match_id, points FROM replay_breaks ORDER BY 1, 2") == [
        ("m1-maximum", 147),
        ("m2-two-fifties", 1),
    ]
    # m2's replaced rows are gone from the table of every generation too.
    assert _rows(db, "SELECT count(*) FROM replay_strokes_rows") == [(39,)]


def test_a_failed_write_leaves_the_old_results(tmp_path: Path) -> None:
    """One transaction: a row the table refuses rolls every table back."""
    db = kit.load(tmp_path / "t.duckdb", kit.maximum())
    con = connect(db)
    write_results(con, ["m1-maximum"], [o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", o.maximum_frame())])
    broken = o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", o.frame(1, [o.S("A", 1)]))
    tables = result_tables([broken], sides=True)
    # The breaks are written after the frames and strokes: a NULL their points refuse.
    breaks = tables["replay_breaks"]
    assert breaks.num_rows
    tables["replay_breaks"] = breaks.set_column(
        breaks.schema.get_field_index("points"), "points", pa.nulls(breaks.num_rows, pa.int32())
    )
    with pytest.raises(Exception, match=r"(?i)constraint|null"):
        write_results(con, ["m1-maximum"], [broken], tables=tables)
    con.close()
    counts = [_rows(db, f"SELECT count(*) FROM {t}")[0][0] for t in REPLAY_TABLES]
    assert counts == [1, 37, 1, 0, 0, 0]  # frames, strokes, breaks, findings, corrections, details
    assert _rows(db, "SELECT count(*) FROM replay_strokes_rows") == [(37,)]  # none of the failed write's


def test_replaying_every_match_leaves_no_stale_rows(tmp_path: Path) -> None:
    """After a full replay the tables hold exactly the results just computed."""
    db = kit.load(tmp_path / "t.duckdb", kit.maximum(), kit.two_fifties())
    con = connect(db)
    m1 = o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", o.maximum_frame())
    m2 = o.match("m2-two-fifties", "snooker/wpbsa-2024", "Ann", "Bob", o.two_fifties_frame())
    write_results(con, ["m1-maximum", "m2-two-fifties"], [m1, m2])
    write_results(con, ["m2-two-fifties"], [m2], every_match=True)
    con.close()
    assert _rows(db, "SELECT DISTINCT match_id FROM replay_strokes") == [("m2-two-fifties",)]
    assert _rows(db, "SELECT count(*) FROM replay_breaks") == [(3,)]


def test_free_ball_and_foul_reasons_are_stored(tmp_path: Path) -> None:
    db = kit.load(tmp_path / "t.duckdb", kit.maximum())
    fr = o.frame(1, [o.S("A"), o.S("B", 0, 4)])
    fr.outcomes[1] = msgspec.structs.replace(fr.outcomes[1], reasons=("in_off", "first_contact"), free_ball=True)
    con = connect(db)
    write_results(con, ["m1-maximum"], [o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", fr)])
    con.close()
    assert _rows(db, "SELECT n, foul, free_ball, reasons FROM replay_strokes ORDER BY n") == [
        (1, False, False, []),
        (2, True, True, ["in_off", "first_contact"]),
    ]


# replay_strokes and replay_frames as a database made before replay generations (and before
# the free_ball, reasons and credited columns) has them: plain tables.
_OLD_LAYOUT = """
DROP VIEW replay_frames; DROP VIEW replay_strokes; DROP VIEW replay_stroke_details;
DROP VIEW replay_breaks; DROP VIEW replay_findings; DROP VIEW replay_corrections;
CREATE TABLE replay_frames (match_id VARCHAR NOT NULL, frame INTEGER NOT NULL, score_a INTEGER NOT NULL,
    score_b INTEGER NOT NULL, recorded_a INTEGER, recorded_b INTEGER, winner VARCHAR, recorded_winner VARCHAR,
    end_reason VARCHAR, visits_a INTEGER NOT NULL, visits_b INTEGER NOT NULL, PRIMARY KEY (match_id, frame));
CREATE TABLE replay_strokes (match_id VARCHAR NOT NULL, frame INTEGER NOT NULL, n INTEGER NOT NULL,
    striker VARCHAR NOT NULL, scored INTEGER NOT NULL, penalty INTEGER NOT NULL, foul BOOLEAN NOT NULL,
    miss BOOLEAN NOT NULL, ball_on VARCHAR, break_id INTEGER, visit_id INTEGER NOT NULL,
    score_a INTEGER NOT NULL, score_b INTEGER NOT NULL, PRIMARY KEY (match_id, frame, n));
INSERT INTO replay_frames VALUES ('m1-maximum', 1, 147, 0, 147, 0, 'A', 'A', NULL, 1, 0);
INSERT INTO replay_strokes VALUES ('m1-maximum', 1, 1, 'A', 1, 0, false, false, 'red', 1, 1, 1, 0),
                                  ('m1-maximum', 1, 2, 'A', 7, 0, false, false, 'colour', 1, 1, 8, 0);
"""


def test_a_database_made_before_replay_generations_keeps_its_results_and_replays(tmp_path: Path) -> None:
    """Its replay tables become the current generation of their matches (the columns added
    since come as NULL), the views take their names, and the next replay replaces them."""
    import duckdb

    db = kit.load(tmp_path / "t.duckdb", kit.maximum())
    raw = duckdb.connect(str(db))
    raw.execute("DROP TABLE replay_frames_rows; DROP TABLE replay_strokes_rows; DROP TABLE replay_current")
    raw.execute(_OLD_LAYOUT)
    raw.close()
    connect(db).close()
    assert _rows(db, "SELECT frame, score_a, winner FROM replay_frames") == [(1, 147, "A")]
    assert _rows(db, "SELECT n, score_a, reasons, free_ball, credited FROM replay_strokes ORDER BY n") == [
        (1, 1, None, None, None),
        (2, 8, None, None, None),
    ]
    kinds = _rows(db, "SELECT table_type FROM information_schema.tables WHERE table_name = 'replay_strokes'")
    assert kinds == [("VIEW",)]
    assert _rows(db, "SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '%before_generations'") == [(0,)]
    con = connect(db)
    write_results(con, ["m1-maximum"], [o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", o.maximum_frame())])
    con.close()
    assert _rows(db, "SELECT count(*), count(reasons), count(free_ball) FROM replay_strokes") == [(37, 37, 37)]
    assert _rows(db, "SELECT count(*) FROM replay_strokes_rows") == [(37,)]  # the old generation is gone


def test_a_database_whose_frames_have_the_old_key_keeps_them_without_it(tmp_path: Path) -> None:
    """Stores made with a primary key on the frames' rows (held in memory and written whole
    at every checkpoint) are rebuilt without it on opening: the same rows, every generation,
    and the next replay writes as before."""
    import duckdb

    db = kit.load(tmp_path / "t.duckdb", kit.maximum())
    con = connect(db)
    write_results(con, ["m1-maximum"], [o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", o.maximum_frame())])
    con.close()
    before = _rows(db, "SELECT * FROM replay_frames_rows ORDER BY ALL")
    raw = duckdb.connect(str(db))
    raw.execute("ALTER TABLE replay_frames_rows RENAME TO unkeyed")
    raw.execute(
        "CREATE TABLE replay_frames_rows (match_id VARCHAR, frame INTEGER, score_a INTEGER NOT NULL, "
        "score_b INTEGER NOT NULL, recorded_a INTEGER, recorded_b INTEGER, winner VARCHAR, recorded_winner VARCHAR, "
        "end_reason VARCHAR, visits_a INTEGER NOT NULL, visits_b INTEGER NOT NULL, gen BIGINT, "
        "PRIMARY KEY (match_id, frame, gen))"
    )
    raw.execute("INSERT INTO replay_frames_rows SELECT * FROM unkeyed; DROP TABLE unkeyed")
    raw.close()
    keys = "SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'replay_frames_rows' AND constraint_type = 'PRIMARY KEY'"
    assert _rows(db, keys) == [(1,)]
    connect(db).close()
    assert _rows(db, keys) == [(0,)]
    assert _rows(db, "SELECT * FROM replay_frames_rows ORDER BY ALL") == before
    assert _rows(db, "SELECT frame, score_a, winner FROM replay_frames") == [(1, 147, "A")]
    assert _rows(db, "SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'replay_frames_rows%'") == [(1,)]
    con = connect(db)
    write_results(con, ["m1-maximum"], [o.match("m1-maximum", "snooker/wpbsa-2024", "Ann", "Bob", o.maximum_frame())])
    con.close()
    assert _rows(db, "SELECT frame, score_a, winner FROM replay_frames") == [(1, 147, "A")]


def test_a_disciplines_own_stroke_facts_and_finding_kinds_are_stored(tmp_path: Path) -> None:
    """Outcome.detail: facts beyond the common core go to replay_stroke_details, one row a
    fact; a finding kind beyond docs/format.md's sorts after them, by name, and is stored."""
    db = kit.load(tmp_path / "t.duckdb", kit.miss_sequence())
    own = Finding(n=1, kind="warning_missing", rule="WPA 6.14", side="A", points=0, message="third foul not warned")
    common = Finding(n=1, kind=CONDONED_FOUL, rule="S3 R10", side="A", points=4, message="foul not called")
    fr = o.frame(1, [o.S("A"), o.S("B")], [own, common])
    fr.outcomes[0] = msgspec.structs.replace(fr.outcomes[0], detail=(("ball_in_hand", True), ("push_out", False)))
    result = o.match("m3-misses", "snooker/wpbsa-2024", "Ann", "Bob", fr)
    assert sorted([own, common], key=Finding.sort_key) == [common, own]
    con = connect(db)
    write_results(con, ["m3-misses"], [result])
    con.close()
    assert _rows(db, "SELECT frame, n, name, CAST(value AS VARCHAR) FROM replay_stroke_details ORDER BY name") == [
        (1, 1, "ball_in_hand", "true"),
        (1, 1, "push_out", "false"),
    ]
    assert _rows(db, "SELECT kind FROM replay_findings ORDER BY n, kind") == [("condoned_foul",), ("warning_missing",)]
    # Snooker and billiards fill no detail: their replay_strokes rows are as before.
    assert _rows(db, "SELECT count(*) FROM replay_strokes") == [(2,)]


def test_default_workers_is_one_unless_a_large_replay_has_idle_cores():
    """docs/analytics.md "Workers": the default is never slower than one worker."""
    from cuelog.pipeline import PARALLEL_FROM, default_workers

    assert default_workers(70_000, cores=2, load=0.0) == 1  # small: start-up costs more than it saves
    assert default_workers(PARALLEL_FROM * 4, cores=2, load=8.0) == 1  # busy cores: a second process only waits
    assert default_workers(PARALLEL_FROM * 4, cores=2, load=0.3) == 2
    assert default_workers(PARALLEL_FROM * 4, cores=8, load=3.0) == 5
    assert default_workers(PARALLEL_FROM * 4, cores=1, load=0.0) == 1
