"""S3 R15 fouls, S3 R16 action after a foul: two points, never more, options play / spot_play."""

from __future__ import annotations

import pytest

from cuelog.replay.billiards import apply, new_frame
from cuelog.schemas.records import Frame
from tests.rules.billiards._build import CENTRE, SPOT, choice, event, foul, kinds, match, replay, stroke


@pytest.mark.parametrize(
    ("code", "rule"),
    [
        ("wrong_cue_ball", "S3 R15(a)"),
        ("double_hit", "S3 R15(b)"),
        ("balls_moving", "S3 R15(c)"),
        ("feet_off_floor", "S3 R15(d)"),
        ("jump_shot", "S3 R15(h)"),
        ("push_stroke", "S3 R15(i)"),
        ("touched_ball", "S3 R15(m)"),
        ("before_spotted", "S3 R15(n)"),
        ("coaching", "S3 R15(p)"),
        ("non_standard_cue", "S3 R15(q)"),
        ("ball_off_table_used", "S3 R15(r)"),
        ("measuring", "S3 R15(s)"),
    ],
)
def test_referee_judged_fouls_s3_r15(code: str, rule: str) -> None:
    """Each infringement of S3 R15 is a foul: not called, it is condoned at 2 points under its rule."""
    result, outcomes = replay(
        stroke(
            1, "A", ["red"], ["red"], placement="legal", infringements=[code], respots=[("red", "spot")], score=[3, 0]
        )
    )
    assert outcomes[0].foul and outcomes[0].reasons == (code,)
    assert kinds(result) == [(1, "condoned_foul")]
    assert (result.findings[0].rule, result.findings[0].points) == (rule, 2)
    # Condoned: the stroke stands as played, the Red counts (S3 R16(d)).
    assert result.score == (3, 0)
    # The due call is the foul's (2 to B, nothing scored); what stood credited A with 3.
    assert (outcomes[0].scored, outcomes[0].penalty, outcomes[0].credited) == (0, 2, 3)


def test_due_call_and_credit_of_a_called_foul_s3_r16() -> None:
    """S3 R16(b),(c): a foul called scores nothing and gives 2; nothing is credited to the striker."""
    _, outcomes = replay(stroke(1, "A", ["red"], ["red"], placement="illegal", call=foul(), score=[0, 2]))
    assert (outcomes[0].scored, outcomes[0].penalty, outcomes[0].credited) == (0, 2, 0)


def test_due_call_of_an_unsupported_foul_s3_r4() -> None:
    """A foul called on a legal pot of the Red (S3 R4): the due call is 3 scored; the call as made stood."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", infringements=[], call=foul(), score=[0, 2])
    )
    assert (outcomes[0].scored, outcomes[0].penalty, outcomes[0].credited) == (3, 0, 0)
    assert result.score == (0, 2)


def test_ball_forced_off_the_table_s3_r15j() -> None:
    result, outcomes = replay(
        stroke(
            1, "A", ["red"], off_table=["red"], placement="legal", call=foul(), respots=[("red", "spot")], score=[0, 2]
        )
    )
    assert outcomes[0].reasons == ("off_table",)
    assert kinds(result) == []


def test_never_more_than_two_points_in_one_stroke_s3_r16c() -> None:
    """Three fouls in one stroke still cost two points."""
    result, outcomes = replay(
        stroke(
            1, "A", ["red"], placement="illegal", infringements=["push_stroke", "double_hit"], call=foul(), score=[0, 2]
        )
    )
    assert outcomes[0].penalty == 2 and len(outcomes[0].reasons) == 3
    assert kinds(result) == []


def test_no_score_in_a_foul_stroke_s3_r16b() -> None:
    """Points scored earlier in the break count; the foul stroke's do not."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[3, 0]),
        stroke(
            2,
            "A",
            ["red"],
            ["red"],
            infringements=["push_stroke"],
            call=foul(),
            respots=[("red", "spot")],
            score=[3, 2],
        ),
    )
    assert kinds(result) == []
    assert result.score == (3, 2)
    assert [(b.side, b.points) for b in result.breaks] == [("A", 3)]
    assert outcomes[1].turn_ends and outcomes[1].next_striker == "B"


