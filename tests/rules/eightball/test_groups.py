"""Open table and groups: decided by a single colour or a nomination (WE H, EPF H), by the
called ball (WPA 3.4), by one group only on a normal shot (BB 5.6); never on a foul."""

from __future__ import annotations

import pytest

from cuelog.replay.model import CONDONED_FOUL, GROUP_ERROR

from ._build import BB, GROUP_EDITIONS, WPA, fair_break, fold, foul, kinds, nominate, replay, stroke


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_h3a_single_colour_potted_decides(rules: str) -> None:
    """WE H(3)(a), EPF H: after the break, potting balls of one colour puts the player on it."""
    st = fold(fair_break(), stroke(2, "B", ["yellow"], ["yellow"]), rules=rules)
    assert st.groups == {"B": "yellow", "A": "red"} and st.striker == "B"


@pytest.mark.parametrize("rules", GROUP_EDITIONS)
def test_we_epf_h3b_both_colours_potted_nominate(rules: str) -> None:
    """WE H(3)(b): both colours potted: the player nominates, and is on that colour."""
    st = fold(
        fair_break(),
        stroke(2, "B", ["yellow"], ["yellow", "red"]),
        nominate(2, "B", "red"),
        rules=rules,
    )
    assert st.groups == {"B": "red", "A": "yellow"} and st.must_nominate is None


def test_we_h3b_k14_playing_without_nominating_is_a_foul() -> None:
    """WE H(3)(b), K(14), H(1)(d): playing on without nominating: standard foul, two visits,
    and the opponent faces an open table."""
    result, outcomes = replay(
        fair_break(),
        stroke(2, "B", ["yellow"], ["yellow", "red"]),
        stroke(3, "B", ["yellow"], ["yellow"], call=foul(2)),
    )
    st = fold(
        fair_break(),
        stroke(2, "B", ["yellow"], ["yellow", "red"]),
        stroke(3, "B", ["yellow"], ["yellow"], call=foul(2)),
    )
    assert outcomes[-1].reasons == ("no_nomination",) and st.groups == {} and st.striker == "A"
    assert kinds(result) == []


def test_we_h2b_colour_potted_on_break_must_be_nominated() -> None:
    """WE H(2)(b): a colour potted on the break obliges the breaker to nominate; not doing so
    and not being called is a condoned foul."""
    result, _ = replay(stroke(1, "A", ["red"], ["red"]), stroke(2, "A", ["red"], ["red"]))
    assert kinds(result) == [(2, CONDONED_FOUL)]


def test_we_h2c_i_nominating_a_colour_potted_on_the_break_fixes_it() -> None:
    """WE H(2)(c)(i): nominating a colour potted on the break: on it "no matter what happens next"."""
    st = fold(stroke(1, "A", ["red"], ["red"]), nominate(1, "A", "red"), stroke(2, "A", ["red"], rail=True))
    assert st.groups == {"A": "red", "B": "yellow"} and st.striker == "B"


def test_we_h2c_ii_nominating_an_unpotted_colour_must_pot_it_next() -> None:
    """WE H(2)(c)(ii): nominating a colour not potted on the break, the player must pot it on
    the next shot to be on it; a miss leaves the table open."""
    st = fold(stroke(1, "A", ["red"], ["red"]), nominate(1, "A", "yellow"), stroke(2, "A", ["yellow"], rail=True))
    assert st.groups == {} and st.striker == "B"
    st = fold(stroke(1, "A", ["red"], ["red"]), nominate(1, "A", "yellow"), stroke(2, "A", ["yellow"], ["yellow"]))
    assert st.groups == {"A": "yellow", "B": "red"} and st.tentative is None


@pytest.mark.parametrize("rules", [*GROUP_EDITIONS, BB])
def test_we_h1b_bb_5_6_never_decided_on_a_foul(rules: str) -> None:
    """WE H(1)(b), BB 5.6 ("a legal normal shot"): a foul shot decides no group."""
    st = fold(fair_break(), stroke(2, "B", ["yellow"], ["yellow", "white"], call=foul(2)), rules=rules)
    assert st.groups == {}


