"""The player model: skill turns into chances the way the game behaves."""

from __future__ import annotations

import random

from cuelog.simulate.players import TIERS, make_player, next_difficulty, pot_chance


def test_pot_chance_falls_with_difficulty_for_every_tier() -> None:
    rng = random.Random(1)
    for tier in TIERS:
        p = make_player(rng, tier, set())
        chances = [pot_chance(p, d / 10) for d in range(11)]
        assert chances == sorted(chances, reverse=True)
        assert chances[0] > 0.7 and chances[-1] < 0.5


def test_better_tiers_pot_more_and_leave_easier_shots() -> None:
    rng = random.Random(2)
    pro, club = make_player(rng, "pro", set()), make_player(rng, "club", set())
    assert pot_chance(pro, 0.4) > pot_chance(club, 0.4)
    pro_next = sum(next_difficulty(rng, pro) for _ in range(2000)) / 2000
    club_next = sum(next_difficulty(rng, club) for _ in range(2000)) / 2000
    assert pro_next < club_next


def test_players_get_distinct_names() -> None:
    rng, used = random.Random(3), set()
    names = [make_player(rng, "pro", used).name for _ in range(40)]
    assert len(set(names)) == 40
