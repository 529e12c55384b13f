"""How fast the snooker engine replays: strokes per second over a synthetic season.

Run: python benchmarks/snooker_replay.py [frames]
Each frame is the shared 147 example and the officiating example, alternately (about 30
strokes a frame on average), replayed from decoded records (decoding is not timed).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from cuelog.schemas.records import Frame, Match, Record, Stroke

ROOT = Path(__file__).resolve().parent.parent


def season(frames: int) -> tuple[list[Record], int]:
    bodies = []
    for name in ("snooker-maximum", "snooker-officiating"):
        records = [r for _, r in read_records(ROOT / "examples" / f"{name}.jsonl")]
        match = records[0]
        assert isinstance(match, Match)
        bodies.append((match, [r for r in records[1:] if not isinstance(r, Frame)]))
    out: list[Record] = []
    strokes = 0
    for i in range(frames):
        match, body = bodies[i % 2]
        out.append(Match(format="cuelog/1", match=f"m{i:07d}", rules=match.rules, sides=match.sides, reds=match.reds))
        out.append(Frame(frame=1, breaker="B" if i % 2 == 0 else "A"))
        out.extend(body)
        strokes += sum(1 for r in body if isinstance(r, Stroke))
    return out, strokes


def main() -> None:
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    records, strokes = season(frames)
    t0 = time.perf_counter()
    results = replay_matches(records)
    dt = time.perf_counter() - t0
    print(f"{frames} frames, {strokes} strokes in {dt:.2f} s: {strokes / dt:,.0f} strokes/s ({len(results)} matches)")


if __name__ == "__main__":
    main()
