-- The cuelog DuckDB store: one file, one place for every table's definition.
-- Loaded tables (ingest) hold the logs as they were recorded; replay tables hold what
-- the rules make of them. Every statement is idempotent (IF NOT EXISTS).
--
-- Text columns name their compression: dict_fsst (a dictionary, then FSST), the method
-- DuckDB chooses for every one of them anyway. Named, it compresses each segment with it
-- instead of first trying every method on the segment (measured: replay --db at 1M 0.974x
-- the time, ingest 0.986x; benchmarks/README.md, "Text columns with their compression
-- named"). The records' text is the exception (zstd, below). A store made before keeps
-- the compression its tables were made with.

-- One row per loaded file content: loading the same bytes again is a no-op.
CREATE TABLE IF NOT EXISTS ingest_log (
    file_hash   VARCHAR USING COMPRESSION dict_fsst PRIMARY KEY,   -- sha256 of the file's bytes (decompressed for .gz)
    path        VARCHAR USING COMPRESSION dict_fsst NOT NULL,      -- path as given on the first load
    matches     VARCHAR[] NOT NULL,    -- match ids the file defines
    records     BIGINT NOT NULL,
    loaded_at   TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS matches (
    match_id    VARCHAR USING COMPRESSION dict_fsst PRIMARY KEY,
    rules       VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    side_a      VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    side_b      VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    best_of     INTEGER,
    event       VARCHAR USING COMPRESSION dict_fsst,
    date        VARCHAR USING COMPRESSION dict_fsst,
    venue       VARCHAR USING COMPRESSION dict_fsst,
    table_no    VARCHAR USING COMPRESSION dict_fsst,
    referee     VARCHAR USING COMPRESSION dict_fsst,
    file_hash   VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    body        JSON NOT NULL          -- the match record as written
);

-- Every record of every match, in file order: the source of truth the replay reads back.
CREATE TABLE IF NOT EXISTS records (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    seq         INTEGER NOT NULL,      -- position within the match, 0 = the match record
    line        INTEGER NOT NULL,      -- line in the source file
    type        VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    frame       INTEGER,
    n           INTEGER,               -- stroke number, or `after` for choices and events
    body        VARCHAR USING COMPRESSION zstd NOT NULL  -- the line as written (JSON text; the check decoded it)
    -- body is VARCHAR, not JSON: a JSON column parses every line again on insert, and the
    -- line was decoded and checked already. Stores made with a JSON body keep it; readers
    -- cast it to text, which takes either. Compressed with zstd, not the method
    -- DuckDB would choose (dictionary and FSST): measured at 1M records, a quarter less CPU
    -- to store, half the file, read as fast (benchmarks/README.md, "The records' text
    -- compressed with zstd"). Stores made before keep the method they were made with.
    -- (match_id, seq) is unique by construction; no index, so that memory does not grow
    -- with the size of the store (ART indexes are held in memory).
);

-- Strokes with the fields the reports filter on, typed.
CREATE TABLE IF NOT EXISTS strokes (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    striker     VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    t           TIMESTAMPTZ,
    first       VARCHAR[] NOT NULL,
    potted      VARCHAR[] NOT NULL,
    nominated   VARCHAR USING COMPRESSION dict_fsst,
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
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    shot_s      DOUBLE,                -- time taken, pauses excluded
    paused_s    DOUBLE,
    limit_s     DOUBLE,
    source      VARCHAR USING COMPRESSION dict_fsst NOT NULL       -- 'record' or the CSV file's hash
    -- (match_id, frame, n) is unique by construction: a log's clock records are checked
    -- (clock_repeated), and a device shot deletes the reading it replaces; no index, so that
    -- storing a run's shots costs half as much and memory does not grow with the store.
);

-- Replay results (written by `cuelog replay --db`). Each replay writes its rows under a new
-- generation (`replay_generation`), committed chunk by chunk so that the database never holds a
-- whole replay's uncommitted rows, and makes that generation current for the matches it
-- replayed in one small last transaction (`replay_current`). The `replay_*` views show each
-- match's current generation only: a reader never sees a half-written replay, and a replay that
-- fails or is interrupted leaves the previous results as they were (its rows, of a generation
-- never made current, are removed by the next replay). The `*_rows` tables hold every
-- generation's rows; `gen` is their last column, so a view's columns are the table's without it.
CREATE SEQUENCE IF NOT EXISTS replay_generation START 1;

CREATE TABLE IF NOT EXISTS replay_current (
    match_id    VARCHAR USING COMPRESSION dict_fsst PRIMARY KEY,
    gen         BIGINT NOT NULL        -- the generation whose rows are this match's results
);

CREATE TABLE IF NOT EXISTS replay_frames_rows (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    frame       INTEGER NOT NULL,
    score_a     INTEGER NOT NULL,
    score_b     INTEGER NOT NULL,
    recorded_a  INTEGER,
    recorded_b  INTEGER,
    winner      VARCHAR USING COMPRESSION dict_fsst,
    recorded_winner VARCHAR USING COMPRESSION dict_fsst,
    end_reason  VARCHAR USING COMPRESSION dict_fsst,
    visits_a    INTEGER NOT NULL,
    visits_b    INTEGER NOT NULL,
    gen         BIGINT NOT NULL
    -- (match_id, frame, gen) is unique by construction (a replay gives each frame once), as
    -- for the other replay tables; no key, whose index every replay's rows went into and
    -- every checkpoint wrote (measured: 0.98x the time of replay --db at 1M without it;
    -- benchmarks/README.md, "replay --db: the frames without a key"). Stores made with it
    -- are rebuilt without it on opening (cuelog.store.results.set_aside_keyed_frames).
);

CREATE TABLE IF NOT EXISTS replay_strokes_rows (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    striker     VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    scored      INTEGER NOT NULL,      -- points the striker scored under the rules (the due call)
    penalty     INTEGER NOT NULL,      -- penalty due to the opponent
    foul        BOOLEAN NOT NULL,
    miss        BOOLEAN NOT NULL,
    ball_on     VARCHAR USING COMPRESSION dict_fsst,
    break_id    INTEGER,
    visit_id    INTEGER NOT NULL,
    score_a     INTEGER NOT NULL,      -- official score after the stroke
    score_b     INTEGER NOT NULL,
    free_ball   BOOLEAN,               -- FREE BALL due for the incoming player (S3 R12)
    reasons     VARCHAR[],             -- codes of every foul the facts show
    credited    INTEGER,               -- points the official score booked to the striker (calls as made)
    gen         BIGINT NOT NULL
    -- (match_id, frame, n, gen) is unique by construction (the writer builds one row per
    -- replayed stroke); no index, so that memory does not grow with the store (ART indexes
    -- are held in memory).
);

-- A discipline's own facts of a stroke beyond the replay_strokes columns (Outcome.detail);
-- none for snooker and billiards.
CREATE TABLE IF NOT EXISTS replay_stroke_details_rows (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    name        VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    value       JSON,                  -- the value as JSON (string, number, true/false, null)
    gen         BIGINT NOT NULL
    -- (match_id, frame, n, name, gen) is unique by construction, as above.
);

CREATE TABLE IF NOT EXISTS replay_breaks_rows (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    frame       INTEGER NOT NULL,
    side        VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    points      INTEGER NOT NULL,
    from_n      INTEGER NOT NULL,
    to_n        INTEGER NOT NULL,
    gen         BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS replay_findings_rows (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    frame       INTEGER,
    n           INTEGER NOT NULL,
    kind        VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    rule        VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    side        VARCHAR USING COMPRESSION dict_fsst,
    points      INTEGER NOT NULL,
    message     VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    gen         BIGINT NOT NULL
);

-- Officials' corrections applied to a match before its replay (docs/format.md section 6).
CREATE TABLE IF NOT EXISTS replay_corrections_rows (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    frame       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    fields      JSON NOT NULL,         -- the `set` object: corrected stroke fields
    note        VARCHAR USING COMPRESSION dict_fsst,
    gen         BIGINT NOT NULL
);

-- What every reader selects: each match's rows of its current generation.
CREATE VIEW IF NOT EXISTS replay_frames AS SELECT r.* EXCLUDE (gen) FROM replay_frames_rows r
    SEMI JOIN replay_current c ON c.match_id = r.match_id AND c.gen = r.gen;
CREATE VIEW IF NOT EXISTS replay_strokes AS SELECT r.* EXCLUDE (gen) FROM replay_strokes_rows r
    SEMI JOIN replay_current c ON c.match_id = r.match_id AND c.gen = r.gen;
CREATE VIEW IF NOT EXISTS replay_stroke_details AS SELECT r.* EXCLUDE (gen) FROM replay_stroke_details_rows r
    SEMI JOIN replay_current c ON c.match_id = r.match_id AND c.gen = r.gen;
CREATE VIEW IF NOT EXISTS replay_breaks AS SELECT r.* EXCLUDE (gen) FROM replay_breaks_rows r
    SEMI JOIN replay_current c ON c.match_id = r.match_id AND c.gen = r.gen;
CREATE VIEW IF NOT EXISTS replay_findings AS SELECT r.* EXCLUDE (gen) FROM replay_findings_rows r
    SEMI JOIN replay_current c ON c.match_id = r.match_id AND c.gen = r.gen;
CREATE VIEW IF NOT EXISTS replay_corrections AS SELECT r.* EXCLUDE (gen) FROM replay_corrections_rows r
    SEMI JOIN replay_current c ON c.match_id = r.match_id AND c.gen = r.gen;

-- Report summaries (cuelog/store/summaries.py), so that a report sums a few rows per match
-- instead of reading every stroke. Derived data: removed with the match, rebuilt by its next
-- replay. Each side's figures are written with the replay rows they summarise, under their
-- generation, in the same transactions (`summary_sides_rows`, shown for each match's current
-- generation by the `summary_sides` view); the shot times and push outs read loaded tables
-- too, and are written for the replayed matches in the transaction that makes their
-- generation current (and the shot times again when a clock log re-aligns their strokes).
CREATE TABLE IF NOT EXISTS summary_sides_rows (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    side        VARCHAR USING COMPRESSION dict_fsst NOT NULL,      -- 'A' or 'B', one row each for every replayed match with frames
    frames      BIGINT NOT NULL,       -- the match's replayed frames (the same on both rows)
    visits      BIGINT NOT NULL,       -- the side's visits (S2 R6) in them
    credited    BIGINT NOT NULL,       -- points the official score booked to the side's strokes
    scored      BIGINT NOT NULL,       -- points (pool: balls) scored under the rules
    fouls       BIGINT NOT NULL,       -- fouls the facts show, condoned included
    foul_points_conceded BIGINT NOT NULL,  -- penalties of the called fouls
    miss_calls  BIGINT NOT NULL,       -- FOUL AND A MISS due on a called foul (S3 R14)
    miss_points_conceded BIGINT NOT NULL,
    condoned_fouls BIGINT NOT NULL,
    longest_miss_sequence BIGINT NOT NULL,
    breaks      INTEGER[] NOT NULL,    -- the points of every break (S2 R8), any order
    racks_won   BIGINT NOT NULL,       -- pool: racks the rules give the side
    break_and_dish BIGINT NOT NULL,    -- pool: won in the breaker's visit
    clearance_balls INTEGER[] NOT NULL,  -- pool: balls of the winning visit of each rack won on the last ball without the break
    rack_balls  BIGINT NOT NULL,       -- pool: balls scored in the replayed racks
    rack_fouls  BIGINT NOT NULL,
    fouls_conceded BIGINT NOT NULL,    -- pool: the opponent's fouls in the side's racks
    gen         BIGINT NOT NULL
);

CREATE VIEW IF NOT EXISTS summary_sides AS SELECT r.* EXCLUDE (gen) FROM summary_sides_rows r
    SEMI JOIN replay_current c ON c.match_id = r.match_id AND c.gen = r.gen;

-- The shot times of the replayed strokes (current generation), with the side the replay gives
-- the striker and that side's player and the match's event as the match record has them (a
-- match loaded again loses its summaries), so that the clock report needs no join per shot.
CREATE TABLE IF NOT EXISTS summary_shots (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    side        VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    event       VARCHAR USING COMPRESSION dict_fsst,
    player      VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    shot_s      DOUBLE NOT NULL,
    limit_s     DOUBLE
);

-- The shot times of `summary_shots` counted and summed per match, side and whole second (the
-- floor of the shot time), written with them: the clock report sums these rows for each
-- group's shots, mean, longest and shots over the limit, finds each group's middle second from
-- the counts and reads the exact times of that second only, so it never scans every shot time
-- for its sums, and its median never holds every shot time of a group (cuelog/store/summed.py).
-- A store whose table lacks the sums has it rebuilt from `summary_shots` when opened for
-- writing (cuelog.store.summaries.stale_shot_summaries).
CREATE TABLE IF NOT EXISTS summary_shot_counts (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    side        VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    event       VARCHAR USING COMPRESSION dict_fsst,
    player      VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    whole_s     BIGINT NOT NULL,       -- floor(shot_s)
    shots       BIGINT NOT NULL,
    sum_us      BIGINT NOT NULL,       -- the shot times summed in whole microseconds (exact)
    max_s       DOUBLE NOT NULL,       -- the longest
    over_limit  BIGINT NOT NULL,       -- shots longer than their limit
    limited     BOOLEAN NOT NULL       -- whether any of the shots had a limit
);

-- Each match's median shot time, of its two sides' shot times together and of each side's
-- (NULL: the side has none), written with the rows per second: the clock report by match
-- reads these instead of holding every shot time of the store for DuckDB's `median`
-- (cuelog/store/summed.py). Made from `summary_shots` when a store without them is opened
-- for writing (cuelog.store.summaries.stale_shot_summaries).
CREATE TABLE IF NOT EXISTS summary_shot_medians (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    median_s    DOUBLE NOT NULL,       -- median(shot_s) of the match's shot times
    median_a_s  DOUBLE,                -- of side A's
    median_b_s  DOUBLE                 -- of side B's
);

-- What each replayed match's shot times above were made from, as one number: the strikers of
-- its replayed strokes, its shot clock's times and limits, its event and players
-- (cuelog.store.summaries._digests). A replay makes a match's shot times again only when this
-- differs, so replaying a store again makes only the new or changed matches' shot times.
-- Written and removed with the shot times.
CREATE TABLE IF NOT EXISTS summary_shot_inputs (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    digest      UBIGINT NOT NULL
);

-- Nine-ball push outs declared (WPA 2.4, a recorded fact) in the replayed racks, per side.
CREATE TABLE IF NOT EXISTS summary_push_outs (
    match_id    VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    side        VARCHAR USING COMPRESSION dict_fsst NOT NULL,
    push_outs   BIGINT NOT NULL
);
