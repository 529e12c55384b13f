"""The rule makers' diff against one replay of the same season, in the same run.

    python benchmarks/diff.py [--strokes 1000000] [--rounds 3] [--workers N] [--json]

Builds a season of about ``--strokes`` snooker strokes (the simulator's 100k-stroke base
replicated under new match ids, as ``run.py`` does), loads it into a fresh DuckDB file,
then alternates, ``--rounds`` times:

- **replay** (the floor): every loaded match read back and replayed once, as recorded
  (``cuelog.pipeline.replay_all``, results not stored);
- **diff**: every loaded match replayed under the recorded rules and under a draft
  (``minimum = 5``, ``warn_after = 1``) and compared (``cuelog.diff.diff_db``).

It prints the median of each and of the per-round ratio diff / replay, with the spread
(lowest and highest): the issue's target is a ratio of about 2 or less. Timings are wall
clock on whatever else the machine does; never assert them in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "benchmarks"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from run import Base, machine, replicate, timed  # noqa: E402

from cuelog.diff import diff_db  # noqa: E402
from cuelog.ingest.load import ingest_paths  # noqa: E402
from cuelog.ingest.reader import log_files, read_records  # noqa: E402
from cuelog.pipeline import replay_all  # noqa: E402
from cuelog.replay.derived import derive  # noqa: E402
from cuelog.schemas.records import Stroke  # noqa: E402
from cuelog.simulate import SeasonConfig, simulate_season  # noqa: E402
from cuelog.simulate.writer import write_season  # noqa: E402
from cuelog.store import connect  # noqa: E402
from cuelog.store.reads import loaded_matches, select_matches  # noqa: E402

SEED = 2026
DRAFT = derive("bench-draft", "snooker/wpbsa-2024", {"minimum": 5, "warn_after": 1})


def snooker_base(root: Path, strokes: int, workers: int) -> Base:
    """About ``min(strokes, 100k)`` unique snooker strokes."""
    out = root / "base"
    write_season(
        out,
        simulate_season(
            SeasonConfig("snooker/wpbsa-2024", max(1, min(strokes, 100_000) // 250), SEED, 0.02), workers=workers
        ),
    )
    logs = [(f, sum(1 for _, r in read_records(f) if isinstance(r, Stroke))) for f in log_files([out / "logs"])]
    return Base(logs, [])


def spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "low": round(min(values), 3), "high": round(max(values), 3)}


def measure(db: Path, workers: int, rounds: int) -> dict[str, Any]:
    con = connect(db, read_only=True)
    try:
        ids = select_matches(con, None)
        replays, diffs, ratios = [], [], []
        frames = changed = 0
        for _ in range(rounds):
            t_replay, _ = timed(lambda: replay_all(loaded_matches(con, ids), workers))
            t_diff, (_, result) = timed(lambda: diff_db(con, DRAFT, workers=workers))
            replays.append(t_replay)
            diffs.append(t_diff)
            ratios.append(t_diff / t_replay)
            frames = sum(len(d.frames) for d in result)
            changed = sum(f.changed for d in result for f in d.frames)
    finally:
        con.close()
    return {
        "workers": workers,
        "frames": frames,
        "frames_changed": changed,
        "replay_s": spread(replays),
        "diff_s": spread(diffs),
        "diff_over_replay": spread(ratios),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strokes", type=int, default=1_000_000, help="season size in strokes (default 1M)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds of replay and diff")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cuelog-diff-bench-") as tmp:
        root = Path(tmp)
        base = snooker_base(root, args.strokes, args.workers)
        logs, _, strokes = replicate(base, args.strokes, root / "season", per_file=20)
        db = root / "season.duckdb"
        con = connect(db)
        try:
            ingest_paths(con, [root / "season" / "logs"])
        finally:
            con.close()
        row = {
            "machine": machine(),
            "strokes": strokes,
            "log_files": len(logs),
            **measure(db, args.workers, args.rounds),
        }
    if args.json:
        print(json.dumps(row, indent=1))
    else:
        r = row["diff_over_replay"]
        print(f"{strokes} strokes, {row['frames']} frames ({row['frames_changed']} changed), {args.workers} worker(s)")
        print(f"replay {row['replay_s']['median']} s, diff {row['diff_s']['median']} s")
        print(f"diff / replay: {r['median']}x (low {r['low']}, high {r['high']}) over {args.rounds} round(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
