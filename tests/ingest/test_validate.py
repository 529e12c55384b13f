"""`cuelog validate`: every problem of every file, with file, line, field and a stable code."""

from __future__ import annotations

import gzip
import json

import pytest

from cuelog.errors import InputError
from cuelog.ingest.files import validate_file
from cuelog.ingest.reader import read_records
from tests.conftest import EXAMPLE_LOGS, EXAMPLES
from tests.ingest.conftest import cli, frame, match, stroke, write
from tests.ingest.corpus import CASES


def test_examples_are_valid():
    result = cli("validate", EXAMPLES)
    assert result.exit_code == 0, result.stderr
    logs = [p for p in EXAMPLES.glob("*.jsonl") if not p.name.endswith(".corrections.jsonl")]
    assert f"{len(logs)} file(s) checked: valid" in result.stderr


def test_examples_are_valid_as_json():
    result = cli("validate", *EXAMPLE_LOGS, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"valid": True, "problems": []}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_input_is_reported_with_file_line_and_code(case, tmp_path):
    path = case.make(tmp_path)
    result = cli("validate", path, "--json")
    assert result.exit_code == 2
    problems = json.loads(result.stdout)["problems"]
    hits = [p for p in problems if p["code"] in case.codes and p["file"] == str(path)]
    assert hits, problems
    hit = hits[0]
    if case.line:
        assert hit["line"] == case.line
    else:
        assert hit["line"] >= 1
    if case.field is not None:
        assert hit["field"] == case.field
    assert hit["expected"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_input_never_raises_from_the_library(case, tmp_path):
    """The reader and validator turn every bad input into Problems, never a traceback."""
    problems = validate_file(case.make(tmp_path))
    assert problems
    assert all(p.file.endswith(case.make(tmp_path).name) for p in problems)


def test_table_on_stderr_names_file_line_field_and_code(tmp_path):
    path = write(tmp_path / "bad.jsonl", [match(), frame(), stroke(1, potted=["purple"])])
    result = cli("validate", path)
    assert result.exit_code == 2
    assert result.stdout == ""
    out = result.stderr.replace("\n", " ")
    for text in ("bad.jsonl", "unknown_ball", "potted[0]", "purple", "1 problem(s) in 1 file(s)"):
        assert text in out


def test_every_problem_is_reported_not_only_the_first(tmp_path):
    """A broken line does not stop the checks of the lines after it."""
    path = write(
        tmp_path / "many.jsonl",
        [
            match(),
            frame(),
            stroke(1, striker="C"),  # line 3
            '{"type": "stroke", "frame": 1, "n": 2,',  # line 4: truncated
            stroke(3, potted=["red"], pockets=[]),  # line 5
            stroke(3),  # line 6: n repeats
            stroke(4, score=[1.5, 2], potted=["plum"]),  # line 7: two problems on one line
            {"type": "choice", "frame": 1, "after": 99, "side": "A", "option": "play"},  # line 8
        ],
    )
    got = {(p.line, p.code) for p in validate_file(path)}
    assert got == {
        (3, "bad_side"),
        (4, "invalid_json"),
        (5, "pockets_length"),  # no n_gap: stroke 2 is the broken line 4, reported once
        (6, "n_not_increasing"),
        (7, "wrong_type"),
        (7, "unknown_ball"),
        (8, "after_unknown"),
    }


def test_ball_names_follow_the_ruleset(tmp_path):
    """A billiards match has no pink; a numbered pool match has ball "9"."""
    billiards = write(
        tmp_path / "b.jsonl", [match(rules="billiards/wpbsa-2024"), frame(), stroke(1, first=["pink"], potted=[])]
    )
    nineball = write(tmp_path / "n.jsonl", [match(rules="nineball/wpa"), frame(), stroke(1, first=["1"], potted=["9"])])
    assert [(p.code, p.field) for p in validate_file(billiards)] == [("unknown_ball", "first[0]")]
    assert validate_file(nineball) == []


def test_frames_and_stroke_numbers_are_per_frame(tmp_path):
    """`n` restarts in each frame; `after` looks only at strokes of the open frame."""
    ok = write(tmp_path / "ok.jsonl", [match(), frame(1), stroke(1), stroke(2), frame(2), stroke(1, frame=2)])
    assert validate_file(ok) == []
    bad = write(
        tmp_path / "bad.jsonl",
        [
            match(),
            frame(1),
            *(stroke(n) for n in range(1, 6)),
            frame(2),
            {"type": "event", "frame": 2, "after": 5, "kind": "concede", "side": "A"},
        ],
    )
    assert [(p.line, p.code) for p in validate_file(bad)] == [(9, "after_unknown")]
    again = write(tmp_path / "again.jsonl", [match(), frame(1), frame(1)])
    assert [(p.line, p.code) for p in validate_file(again)] == [(3, "frame_repeated")]


def test_clock_records_must_name_a_stroke_of_their_frame(tmp_path):
    path = write(
        tmp_path / "clock.jsonl",
        [
            match(),
            frame(),
            stroke(1),
            {"type": "clock", "frame": 1, "n": 1, "elapsed_s": 3.0},
            {"type": "clock", "frame": 1, "n": 1, "elapsed_s": 4.0},
            {"type": "clock", "frame": 1, "n": 9, "elapsed_s": 4.0},
            frame(2),
        ],
    )
    assert [(p.line, p.code) for p in validate_file(path)] == [(5, "clock_repeated"), (6, "clock_unknown")]


def test_directories_are_searched_recursively_and_gzip_is_read(tmp_path):
    (tmp_path / "b" / "deep").mkdir(parents=True)
    write(tmp_path / "a.jsonl", [match(match="a"), frame(), stroke(1)])
    data = "".join(json.dumps(r) + "\n" for r in [match(match="z"), frame(), stroke(1, striker="Z")])
    (tmp_path / "b" / "deep" / "z.jsonl.gz").write_bytes(gzip.compress(data.encode()))
    (tmp_path / "b" / "notes.txt").write_text("not a log")
    result = cli("validate", tmp_path, "--json")
    assert result.exit_code == 2
    problems = json.loads(result.stdout)["problems"]
    assert [(p["file"], p["line"], p["code"]) for p in problems] == [
        (str(tmp_path / "b" / "deep" / "z.jsonl.gz"), 3, "bad_side")
    ]


def test_missing_path_is_bad_input(tmp_path):
    result = cli("validate", tmp_path / "nope.jsonl", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["problems"][0]["code"] == "unreadable"


def test_over_long_line_is_a_problem_and_the_next_line_is_still_checked(tmp_path):
    path = tmp_path / "long.jsonl"
    with path.open("w") as fh:
        fh.write(json.dumps(match()) + "\n" + json.dumps(frame()) + "\n")
        fh.write('{"type": "event", "frame": 1, "after": 0, "kind": "warning", "pad": "' + "x" * (2 << 20) + '"}\n')
        fh.write(json.dumps(stroke(1, striker="Q")) + "\n")
    assert [(p.line, p.code) for p in validate_file(path)] == [(3, "line_too_long"), (4, "bad_side")]


def test_read_records_raises_input_error_not_a_traceback(tmp_path):
    """The fast reader used by replay stops at the first problem, as an InputError with its line."""
    path = tmp_path / "bad.jsonl.gz"
    path.write_bytes(b"\x1f\x8b garbage")
    with pytest.raises(InputError) as exc:
        list(read_records(path))
    assert exc.value.problems[0].code == "unreadable"
    assert exc.value.problems[0].file == str(path)


def test_negative_scores_only_in_straight_pool(tmp_path):
    """WPA 4.7: in 14.1 "scores may be negative"; elsewhere a negative score is bad_score."""
    sp = write(
        tmp_path / "s.jsonl",
        [match(rules="straight-pool/wpa"), frame(), stroke(1, first=["1"], potted=[], score=[-1, 0])],
    )
    sn = write(tmp_path / "k.jsonl", [match(), frame(), stroke(1, first=["red"], potted=[], score=[-4, 0])])
    assert validate_file(sp) == []
    assert [(p.code, p.field) for p in validate_file(sn)] == [("bad_score", "score")]


def test_called_safety_only_in_call_shot_pool(tmp_path):
    """WPA 3.6, 4.5: "nominated": "safety" is a called safety in WPA eight ball and 14.1."""
    ok = write(
        tmp_path / "s.jsonl",
        [match(rules="straight-pool/wpa"), frame(), stroke(1, first=["1"], potted=[], nominated="safety")],
    )
    bad = write(
        tmp_path / "n.jsonl",
        [match(rules="nineball/wpa"), frame(), stroke(1, first=["1"], potted=[], nominated="safety")],
    )
    assert validate_file(ok) == []
    assert [(p.code, p.field) for p in validate_file(bad)] == [("unknown_ball", "nominated")]


def test_byte_order_mark_and_cr_line_endings_are_said_in_words(tmp_path):
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + (json.dumps(match()) + "\n" + json.dumps(frame()) + "\n").encode())
    cr = tmp_path / "cr.jsonl"
    cr.write_bytes((json.dumps(match()) + "\r" + json.dumps(frame()) + "\r").encode())
    result = cli("validate", bom, cr)
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())
    assert "a byte-order mark (EF BB BF) at the start of the file" in err
    assert "lines ended by a carriage return (CR) alone" in err
    # After the mark, the file itself is checked as usual: nothing else is wrong with it.
    assert [p.code for p in validate_file(bom)] == ["byte_order_mark"]


