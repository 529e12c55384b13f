"""The fast check of a clean log (cuelog.ingest.clean) against the detailed check.

The fast check may only say "clean" when the detailed check finds no problem: otherwise a
bad file would load. Held to it on every case of the bad-input corpus, on the bundled
examples and a simulated season (all clean), and on strokes whose fields are varied one
rule at a time (bounds, numbering, sides, times, scores, balls, pockets, spots), where
the two must agree both ways.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuelog.ingest import files, validate
from cuelog.ingest.clean import clean_log, clean_records
from cuelog.ingest.reader import log_files
from cuelog.ingest.validate import detailed_problems
from cuelog.schemas.records import Stroke, TypedStroke, decode
from tests.ingest.conftest import cli, frame, match, stroke
from tests.ingest.corpus import CASES

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_no_file_of_the_bad_input_corpus_is_called_clean(case, tmp_path):
    path = case.make(tmp_path)
    assert detailed_problems(path)
    assert clean_records(path.read_bytes()) is None


def test_the_examples_and_a_simulated_season_are_clean_with_their_lines_and_texts(tmp_path):
    assert (
        cli("simulate", "--rules", "billiards/wpbsa-2024", "--matches", 2, "--seed", 5, "--out", tmp_path).exit_code
        == 0
    )
    logs = log_files([tmp_path / "logs", ROOT / "examples"])
    for path in logs:
        assert detailed_problems(path) == [], path
        checked = clean_records(path.read_bytes())
        assert checked is not None, path
        text = path.read_text(encoding="utf-8").split("\n")
        assert [(n, t) for n, t, _ in checked] == [(i, t) for i, t in enumerate(text, start=1) if t.strip()]
        assert sum(isinstance(r, Stroke) for _, _, r in checked) > 0


def test_cuelog_validate_takes_the_fast_check_for_a_clean_log_and_the_detailed_one_otherwise(tmp_path, monkeypatch):
    good = tmp_path / "good.jsonl"
    good.write_bytes((ROOT / "examples" / "snooker-maximum.jsonl").read_bytes())
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(json.dumps(r) for r in [match(), frame(), stroke(1), stroke(3)]) + "\n")
    before = cli("validate", good, bad, "--json")
    assert before.exit_code == 2
    assert [(p["file"], p["line"], p["code"]) for p in json.loads(before.stdout)["problems"]] == [
        (str(bad), 4, "n_gap")
    ]
    seen: list[str] = []
    detailed = files.detailed_problems
    monkeypatch.setattr(files, "detailed_problems", lambda path: seen.append(str(path)) or detailed(path))
    after = cli("validate", good, bad, "--json")
    assert seen == [str(bad)]  # the clean log never reached the detailed check
    assert (after.exit_code, after.stdout) == (before.exit_code, before.stdout)
    assert cli("validate", good).exit_code == 0


def test_a_blank_line_keeps_the_numbering_and_a_byte_order_mark_is_left_to_the_detailed_check(tmp_path):
    records = [match(), frame(), stroke(1)]
    text = "\n".join(json.dumps(r) for r in records)
    checked = clean_records((text.replace("\n", "\n\n", 1) + "\n").encode())
    assert checked is not None and [n for n, _, _ in checked] == [1, 3, 4]
    assert clean_records(b"\xef\xbb\xbf" + text.encode()) is None
    assert clean_records((text + "\n\xa0\n").encode()) is None  # blank to str.strip only: invalid_json


# Values each stroke field may take, sound and unsound, one rule at a time.
VARIANTS: dict[str, list[Any]] = {
    "n": [1, 2, 3, 0, -1, 2**31 - 1, 2**31],
    "frame": [1, 2, 0],
    "striker": ["A", "B", "C", ""],
    "t": [
        None,
        "2026-05-01T14:03:22.120Z",
        "2026-05-01T14:03:22+01:00",
        "2026-05-01T14:03:22",
        "2026-02-30T10:00Z",
        "2026-02-30T10:00:00.000Z",  # the common shape, a day the calendar lacks
        "0000-01-01T00:00:00.000Z",  # the common shape, a year datetime lacks
    ],
    "score": [None, [0, 0], [1, 7], [-1, 0], [0, 999_999], [1_000_000, 0], [1], [1, 2, 3]],
    "break": [None, 0, 12, -1, 999_999, 1_000_000],
    "first": [[], ["red"], ["black", "pink"], ["moon"], ["cue"]],
    "potted": [[], ["red"], ["yellow"], ["red", "red"]],
    "then": [None, [], ["blue"], ["stripe"]],
    "off_table": [None, ["white"], ["nine"]],
    "nominated": [None, "green", "safety", "eight"],
    "pockets": [None, [], ["TL"], ["XX"], ["TL", "BR"]],
    "pocket_called": [None, "ML", "middle"],
    "call": [None, {"foul": True, "points": 4}, {"foul": True, "points": -4}, {"visits": 2**31}, {"visits": 0}],
    "cushions": [None, {"objects": 2}, {"objects": -1}],
    "infringements": [None, [{"code": "push"}], [{"code": "touch", "ball": "red"}], [{"code": "x", "ball": "moon"}]],
    "positions": [None, [["red", 1.0, 2.0]], [["moon", 1.0, 2.0]]],
    "respots": [None, [{"ball": "black", "spot": "black"}], [{"ball": "black", "spot": "moon"}], [{"ball": "moon"}]],
}


@st.composite
def varied_logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    rules = draw(st.sampled_from(["snooker/wpbsa-2024", "billiards/wpbsa-2024", "eightball/wpa", "straight-pool/wpa"]))
    strokes = [stroke(n, striker="AB"[n % 2]) for n in (1, 2, 3)]
    for _ in range(draw(st.integers(1, 3))):
        target = strokes[draw(st.integers(0, 2))]
        key = draw(st.sampled_from(sorted(VARIANTS)))
        target[key] = draw(st.sampled_from(VARIANTS[key]))
    end = {"type": "frame_end", "frame": 1, "winner": "A", "score": [1, 0]}
    return [match(rules=rules), frame(), *strokes, end]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=varied_logs())
def test_the_fast_check_agrees_with_the_detailed_check_rule_by_rule(records, tmp_path):
    path = tmp_path / "varied.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    problems = detailed_problems(path)
    checked = clean_records(path.read_bytes())
    assert (checked is not None) == (not problems), problems
    # Ingest's fast check reads the strokes' times by Arrow: the same answer.
    assert (clean_log(path.read_bytes(), by_arrow=True) is not None) == (not problems), problems


_TIME_CHARS = "0123456789-:.TZ+ x\u0663"


@st.composite
def time_texts(draw: st.DrawFn) -> str:
    """A valid time with a few characters replaced, dropped or added: the shapes near the common one."""
    base = draw(st.datetimes(timezones=st.just(UTC))).strftime("%Y-%m-%dT%H:%M:%S.%f")[:23] + "Z"
    chars = list(base)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(chars) - 1))
        action = draw(st.sampled_from(["replace", "drop", "insert"]))
        if action == "drop":
            del chars[at]
        else:
            chars[at : at + (action == "replace")] = [draw(st.sampled_from(_TIME_CHARS))]
    return "".join(chars)


@settings(max_examples=2000, deadline=None)
@given(text=st.one_of(time_texts(), st.sampled_from(["2024-02-29T00:00:00.000Z", "2026-02-29T00:00:00.000Z"])))
def test_time_us_gives_the_instant_parse_time_reads_or_none_as_it_does(text):
    parsed = validate.parse_time(text)
    expected = None if parsed is None else (parsed - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
    assert validate.time_us(text) == expected


_EDGES = [
    "2024-02-29T23:59:59.999Z",
    "2026-02-29T00:00:00.000Z",
    "2026-04-31T00:00:00.000Z",
    "0000-01-01T00:00:00.000Z",
    "0001-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z",
    "2026-05-01T24:00:00.000Z",
    "2026-05-01T23:60:00.000Z",
    "2026-05-01T23:59:60.000Z",
    "2026-00-01T00:00:00.000Z",
    "2026-13-01T00:00:00.000Z",
    "2026-05-00T00:00:00.000Z",
    "2026-05-01t14:03:22.120Z",
    "2026-05-01 14:03:22.120Z",
    "2026-05-01T14:03:22,120Z",
    "2026-05-01T14:03:22.120+02:00",
    "2026-05-01T14:03Z",
]


@settings(max_examples=500, deadline=None)
@given(
    values=st.lists(
        st.one_of(st.none(), time_texts(), st.sampled_from(_EDGES), st.just("2026-05-01T14:03:22.120Z")), max_size=12
    )
)
def test_a_parts_times_read_by_arrow_are_what_time_us_reads_one_by_one(values):
    each = [None if v is None else validate.time_us(v) for v in values]
    expected = None if any(us is None and v is not None for us, v in zip(each, values, strict=True)) else each
    assert validate.times_us(values, by_arrow=True) == expected
    assert validate.times_us(values) == expected


@pytest.mark.parametrize("edge", _EDGES)
def test_an_odd_time_among_common_ones_is_read_as_time_us_reads_it(edge):
    values = ["2026-05-01T14:03:22.120Z", None, edge]
    us = validate.time_us(edge)
    assert validate.times_us(values, by_arrow=True) == (None if us is None else [1777644202120000, None, us])


def test_times_of_the_common_shape_are_read_by_arrow_and_any_other_one_by_one(monkeypatch):
    read_one_by_one = []
    time_us = validate.time_us
    monkeypatch.setattr(validate, "time_us", lambda v: read_one_by_one.append(v) or time_us(v))
    common = ["2026-05-01T14:03:22.120Z", None, "2026-05-01T14:03:23.000Z"]
    assert validate.times_us(common, by_arrow=True) == [1777644202120000, None, 1777644203000000]
    assert read_one_by_one == []
    assert validate.times_us([*common, "2026-05-01T16:03:24+02:00"], by_arrow=True) == [
        1777644202120000,
        None,
        1777644203000000,
        1777644204000000,
    ]
    assert len(read_one_by_one) == 3


def test_a_line_holding_two_records_or_half_of_one_is_left_to_the_detailed_check(tmp_path):
    head = [json.dumps(match()), json.dumps(frame())]
    one, two = json.dumps(stroke(1)), json.dumps(stroke(2, striker="B"))
    split = two[:-1].replace(', "first"', ',\n"first"', 1) + "}"  # one record over two lines
    # Two records on one line and one over two lines: as many JSON values as lines.
    both = [one + " " + two[:-1] + ', "x": [1,', "2]}"]
    for body in ([one + " " + two], [one, split], both):
        path = tmp_path / "odd.jsonl"
        path.write_text("\n".join(head + body) + "\n", encoding="utf-8")
        assert detailed_problems(path), body
        assert clean_records(path.read_bytes()) is None, body


def test_strokes_share_one_string_a_striker_and_a_ball_and_read_as_the_records_do(tmp_path):
    """The fast check decodes a stroke's striker and balls as the schema's enums: each name
    one shared string (what makes it fast), the same values as the records' decoder."""
    records = [match(), frame(), stroke(1, potted=["red"]), stroke(2, first=["red"], then=["black"], score=[1, 0])]
    text = "".join(json.dumps(r) + "\n" for r in records)
    checked = clean_records(text.encode())
    assert checked is not None
    one, two = (r for _, _, r in checked if isinstance(r, Stroke))
    assert type(one) is TypedStroke and type(two) is TypedStroke
    assert one.striker is two.striker and one.potted[0] is two.first[0]
    assert [one, two] == [decode(json.dumps(r)) for r in records[2:]]


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"striker": "C"}, "bad_side"),
        ({"potted": ["purple"]}, "unknown_ball"),
        ({"then": ["red", "cue"]}, "unknown_ball"),
    ],
)
def test_a_striker_or_a_ball_outside_the_schema_goes_to_the_detailed_check_and_its_code(fields, code, tmp_path):
    path = tmp_path / "odd.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [match(), frame(), stroke(1, **fields)]), encoding="utf-8")
    assert clean_records(path.read_bytes()) is None
    assert [p.code for p in detailed_problems(path)] == [code]