def test_wrong_penalty_value_is_corrected() -> None:
    """A foul called for 4: penalty_value; the rules' score counts 2 and no score_mismatch repeats it."""
    result, _ = replay(stroke(1, "A", ["red"], placement="illegal", call=foul(4), score=[0, 4]))
    assert kinds(result) == [(1, "penalty_value")]
    assert result.score == (0, 2) and result.recorded == (0, 4)


def test_foul_called_against_the_facts() -> None:
    """A foul called on a legal stroke: unsupported_foul; the call as made stands."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", call=foul(), respots=[("red", "spot")], score=[0, 2])
    )
    assert kinds(result) == [(1, "unsupported_foul")]
    assert result.score == (0, 2)


def test_spot_play_option_s3_r16c_ii() -> None:
    """After a foul, spot_play: the Red on the Spot, the offender's ball on the Centre Spot, in-hand.

    B then pots the Red twice from the Spot: the second goes to the Centre Spot (S3 R9(b)), so the
    Red really was on the Spot; and the Yellow on the Centre is hit for a cannon.
    """
    result, outcomes = replay(
        stroke(1, "A", ["red"], placement="legal", score=[0, 0]),
        stroke(2, "B", ["red"], placement="illegal", call=foul(), score=[2, 0]),
        choice(2, "A", "spot_play"),
        stroke(3, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[5, 0]),
        stroke(4, "A", ["red"], ["red"], respots=[("red", "centre")], score=[8, 0]),
        stroke(5, "A", ["yellow"], then=["red"], score=[10, 0]),
    )
    assert kinds(result) == []
    assert outcomes[3].respots == (("red", "centre"),)
    assert outcomes[4].scored == 2


def test_spot_play_state() -> None:
    """The fold itself: after spot_play the incoming player is in-hand with the balls spotted."""
    st = new_frame(match(), Frame(frame=1, breaker="A"))
    st, _, _ = apply(st, stroke(1, "A", ["red"], placement="illegal", call=foul(), score=[0, 2]))
    st, _, fs = apply(st, choice(1, "B", "spot_play"))
    assert fs == []
    assert st.table["red"] == SPOT and st.table["white"] == CENTRE and "yellow" not in st.table


def test_choice_without_a_foul_is_invalid() -> None:
    result, _ = replay(stroke(1, "A", ["red"], placement="legal", score=[0, 0]), choice(1, "B", "spot_play"))
    assert kinds(result) == [(1, "invalid_record")]


def test_foul_event_without_a_stroke_s3_r16a() -> None:
    """A foul before a stroke (touching a ball while addressing): 2 points, the turn ends."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[3, 0]),
        event(1, "foul", "A", code="touched_ball", points=2),
        stroke(2, "B", ["red"], placement="legal", score=[3, 2]),
    )
    assert kinds(result) == []
    assert result.score == (3, 2)
    assert outcomes[1].striker == "B"


@pytest.mark.parametrize("called", [3, 8, 0, 1_000_000])
def test_foul_called_for_a_value_no_foul_carries_s3_r15(called: int) -> None:
    """S3 R15, R16: every foul is worth two. A foul called on a legal stroke for another value
    is ``unsupported_foul`` and ``penalty_value``; the official score books two."""
    result, _ = replay(
        stroke(
            1, "A", ["red"], ["red"], placement="legal", call=foul(called), respots=[("red", "spot")], score=[0, called]
        )
    )
    assert kinds(result) == [(1, "unsupported_foul"), (1, "penalty_value")]
    assert result.findings[1].points == abs(called - 2)
    assert result.score == (0, 2)


def test_foul_event_with_the_wrong_value_is_reported_once_s3_r16a() -> None:
    """S3 R16(a), FORMAT 7: a foul before the stroke recorded for three is one ``penalty_value``;
    the next scoreboard, which booked the three, is not charged with it again."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[3, 0]),
        event(1, "foul", "A", code="touched_ball", points=3),
        stroke(2, "B", ["red"], placement="legal", score=[3, 3]),
    )
    assert kinds(result) == [(1, "penalty_value")]
    assert result.score == (3, 2)
