"""The end of a rack: concession (WE C(7)(b), WPA 1.11), stalemate (WE W, WPA 3.11, BB
5.12), the recorded end, alternate breaks (WE F(2), WPA 3.1, BB 5.3)."""

from __future__ import annotations

import pytest

from cuelog.replay.model import FRAME_END_ERROR
from cuelog.replay.pool.eightball import new_frame, replay_frame
from cuelog.schemas.records import Frame

from ._build import BB, GROUP_EDITIONS, WPA, end, event, fair_break, fold, groups_decided, kinds, match, replay, stroke

ALL = (*GROUP_EDITIONS, WPA, BB)


@pytest.mark.parametrize("rules", ALL)
def test_we_c7b_wpa_1_11_concession_loses_the_frame(rules: str) -> None:
    """WE C(7)(b) ("at any time"), WPA 1.11, EPF NS (docs/rulings.md): the conceding side loses."""
    result, _ = replay(*groups_decided(rules), event(3, "concede", "A"), end("B", "concede"), rules=rules)
    assert result.winner == "B" and result.end_reason == "concede" and kinds(result) == []


@pytest.mark.parametrize("rules", ALL)
def test_we_w_wpa_3_11_bb_5_12_stalemate_same_breaker(rules: str) -> None:
    """WE W, WPA 3.11, BB 5.12: after a stalemate the rack is replayed, the same player breaking."""
    st = fold(*groups_decided(rules), event(3, "rerack"), rules=rules)
    assert st.breaking and st.breaker == "A" and st.striker == "A" and st.groups == {}
    assert sum(st.table.values()) == 15


@pytest.mark.parametrize("rules", ALL)
def test_frame_recorded_ended_while_in_play(rules: str) -> None:
    """WE D(1), WPA 3.5: a rack recorded as won with the black still on the table."""
    result, _ = replay(*groups_decided(rules), end("B"), rules=rules)
    assert kinds(result) == [(3, FRAME_END_ERROR)]


@pytest.mark.parametrize("rules", ALL)
def test_we_f2_wpa_3_1_breaks_alternate(rules: str) -> None:
    """WE F(2), WPA 3.1, BB 5.3: the break alternates from rack to rack."""
    m = match(rules)
    first = replay_frame(m, Frame(frame=1, breaker="A"), [fair_break("A")], None)
    assert new_frame(m, Frame(frame=2), first).striker == "B"


def test_replay_frame_sorts_findings_and_keeps_outcomes() -> None:
    """replay_frame: the public seam the replay uses (docs/format.md section 7)."""
    m = match()
    recs = [fair_break(), stroke(2, "A", ["red"], rail=True), end("B")]
    result = replay_frame(m, Frame(frame=1, breaker="A"), recs, None)
    assert [o.n for o in result.outcomes] == [1, 2] and [f.n for f in result.findings] == [2, 2]
