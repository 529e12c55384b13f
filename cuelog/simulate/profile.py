"""What a simulated season looks like, measured through the replay: break statistics for
snooker, averages (points per visit) by skill tier for billiards. The tests use these to
keep the player model resembling the game."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from cuelog.replay.model import MatchResult
from cuelog.simulate.players import Player


@dataclass(frozen=True, slots=True)
class SnookerProfile:
    frames: int
    century_frames: float
    """Share of frames with a century break."""
    fifty_frames: float
    """Share of frames with a break of 50 or more."""
    maximums: int
    highest: int
    winner_top_two: float
    """Share of the frame winner's points scored in their two best visits (median over frames)."""
    strokes_per_frame: float


def snooker_profile(results: Iterable[MatchResult], strokes: int) -> SnookerProfile:
    frames = centuries = fifties = maximums = highest = 0
    shares: list[float] = []
    for m in results:
        for fr in m.frames:
            frames += 1
            best = max((b.points for b in fr.breaks), default=0)
            highest = max(highest, best)
            centuries += best >= 100
            fifties += best >= 50
            maximums += best == 147
            if fr.winner is not None:
                mine = sorted((b.points for b in fr.breaks if b.side == fr.winner), reverse=True)
                total = fr.score[0 if fr.winner == "A" else 1]
                if total > 0:
                    shares.append(sum(mine[:2]) / total)
    shares.sort()
    return SnookerProfile(
        frames=frames,
        century_frames=centuries / max(frames, 1),
        fifty_frames=fifties / max(frames, 1),
        maximums=maximums,
        highest=highest,
        winner_top_two=shares[len(shares) // 2] if shares else 0.0,
        strokes_per_frame=strokes / max(frames, 1),
    )


def billiards_averages(results: Iterable[MatchResult], players: Iterable[Player]) -> dict[str, float]:
    """Points per visit by tier: the billiards average (S2 R5/R6 visits)."""
    tier = {p.name: p.tier for p in players}
    points: dict[str, int] = defaultdict(int)
    visits: dict[str, int] = defaultdict(int)
    for m in results:
        for fr in m.frames:
            for i, side in enumerate(("A", "B")):
                t = tier[m.sides[side]]
                # Points a side made itself: its breaks (penalties are the opponent's gift).
                points[t] += sum(b.points for b in fr.breaks if b.side == side)
                visits[t] += fr.visits[i]
    return {t: points[t] / visits[t] for t in sorted(points) if visits[t]}
