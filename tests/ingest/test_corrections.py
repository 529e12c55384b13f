"""Officials' corrections (docs/format.md section 6): applied before replay, never silently."""

from __future__ import annotations

import json

import pytest

from cuelog.errors import InputError
from cuelog.ingest.corrections import apply_corrections, read_corrections
from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from tests.conftest import EXAMPLES

OFFICIATING = EXAMPLES / "snooker-officiating.jsonl"


def write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def records():
    return [r for _, r in read_records(OFFICIATING)]


def kinds(results):
    return [(f.n, f.kind) for f in results[0].frames[0].findings]


def test_a_correction_changes_the_replay(tmp_path):
    """The recorder missed the pink being spotted at stroke 7 (S3 R7): corrected, no finding."""
    path = write(
        tmp_path / "c.jsonl",
        [{"match": "example-officiating", "frame": 1, "n": 7, "set": {"respots": [{"ball": "pink", "spot": "pink"}]}}],
    )
    assert (7, "respot_missing") in kinds(replay_matches(records()))
    corrected, applied = apply_corrections(records(), read_corrections(path))
    assert [(c.frame, c.n) for c in applied] == [(1, 7)]
    assert kinds(replay_matches(corrected)) == [(2, "condoned_foul"), (5, "penalty_value")]


def test_a_correction_of_the_facts_turns_a_finding_into_another(tmp_path):
    """Ball tracking was wrong at stroke 2: the red was hit first, so no foul was condoned."""
    path = write(
        tmp_path / "c.jsonl", [{"match": "example-officiating", "frame": 1, "n": 2, "set": {"first": ["red"]}}]
    )
    corrected, _ = apply_corrections(records(), read_corrections(path))
    assert (2, "condoned_foul") not in kinds(replay_matches(corrected))


def test_a_correction_for_no_stroke_is_an_error_naming_its_line(tmp_path):
    path = write(
        tmp_path / "c.jsonl",
        [
            {"match": "example-officiating", "frame": 1, "n": 7, "set": {"respots": []}},
            {"match": "example-officiating", "frame": 1, "n": 99, "set": {"potted": []}},
        ],
    )
    with pytest.raises(InputError) as err:
        apply_corrections(records(), read_corrections(path))
    (problem,) = err.value.problems
    assert (problem.file, problem.line, problem.code) == (str(path), 2, "no_such_stroke")


@pytest.mark.parametrize(
    ("row", "code", "field"),
    [
        ({"match": "m", "frame": 1, "n": 2, "set": {"colour": "red"}}, "bad_correction", "set"),
        ({"match": "m", "frame": 1, "n": 2, "set": {"n": 3}}, "bad_correction", "set"),
        ({"match": "m", "frame": 1, "n": 2, "set": {}}, "bad_correction", "set"),
        ({"match": "m", "frame": "one", "n": 2, "set": {"potted": []}}, "invalid_record", "frame"),
        ({"match": "m", "frame": 1, "n": 2}, "invalid_record", ""),
    ],
)
def test_bad_correction_rows(tmp_path, row, code, field):
    path = write(tmp_path / "c.jsonl", [row])
    with pytest.raises(InputError) as err:
        read_corrections(path)
    (problem,) = err.value.problems
    assert (problem.line, problem.code, problem.field) == (1, code, field)


def test_a_value_of_the_wrong_type_names_the_field(tmp_path):
    path = write(tmp_path / "c.jsonl", [{"match": "example-officiating", "frame": 1, "n": 2, "set": {"potted": "red"}}])
    with pytest.raises(InputError) as err:
        apply_corrections(records(), read_corrections(path))
    (problem,) = err.value.problems
    assert (problem.line, problem.code, problem.field) == (1, "bad_correction", "set.potted")


@pytest.mark.parametrize(
    ("fields", "field", "code"),
    [
        ({"score": [10**20, 0]}, "set.score", "bad_score"),
        ({"break": 2**31}, "set.break", "bad_number"),
        ({"call": {"foul": True, "points": 2**31}}, "set.call.points", "bad_number"),
    ],
)
def test_a_correction_beyond_the_stated_bounds_is_a_problem_not_a_traceback(tmp_path, fields, field, code):
    path = write(tmp_path / "c.jsonl", [{"match": "example-officiating", "frame": 1, "n": 15, "set": fields}])
    with pytest.raises(InputError) as exc:
        apply_corrections(records(), read_corrections(path))
    [problem] = exc.value.problems
    assert (problem.file, problem.line, problem.field, problem.code) == (str(path), 1, field, code)


def test_a_deeply_nested_correction_is_a_problem(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"match": "m", "frame": 1, "n": 1, "set": {"potted": ' + "[" * 100_000 + "]" * 100_000 + "}}\n")
    with pytest.raises(InputError) as exc:
        read_corrections(path)
    assert exc.value.problems[0].code == "invalid_json"
