"""Replay speed of the billiards engine on long generated games.

Run: ``python benchmarks/bench_billiards.py [games] [strokes]``. Prints strokes per second.
The games are played through the engine's own fold with the calls it says are due, so the
replay does its full work (no finding short-cuts).
"""

from __future__ import annotations

import random
import sys
import time

from cuelog.replay.billiards import apply, new_frame, replay_frame
from cuelog.schemas.records import Call, Frame, Match, Respot, Stroke, other


def game(seed: int, strokes: int) -> tuple[Match, Frame, list[Stroke]]:
    rnd = random.Random(seed)
    match = Match(format="cuelog/1", match=f"bench-{seed}", rules="billiards/wpbsa-2024", sides={"A": "a", "B": "b"})
    frame = Frame(frame=1, breaker="A")
    state = new_frame(match, frame)
    out: list[Stroke] = []
    for n in range(1, strokes + 1):
        striker = state.striker or "A"
        cb, ob = state.cue[striker], state.cue[other(striker)]
        objects = ["red"] + ([ob] if ob in state.table else [])
        first = [rnd.choice(objects)]
        then = [b for b in objects if b not in first and rnd.random() < 0.5]
        potted = [b for b in [*first, *then] if rnd.random() < 0.4] + ([cb] if rnd.random() < 0.2 else [])
        placement = "legal" if cb not in state.table else None
        s = Stroke(frame=1, n=n, striker=striker, first=first, then=then, potted=potted, placement=placement)
        _, due, _ = apply(state, s)
        assert due is not None
        call = Call(foul=True, points=2) if due.foul else None
        s = Stroke(**{**{f: getattr(s, f) for f in s.__struct_fields__}, "call": call})
        s = Stroke(
            **{
                **{f: getattr(s, f) for f in s.__struct_fields__},
                "respots": [Respot(ball=b, spot=p) for b, p in due.respots],
            }
        )
        state, due, _ = apply(state, s)
        assert due is not None
        out.append(Stroke(**{**{f: getattr(s, f) for f in s.__struct_fields__}, "score": list(due.score)}))
    return match, frame, out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    strokes = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    data = [game(seed, strokes) for seed in range(games)]
    start = time.perf_counter()
    findings = 0
    for match, frame, records in data:
        findings += len(replay_frame(match, frame, records, None).findings)  # type: ignore[arg-type]
    took = time.perf_counter() - start
    total = games * strokes
    print(f"{total} strokes in {took:.2f} s: {total / took:,.0f} strokes/s ({findings} findings)")


if __name__ == "__main__":
    main()
