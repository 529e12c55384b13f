"""The cuelog/1 record model decodes every bundled example and round-trips it."""

from __future__ import annotations

import json

import pytest

from cuelog.ingest.reader import read_records
from cuelog.schemas.records import Stroke, decode, encode
from tests.conftest import EXAMPLES


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.jsonl")), ids=lambda p: p.name)
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
