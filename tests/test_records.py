"""The cuelog/1 record model decodes every bundled example and round-trips it."""

from __future__ import annotations

import json

import pytest

from cuelog.ingest.reader import read_records
from cuelog.schemas.records import Clock, FrameEnd, Stroke, TypedStroke, decode, encode, kind_of
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


def test_a_stroke_of_the_schemas_names_shares_one_string_for_each_name():
    """docs/format.md 4: ``striker`` is a side and the ball lists name balls of the schema;
    decoded, each name is one string shared by every stroke, and the record a Stroke."""
    one = decode(b'{"type":"stroke","frame":1,"n":1,"striker":"A","first":["red"],"potted":["red"]}')
    two = decode(b'{"type":"stroke","frame":1,"n":2,"striker":"A","first":["red"],"potted":[],"then":["black"]}')
    assert type(one) is TypedStroke and isinstance(two, Stroke)
    assert one.striker is two.striker and one.first[0] is two.first[0] is one.potted[0]
    assert (two.n, two.striker, two.first, two.potted, two.then) == (2, "A", ["red"], [], ["black"])
    assert encode(two) == encode(Stroke(frame=1, n=2, striker="A", first=["red"], potted=[], then=["black"]))


def test_a_stroke_naming_a_ball_outside_the_schema_is_read_as_text_for_the_checks():
    """A name the schema does not know is not a decoding error: the checks judge it
    against the match's ruleset (``unknown_ball``, ``bad_side``) with its line."""
    s = decode(b'{"type":"stroke","frame":1,"n":1,"striker":"C","first":["purple"],"potted":[]}')
    assert type(s) is Stroke
    assert (s.striker, s.first) == ("C", ["purple"])


def test_a_records_kind_is_its_type_as_the_log_writes_it():
    stroke = decode(b'{"type":"stroke","frame":1,"n":1,"striker":"A","first":[],"potted":[]}')
    plain = Stroke(frame=1, n=1, striker="A", first=[], potted=[])
    assert [kind_of(r) for r in (stroke, plain, FrameEnd(frame=1), Clock(frame=1, n=1))] == [
        "stroke",
        "stroke",
        "frame_end",
        "clock",
    ]


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


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: p.name)
def test_decoded_records_are_left_to_reference_counting_not_the_collector(path):
    """A record cannot lead back to itself (decoded from JSON, frozen), so the collector
    need not track it: a season's million records would cost it 5% of decoding them. What a
    record holds is still tracked where it can hold anything (a list, a dict)."""
    import gc

    records = [record for _, record in read_records(path)]
    assert records and not any(gc.is_tracked(r) for r in records)
    lists = [s.first for s in records if isinstance(s, Stroke)]
    assert lists and all(gc.is_tracked(first) for first in lists)