def test_wpa_3_4_legal_pot_of_called_ball_decides() -> None:
    """WPA 3.4: the called ball legally pocketed decides the groups."""
    st = fold(
        fair_break(), stroke(2, "B", ["12"], ["12"], nominated="12", pocket_called="TL", pockets=["TL"]), rules=WPA
    )
    assert st.groups == {"B": "stripes", "A": "solids"} and st.striker == "B"


def test_wpa_3_4_uncalled_ball_decides_nothing() -> None:
    """WPA 3.4: the 3 called, only the 12 pocketed: the table stays open and play passes."""
    st = fold(fair_break(), stroke(2, "B", ["3"], ["12"], nominated="3"), rules=WPA)
    assert st.groups == {} and st.striker == "A"


def test_wpa_3_4_open_table_eight_first_is_a_foul() -> None:
    """WPA 3.4: on an open table any object ball may be struck first except the eight."""
    _, outcomes = replay(fair_break(), stroke(2, "B", ["8"], rail=True, call=foul(in_hand=True)), rules=WPA)
    assert outcomes[-1].reasons == ("wrong_ball_first",)


def test_wpa_3_3c_table_open_after_break_pots() -> None:
    """WPA 3.3(c): balls pocketed on the break leave the table open; the breaker continues."""
    st = fold(stroke(1, "A", ["1"], ["3", "11"]), rules=WPA)
    assert st.groups == {} and st.striker == "A"


def test_bb_5_6_one_group_only_decides() -> None:
    """BB 5.6: pots from one group only on a legal normal shot decide the groups."""
    st = fold(fair_break(), stroke(2, "B", ["yellow"], ["yellow", "yellow"]), rules=BB)
    assert st.groups == {"B": "yellow", "A": "red"}


def test_bb_5_6_both_groups_table_stays_open() -> None:
    """BB 5.6: balls of both groups pocketed: the table stays open, the player continues (5.7)."""
    st = fold(fair_break(), stroke(2, "B", ["yellow"], ["yellow", "red"]), rules=BB)
    assert st.groups == {} and st.striker == "B"


def test_bb_5_6_not_on_a_free_shot() -> None:
    """BB 5.6: a free shot is not a normal shot: it decides no group."""
    st = fold(
        fair_break(),
        stroke(2, "B", ["yellow"], ["white"], call=foul()),
        stroke(3, "A", ["red"], ["red"]),
        rules=BB,
    )
    assert st.groups == {} and st.striker == "A"


def test_bb_5_6_not_on_the_break() -> None:
    """BB 5.6: the break decides nothing."""
    st = fold(stroke(1, "A", ["red"], ["red"]), rules=BB)
    assert st.groups == {} and st.striker == "A"


@pytest.mark.parametrize("rules", [WPA, BB])
def test_wpa_3_4_bb_5_6_group_recorded_against_the_rules(rules: str) -> None:
    """WPA 3.4, BB 5.6: a group recorded for a side on another group is a group error."""
    ball = "12" if rules == WPA else "yellow"
    group = "solids" if rules == WPA else "red"
    result, _ = replay(
        fair_break(),
        stroke(2, "B", [ball], [ball], nominated=ball if rules == WPA else None),
        nominate(2, "B", group),
        rules=rules,
    )
    assert kinds(result) == [(2, GROUP_ERROR)]


def test_we_h_nomination_when_none_is_due_is_a_group_error() -> None:
    """WE H(1)(c): once decided a player stays on the colour; a later nomination of the other is an error."""
    result, _ = replay(fair_break(), stroke(2, "B", ["yellow"], ["yellow"]), nominate(2, "B", "red"))
    assert kinds(result) == [(2, GROUP_ERROR)]


def test_group_nomination_of_an_unknown_group() -> None:
    """WE H(2)(b): the nomination must name a colour of the game."""
    result, _ = replay(stroke(1, "A", ["red"], ["red"]), nominate(1, "A", "stripes"))
    assert kinds(result) == [(1, GROUP_ERROR)]
