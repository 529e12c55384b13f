"""The cuelog/1 record model decodes every bundled example and round-trips it."""

from __future__ import annotations

import json

import pytest

from cuelog.ingest.reader import read_records
from cuelog.schemas.records import Stroke, decode, encode
from tests.conftest import EXAMPLE_LOGS


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: p.name)
def test_examples_round_trip(path):
    for line, record in read_records(path):
        again = decode(encode(record))
        assert again == record, f"{path.name}:{line}"


def test_break_field_is_renamed_and_absent_means_unknown():
    s = decode(b'{"type":"stroke","frame":1,"n":3,"striker":"A","first":["red"],"potted":[],"break":12}')
    assert isinstance(s, Stroke)
    assert s.break_ == 12
    assert s.respots is None  # absent: unknown (FORMAT 1.2)
    assert s.call is None
    assert json.loads(encode(s))["break"] == 12


def test_reader_names_a_wrong_type_as_an_invalid_record_with_its_field(tmp_path):
    from cuelog.errors import InputError

    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"type": "match", "format": "cuelog/1", "match": "m", "rules": "snooker/wpbsa-2024", "sides": {"A": "a", "B": "b"}}\n'
        '{"type": "frame", "frame": 1}\n'
        '{"type": "stroke", "frame": 1, "n": 1, "striker": "A", "first": [], "potted": [], "score": ["1", 0]}\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError) as err:
        list(read_records(path))
    (problem,) = err.value.problems
    assert (problem.line, problem.code, problem.field) == (3, "invalid_record", "score[0]")
