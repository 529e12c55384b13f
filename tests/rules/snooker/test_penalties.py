"""Fouls and penalty values: S3 R10, R11 (each value case), R10(e),(g), condonation R10(c)."""

from __future__ import annotations

import pytest

from cuelog.replay.model import CONDONED_FOUL, PENALTY_VALUE, SCORE_MISMATCH, UNSUPPORTED_FOUL

from ._build import event, foul, kinds, replay, stroke

RED_POTTED = stroke(1, "A", ["red"], ["red"])


def test_s3_r11_minimum_four_when_red_on() -> None:
    """S3 R11 (a)(vi): missing everything with Red on: four, not one."""
    _, (o,) = replay(stroke(1, "A", []))
    assert o.foul and o.penalty == 4 and o.reasons == ("no_contact",)


@pytest.mark.parametrize(
    ("colours_potted", "on", "value"),
    [(0, "yellow", 4), (3, "blue", 5), (4, "pink", 6), (5, "black", 7)],
)
def test_s3_r11a_vi_no_contact_worth_value_of_ball_on(colours_potted: int, on: str, value: int) -> None:
    """S3 R11(a)(vi): the cue-ball hits nothing: value of the ball on, minimum four."""
    colours = ["yellow", "green", "brown", "blue", "pink"][:colours_potted]
    strokes = [stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(colours)]
    strokes.append(stroke(len(strokes) + 1, "A", []))
    _, outcomes = replay(*strokes, reds=0)
    assert outcomes[-1].ball_on == on and outcomes[-1].penalty == value


