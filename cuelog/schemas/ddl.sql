-- The cuelog DuckDB store: one file, one place for every table's definition.
-- Loaded tables (ingest) hold the logs as they were recorded; replay tables hold what
-- the rules make of them. Every statement is idempotent (IF NOT EXISTS).

-- One row per loaded file content: loading the same bytes again is a no-op.
CREATE TABLE IF NOT EXISTS ingest_log (
    file_hash   VARCHAR PRIMARY KEY,   -- sha256 of the file's bytes (decompressed for .gz)
    path        VARCHAR NOT NULL,      -- path as given on the first load
    matches     VARCHAR[] NOT NULL,    -- match ids the file defines
    records     BIGINT NOT NULL,
    loaded_at   TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS matches (
    match_id    VARCHAR PRIMARY KEY,
    rules       VARCHAR NOT NULL,
    side_a      VARCHAR NOT NULL,
    side_b      VARCHAR NOT NULL,
    best_of     INTEGER,
    event       VARCHAR,
    date        VARCHAR,
    venue       VARCHAR,
    table_no    VARCHAR,
    referee     VARCHAR,
    file_hash   VARCHAR NOT NULL,
    body        JSON NOT NULL          -- the match record as written
);

-- Every record of every match, in file order: the source of truth the replay reads back.
CREATE TABLE IF NOT EXISTS records (
    match_id    VARCHAR NOT NULL,
    seq         INTEGER NOT NULL,      -- position within the match, 0 = the match record
    line        INTEGER NOT NULL,      -- line in the source file
    type        VARCHAR NOT NULL,
    frame       INTEGER,
    n           INTEGER,               -- stroke number, or `after` for choices and events
    body        JSON NOT NULL
    -- (match_id, seq) is unique by construction; no index, so that memory does not grow
    -- with the size of the store (ART indexes are held in memory).
);

-- Strokes with the fields the reports filter on, typed.
CREATE TABLE IF NOT EXISTS strokes (
    match_id    VARCHAR NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    striker     VARCHAR NOT NULL,
    t           TIMESTAMPTZ,
    first       VARCHAR[] NOT NULL,
    potted      VARCHAR[] NOT NULL,
    nominated   VARCHAR,
    foul_called BOOLEAN NOT NULL,
    points_called INTEGER,
    miss_called BOOLEAN NOT NULL,
    free_ball_called BOOLEAN NOT NULL,
    score_a     INTEGER,
    score_b     INTEGER,
    break_      INTEGER
    -- (match_id, frame, n) is unique: validation refuses a repeated n within a frame.
);

-- Shot times, from aligned `clock` records or from device CSVs joined as-of on stroke time.
CREATE TABLE IF NOT EXISTS shot_clock (
    match_id    VARCHAR NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    shot_s      DOUBLE,                -- time taken, pauses excluded
    paused_s    DOUBLE,
    limit_s     DOUBLE,
    source      VARCHAR NOT NULL       -- 'record' or the CSV file's hash
    -- (match_id, frame, n) is unique by construction: a log's clock records are checked
    -- (clock_repeated), and a device shot deletes the reading it replaces; no index, so that
    -- storing a run's shots costs half as much and memory does not grow with the store.
);

-- Replay results (written by `cuelog replay --db`), replaced per match on each replay.
CREATE TABLE IF NOT EXISTS replay_frames (
    match_id    VARCHAR NOT NULL,
    frame       INTEGER NOT NULL,
    score_a     INTEGER NOT NULL,
    score_b     INTEGER NOT NULL,
    recorded_a  INTEGER,
    recorded_b  INTEGER,
    winner      VARCHAR,
    recorded_winner VARCHAR,
    end_reason  VARCHAR,
    visits_a    INTEGER NOT NULL,
    visits_b    INTEGER NOT NULL,
    PRIMARY KEY (match_id, frame)
);

CREATE TABLE IF NOT EXISTS replay_strokes (
    match_id    VARCHAR NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    striker     VARCHAR NOT NULL,
    scored      INTEGER NOT NULL,      -- points the striker scored under the rules (the due call)
    penalty     INTEGER NOT NULL,      -- penalty due to the opponent
    foul        BOOLEAN NOT NULL,
    miss        BOOLEAN NOT NULL,
    ball_on     VARCHAR,
    break_id    INTEGER,
    visit_id    INTEGER NOT NULL,
    score_a     INTEGER NOT NULL,      -- official score after the stroke
    score_b     INTEGER NOT NULL,
    free_ball   BOOLEAN,               -- FREE BALL due for the incoming player (S3 R12)
    reasons     VARCHAR[],             -- codes of every foul the facts show
    credited    INTEGER,               -- points the official score booked to the striker (calls as made)
    PRIMARY KEY (match_id, frame, n)
);

-- A discipline's own facts of a stroke beyond the replay_strokes columns (Outcome.detail);
-- none for snooker and billiards.
CREATE TABLE IF NOT EXISTS replay_stroke_details (
    match_id    VARCHAR NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    name        VARCHAR NOT NULL,
    value       JSON,                  -- the value as JSON (string, number, true/false, null)
    PRIMARY KEY (match_id, frame, n, name)
);

CREATE TABLE IF NOT EXISTS replay_breaks (
    match_id    VARCHAR NOT NULL,
    frame       INTEGER NOT NULL,
    side        VARCHAR NOT NULL,
    points      INTEGER NOT NULL,
    from_n      INTEGER NOT NULL,
    to_n        INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS replay_findings (
    match_id    VARCHAR NOT NULL,
    frame       INTEGER,
    n           INTEGER NOT NULL,
    kind        VARCHAR NOT NULL,
    rule        VARCHAR NOT NULL,
    side        VARCHAR,
    points      INTEGER NOT NULL,
    message     VARCHAR NOT NULL
);

-- Officials' corrections applied to a match before its replay (docs/format.md section 6).
CREATE TABLE IF NOT EXISTS replay_corrections (
    match_id    VARCHAR NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    fields      JSON NOT NULL,         -- the `set` object: corrected stroke fields
    note        VARCHAR
);
