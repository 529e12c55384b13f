"""S3 R2(b) start of game, S2 R13 in-hand, S3 R3 mode of play, S3 R15(e) playing out of turn."""

from __future__ import annotations

from tests.rules.billiards._build import kinds, miss, replay, stroke


def test_start_red_on_spot_first_player_in_hand_s3_r2b() -> None:
    """The Red starts on the Spot (a lone pot from it is the first of a sequence, S3 R9(b));
    the first player is in-hand, the other ball off the table: no cannon is possible."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"], then=["yellow"], placement="legal", respots=[("red", "spot")], score=[3, 0]),
        stroke(2, "A", ["red"], ["red"], respots=[("red", "centre")], score=[6, 0]),
    )
    # ``then`` names the Yellow, but it is not on the table: no cannon, only the pot.
    assert outcomes[0].scored == 3
    assert outcomes[1].respots == (("red", "centre"),)
    assert kinds(result) == [(1, "invalid_record")]


def test_non_strikers_ball_enters_from_in_hand_s2_r13() -> None:
    """B's ball is off the table until B plays; B then plays from in-hand (S2 R13(a)(i))."""
    _, outcomes = replay(
        stroke(1, "A", ["red"], placement="legal", score=[0, 0], positions=[("red", 889, 600), ("white", 889, 500)]),
        stroke(2, "B", [], placement="legal", cue_first=True, call=miss(), score=[2, 0]),
    )
    # Both object balls in Baulk and B in-hand: a miss, not a foul (S2 R16).
    assert outcomes[1].miss and not outcomes[1].foul


def test_cue_balls_from_the_match_record() -> None:
    """``cue_balls`` says who plays which ball: here A plays the Yellow."""
    _, outcomes = replay(
        stroke(1, "A", ["red"], ["yellow"], placement="legal", score=[3, 0]),
        cue_balls={"A": "yellow", "B": "white"},
    )
    assert outcomes[0].scored == 3  # in-off Red with A's own ball


def test_playing_out_of_turn_is_reported_s3_r15e() -> None:
    """B plays again after failing to score: wrong_striker, worth the two-point foul."""
    result, _ = replay(
        stroke(1, "A", ["red"], placement="legal", score=[0, 0]),
        stroke(2, "B", ["red"], placement="legal", score=[0, 0]),
        stroke(3, "B", ["red"], score=[0, 0]),
    )
    assert kinds(result) == [(3, "wrong_striker")]
    assert result.findings[0].rule == "S3 R15(e)" and result.findings[0].points == 2


def test_wrong_player_starting_is_not_a_foul_s3_r2d() -> None:
    """The game started by the wrong player: reported, no penalty (S3 R2(d))."""
    result, _ = replay(stroke(1, "B", ["red"], placement="legal", score=[0, 0]), breaker="A")
    assert kinds(result) == [(1, "wrong_striker")]
    assert result.findings[0].points == 0 and result.findings[0].rule == "S3 R2(b)"


def test_next_game_started_by_the_other_player_s3_r2d() -> None:
    """With no ``breaker`` in the frame record, the start alternates from the previous game."""
    from cuelog.replay.billiards import replay_frame
    from cuelog.schemas.records import Frame
    from tests.rules.billiards._build import match

    first = replay_frame(match(), Frame(frame=1, breaker="A"), [stroke(1, "A", ["red"], placement="legal")], None)
    assert first.breaker == "A"
    second = replay_frame(match(), Frame(frame=2), [stroke(1, "A", ["red"], placement="legal")], first)
    assert second.breaker == "B"
    assert [(f.n, f.kind) for f in second.findings] == [(1, "wrong_striker")]


def test_unknown_side_is_an_invalid_record() -> None:
    result, outcomes = replay(stroke(1, "C", ["red"], placement="legal"), stroke(2, "A", ["red"], placement="legal"))
    assert kinds(result) == [(1, "invalid_record")]
    assert len(outcomes) == 1


def test_apply_does_not_change_its_input_state() -> None:
    """The fold is pure: asking for a stroke's due call leaves the state as it was."""
    from cuelog.replay.billiards import apply, new_frame
    from cuelog.schemas.records import Frame
    from tests.rules.billiards._build import match

    st = new_frame(match(), Frame(frame=1, breaker="A"))
    table, score = dict(st.table), st.ledger.score()
    st2, outcome, _ = apply(st, stroke(1, "A", ["red"], ["red", "white"], placement="legal", score=[6, 0]))
    assert outcome is not None and outcome.scored == 6
    assert st.table == table and st.ledger.score() == score and st.last_n == 0
    assert st2.ledger.score() == (6, 0) and st2.last_n == 1