def test_s3_r11a_vii_in_off_worth_value_of_ball_on() -> None:
    """S3 R11(a)(vii): cue-ball pocketed while on Pink: six; the cue-ball is then in hand (S2 R9)."""
    strokes = [stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue"])]
    strokes.append(stroke(5, "A", ["pink"], ["white"], call=foul(6)))
    result, outcomes = replay(*strokes, reds=0)
    assert outcomes[-1].penalty == 6 and outcomes[-1].reasons == ("cue_ball_potted",)
    assert result.score == (14, 6) and kinds(result) == []


def test_s3_r11b_iii_ball_not_on_pocketed_worth_ball_concerned() -> None:
    """S3 R11(b)(iii): Red on, Red hit, Black pocketed: seven; Black spotted."""
    _, (o,) = replay(stroke(1, "A", ["red"], ["black"], call=foul(7), respots=[("black", "black")]))
    assert o.penalty == 7 and o.respots == (("black", "black"),)


def test_s3_r11b_iv_first_hit_ball_not_on() -> None:
    """S3 R11(b)(iv): Red on, Blue hit first: five."""
    _, (o,) = replay(stroke(1, "A", ["blue"], call=foul(5)))
    assert o.penalty == 5 and o.reasons == ("first_contact",)


def test_s3_r11b_x_ball_forced_off_table() -> None:
    """S3 R11(b)(x): Red on, Pink forced off the table: six, and Pink is spotted (S3 R7)."""
    _, (o,) = replay(stroke(1, "A", ["red"], off_table=["pink"], call=foul(6), respots=[("pink", "pink")]))
    assert o.penalty == 6 and o.reasons == ("off_table",) and o.respots == (("pink", "pink"),)


def test_s3_r11c_two_balls_hit_simultaneously() -> None:
    """S3 R11(c), R6: Red on, Red and Green hit together: higher of the two balls concerned, four."""
    _, (o,) = replay(stroke(1, "A", ["red", "green"], call=foul(4)))
    assert o.penalty == 4 and o.reasons == ("simultaneous",)
    _, (o,) = replay(stroke(1, "A", ["red", "pink"], call=foul(6)))
    assert o.penalty == 6


@pytest.mark.parametrize("code", ["measuring", "wrong_cue_ball", "ball_off_table_used"])
def test_s3_r11d_seven_point_fouls(code: str) -> None:
    """S3 R11(d)(i),(ii),(iv): seven points whatever the ball on."""
    _, (o,) = replay(stroke(1, "A", ["red"], call=foul(7), infringements=[code]))
    assert o.penalty == 7 and code in o.reasons


@pytest.mark.parametrize(("code", "value"), [("jump_shot", 4), ("push_stroke", 4), ("double_hit", 4)])
def test_s3_r11_referee_judged_fouls_with_red_on(code: str, value: int) -> None:
    """S3 R11(a)(ii),(x), (b)(v): referee-judged fouls are worth the ball on, minimum four."""
    _, (o,) = replay(stroke(1, "A", ["red"], call=foul(value), infringements=[code]))
    assert o.penalty == value


def test_s3_r10g_several_fouls_highest_penalty_only() -> None:
    """S3 R10(g): in-off (4) and Black pocketed (7) in one stroke: seven, not eleven."""
    result, (o,) = replay(stroke(1, "A", ["red"], ["black", "white"], call=foul(7), respots=[("black", "black")]))
    assert o.penalty == 7 and set(o.reasons) == {"cue_ball_potted", "ball_not_on_potted"}
    assert result.score == (0, 7)


def test_s3_r10e_no_points_for_balls_pocketed_in_a_foul_stroke() -> None:
    """S3 R10(e): Red pocketed in a foul stroke (Black hit first) does not score; the break before counts."""
    result, (_, _, o) = replay(
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
        stroke(3, "A", ["black"], ["red"], call=foul(7), score=[8, 7]),
    )
    assert o.scored == 0 and o.penalty == 7
    assert result.score == (8, 7) and [b.points for b in result.breaks] == [8]


def test_s3_r10e_reds_pocketed_in_a_foul_stay_off() -> None:
    """S3 R3(i): Reds pocketed in a foul are not replaced; the last one gone means the colours are on."""
    _, (_, o) = replay(
        stroke(1, "A", ["black"], ["red"], call=foul(7)), stroke(2, "B", ["yellow"], ["yellow"], respots=[]), reds=1
    )
    assert o.ball_on == "yellow" and o.scored == 2


def test_penalty_value_wrong_points_corrected_in_score() -> None:
    """S3 R11(b)(iv): Black hit first with Red on is worth 7; called 4: penalty_value, score has 7."""
    result, _ = replay(stroke(1, "A", ["black"], call=foul(4), score=[0, 4]))
    assert kinds(result) == [(1, PENALTY_VALUE)]
    assert result.findings[0].points == 3 and result.findings[0].rule == "S3 R11(b)(iv)"
    assert result.score == (0, 7) and result.recorded == (0, 4)


def test_s3_r10c_condoned_foul_stands_and_its_pot_counts() -> None:
    """S3 R10(c): Pink hit first, Red potted, not called: condoned (worth 6), the Red scores, A plays on."""
    result, (o, _o2) = replay(
        stroke(1, "A", ["pink"], ["red"], score=[1, 0]),
        stroke(2, "A", ["blue"], ["blue"], nominated="blue", respots=[("blue", "blue")], score=[6, 0]),
    )
    assert o.foul and o.penalty == 6
    assert kinds(result) == [(1, CONDONED_FOUL)] and result.findings[0].points == 6
    assert result.score == (6, 0)


def test_unsupported_foul_keeps_the_called_penalty() -> None:
    """S3 R10(b): a foul called where the facts (infringements known, Red hit first) show none."""
    result, (o,) = replay(stroke(1, "A", ["red"], call=foul(4), infringements=[], score=[0, 4]))
    assert not o.foul
    assert kinds(result) == [(1, UNSUPPORTED_FOUL)] and result.findings[0].points == 4
    assert result.score == (0, 4)


def test_called_foul_with_unknown_infringements_is_not_contradicted() -> None:
    """FORMAT 1.2: with ``infringements`` absent the referee may have seen a foul the log does not hold."""
    result, _ = replay(stroke(1, "A", ["red"], call=foul(4), score=[0, 4]))
    assert kinds(result) == []


def test_score_mismatch_when_scoreboard_moves_wrongly() -> None:
    """S3 R1(c): a Red potted but the scoreboard moved by two: score_mismatch, reported once."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"], score=[2, 0]),
        stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")], score=[9, 0]),
    )
    assert kinds(result) == [(1, SCORE_MISMATCH)]
    assert result.score == (8, 0) and result.recorded == (9, 0)


def test_s3_r10i_foul_before_striking_event() -> None:
    """S3 R10(i), R11(b)(vi): touching the Black while addressing, Red on: seven to the opponent."""
    result, _ = replay(event(0, "foul", "A", code="touched_ball", ball="black", points=7), stroke(1, "B", ["red"]))
    assert result.score == (0, 7) and kinds(result) == []
    result, _ = replay(event(0, "foul", "A", code="touched_ball", ball="black", points=4))
    assert kinds(result) == [(0, PENALTY_VALUE)] and result.score == (0, 7)


def test_s3_r11d_vi_foul_before_nomination_up_to_seven_accepted() -> None:
    """S3 R11(d)(vi): after a Red, a foul with no nomination recorded may be worth seven; 4..7 stand."""
    result, _ = replay(RED_POTTED, stroke(2, "A", [], call=foul(7)))
    assert kinds(result) == [] and result.score == (1, 7)
    result, _ = replay(RED_POTTED, stroke(2, "A", [], call=foul(4)))
    assert kinds(result) == [] and result.score == (1, 4)


def test_s3_r3k_r11e_non_striker_penalty_leaves_the_turn_unchanged() -> None:
    """S3 R3(k), R11(e): B touches the Blue during A's break: five to A, A's break goes on."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"]),
        event(1, "foul", "B", code="touched_ball", ball="blue", points=5),
        stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
    )
    assert kinds(result) == [] and result.score == (13, 0)
    assert [(b.points, b.from_, b.to) for b in result.breaks] == [(8, 1, 2)]