def test_documented_acceptances_a_missing_scoreboard_and_an_unfinished_frame(tmp_path):
    """docs/format.md section 4: `score` absent or null is an unrecorded scoreboard; no frame_end is a frame in play."""
    path = write(
        tmp_path / "open.jsonl",
        [match(), frame(), stroke(1, score=None), {k: v for k, v in stroke(2).items() if k != "score"}, stroke(3)],
    )
    assert validate_file(path) == []


def test_a_missing_stroke_names_the_numbers_missing(tmp_path):
    path = write(tmp_path / "gap.jsonl", [match(), frame(), stroke(1), stroke(4), frame(2), stroke(1, frame=2)])
    [problem] = validate_file(path)
    assert (problem.line, problem.code, problem.found) == (4, "n_gap", "4")
    assert problem.expected == "2 (strokes 2 to 3 missing)"


def test_a_gap_after_an_unreadable_line_is_not_reported_twice(tmp_path):
    path = write(
        tmp_path / "broken.jsonl",
        [
            match(),
            frame(),
            stroke(1),
            '{"type": "stroke", "frame": 1, "n": 2,',
            stroke(3),
            frame(2),
            stroke(2, frame=2),
        ],
    )
    assert [(p.line, p.code) for p in validate_file(path)] == [(4, "invalid_json"), (7, "n_gap")]