def test_s3_r11g_non_striker_measuring_is_seven() -> None:
    """S3 R11(g)(ii): the non-striker measuring a gap: seven, recorded as four is wrong."""
    result, _ = replay(stroke(1, "A", ["red"], ["red"]), event(1, "foul", "B", code="measuring", points=4))
    assert kinds(result) == [(1, PENALTY_VALUE)] and result.findings[0].rule == "S3 R11(g)"


@pytest.mark.parametrize(
    ("code", "rule", "value"),
    [
        ("double_hit", "S3 R11(a)(ii)", 4),
        ("feet_off_floor", "S3 R11(a)(iii)", 4),
        ("jump_shot", "S3 R11(a)(x)", 4),
        ("non_standard_cue", "S3 R11(a)(xi)", 4),
        ("coaching", "S3 R11(a)(xii)", 4),
        ("balls_moving", "S3 R11(b)(i)", 6),
        ("before_spotted", "S3 R11(b)(ii)", 6),
        ("push_stroke", "S3 R11(b)(v)", 6),
        ("touched_ball", "S3 R11(b)(vi)", 6),
        ("ball_off_table_used", "S3 R11(d)(i)", 7),
        ("measuring", "S3 R11(d)(ii)", 7),
        ("wrong_cue_ball", "S3 R11(d)(iv)", 7),
    ],
)
def test_s3_r11_each_referee_judged_foul_value(code: str, rule: str, value: int) -> None:
    """S3 R11(a),(b),(d): Red on, the Pink the ball concerned: (a) fouls four, (b) fouls six, (d) seven."""
    from cuelog.schemas.records import Infringement, Stroke

    s = Stroke(
        frame=1, n=1, striker="A", first=["red"], potted=[], infringements=[Infringement(code=code, ball="pink")]
    )
    result, (o,) = replay(s)
    assert o.foul and o.penalty == value and o.reasons == (code,)
    assert kinds(result) == [(1, CONDONED_FOUL)] and result.findings[0].rule == rule


@pytest.mark.parametrize(("called", "due"), [(3, 4), (8, 7), (0, 4), (1_000_000, 7)])
def test_s3_r11_called_value_out_of_range_when_the_facts_show_no_foul(called: int, due: int) -> None:
    """S3 R11: whatever the facts, a foul is worth four to seven. A foul called for a value no
    foul can carry is a ``penalty_value`` even where the facts show no foul (infringements
    unknown, so the call itself is not contradicted, S8), and the official score books the
    nearest value the rules give."""
    result, _ = replay(stroke(1, "A", ["red"], call=foul(called), score=[0, called]))
    assert kinds(result) == [(1, PENALTY_VALUE)]
    assert result.findings[0].points == abs(called - due)
    assert result.score == (0, due) and result.recorded == (0, called)


def test_s3_r11_called_value_below_the_ball_on_when_the_facts_show_no_foul() -> None:
    """S3 R11(a): with the Black on every foul is worth seven: a foul called for five on a
    stroke the facts show clean (infringements known) is unsupported and the wrong value."""
    strokes = [stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue"])]
    strokes.append(stroke(5, "A", ["pink"], ["pink"], respots=[]))
    strokes.append(stroke(6, "A", ["black"], call=foul(5), infringements=[]))
    result, _ = replay(*strokes, reds=0)
    assert kinds(result) == [(6, UNSUPPORTED_FOUL), (6, PENALTY_VALUE)]
    assert result.score == (20, 7)


def test_s3_r11_called_value_in_range_without_a_foul_stands() -> None:
    """S3 R11, ruling S8: a foul called for five with Red on and no foul in the facts: five is a
    value a foul can carry, so it stands and nothing is said of the value."""
    result, _ = replay(stroke(1, "A", ["red"], call=foul(5), score=[0, 5]))
    assert kinds(result) == [] and result.score == (0, 5)


def test_s3_r10i_wrong_event_foul_value_is_not_reported_again_on_the_scoreboard() -> None:
    """S3 R10(i), FORMAT 7: a foul before the stroke recorded for four where seven is due is one
    ``penalty_value``; the next scoreboard showing the four recorded is not a ``score_mismatch``."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"], score=[1, 0]),
        stroke(2, "A", ["black"], nominated="black", score=[1, 0]),
        event(2, "foul", "B", code="touched_ball", ball="black", points=4),
        stroke(3, "A", ["red"], ["red"], score=[6, 0]),
    )
    assert kinds(result) == [(2, PENALTY_VALUE)]
    assert result.score == (9, 0)
