"""The published cuelog/1 JSON Schema: accepts the examples, rejects bad records, matches the structs."""

from __future__ import annotations

import json
from typing import Any, get_args

import jsonschema
import msgspec
import pytest

from cuelog.schemas import schema_text
from cuelog.schemas.bounds import INT_BOUNDS, MAX_NAME, MAX_POINTS
from cuelog.schemas.records import RECORD_TYPES, Ball, Call, Cushions, Infringement, Respot, Side
from cuelog.schemas.rulesets import RULESETS
from tests.conftest import EXAMPLE_LOGS
from tests.ingest.conftest import cli, frame, match, stroke

SCHEMA = json.loads(schema_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_cuelog_schema_prints_the_shipped_schema():
    result = cli("schema")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == SCHEMA


@pytest.mark.parametrize("path", EXAMPLE_LOGS, ids=lambda p: p.name)
def test_every_example_line_is_valid(path):
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.strip():
            errors = list(VALIDATOR.iter_errors(json.loads(line)))
            assert not errors, f"{path.name}:{number}: {errors[0].message}"


GOOD: list[dict[str, Any]] = [
    match(),
    frame(t="2026-05-01T14:00:00.000+01:00"),
    stroke(3, potted=["red"], pockets=["TL"], t="2026-05-01T14:03:22.120Z", respots=[{"ball": "pink", "spot": "pink"}]),
    stroke(
        4, call={"foul": True, "points": 4, "miss": True, "free_ball": False, "reason": "first_contact"}, score=[0, 4]
    ),
    stroke(5, first=[], potted=[], positions=[["white", 100.0, 200.5]], **{"break": 0}),
    {"type": "choice", "frame": 1, "after": 4, "side": "B", "option": "replace_return"},
    {"type": "event", "frame": 1, "after": 0, "kind": "spot_correction", "ball": "pink", "spot": "pink"},
    {"type": "frame_end", "frame": 1, "winner": "A", "score": [72, 41], "reason": "pot"},
    {"type": "clock", "frame": 1, "n": 14, "limit_s": 15, "elapsed_s": 9.4, "paused_s": 0},
    {**stroke(6), "future_field": "ignored"},  # newer writers stay readable
]

BAD: list[tuple[str, dict[str, Any]]] = [
    ("unknown type", {"type": "shot", "frame": 1}),
    ("no type", {"frame": 1, "breaker": "A"}),
    ("wrong format", match(format="cuelog/2")),
    ("match without sides", {k: v for k, v in match().items() if k != "sides"}),
    ("side C", match(sides={"A": "x", "C": "y"})),
    ("stroke without striker", {k: v for k, v in stroke(1).items() if k != "striker"}),
    ("striker C", stroke(1, striker="C")),
    ("unknown ball", stroke(1, potted=["purple"])),
    ("unknown pocket", stroke(1, potted=["red"], pockets=["XX"])),
    ("score with three numbers", stroke(1, score=[1, 2, 3])),
    # A negative score is valid in 14.1 (WPA 4.7): the validator judges it by the ruleset
    # (test_validate.py::test_negative_scores_only_in_straight_pool), the schema cannot.
    ("non-integer score", stroke(1, score=[1.5, 0])),
    ("n zero", stroke(0)),
    ("n as a string", stroke("3")),  # type: ignore[arg-type]
    ("time without offset", stroke(1, t="2026-05-01T14:03:22")),
    ("time as words", frame(t="yesterday")),
    ("frame_end winner C", {"type": "frame_end", "frame": 1, "winner": "C"}),
    ("negative after", {"type": "event", "frame": 1, "after": -1, "kind": "concede"}),
    ("clock with negative time", {"type": "clock", "frame": 1, "n": 1, "elapsed_s": -2}),
    ("a JSON array", [1, 2]),  # type: ignore[list-item]
]


@pytest.mark.parametrize("record", GOOD, ids=lambda r: r["type"])
def test_schema_accepts_good_records(record):
    assert not list(VALIDATOR.iter_errors(record))


@pytest.mark.parametrize(("why", "record"), BAD, ids=[w for w, _ in BAD])
def test_schema_rejects_bad_records(why, record):
    assert list(VALIDATOR.iter_errors(record)), why


def _struct_fields(cls: type[Any]) -> dict[str, bool]:
    return {f.encode_name: f.required for f in msgspec.structs.fields(cls)}


@pytest.mark.parametrize("kind", sorted(RECORD_TYPES))
def test_every_struct_field_is_in_the_schema_with_the_same_required_set(kind):
    definition = SCHEMA["$defs"][kind]
    props = set(definition["properties"]) - {"type"}
    fields = _struct_fields(RECORD_TYPES[kind])
    assert props == set(fields), f"{kind}: schema {sorted(props)} vs struct {sorted(fields)}"
    required = {name for name, req in fields.items() if req}
    assert set(definition["required"]) - {"type"} == required


@pytest.mark.parametrize(
    ("cls", "where"),
    [(Cushions, "cushions"), (Call, "call"), (Respot, "respots"), (Infringement, "infringements")],
)
def test_nested_struct_fields_are_in_the_stroke_schema(cls, where):
    node = SCHEMA["$defs"]["stroke"]["properties"][where]
    node = next(n for n in node.get("anyOf", [node]) if n.get("type") != "null")
    node = node.get("items", node)
    assert set(node["properties"]) == set(_struct_fields(cls))


@pytest.mark.parametrize("kind", sorted(RECORD_TYPES))
def test_the_schema_and_the_structs_agree_on_a_minimal_record(kind):
    """A record with only the required fields passes both, or the two contracts have drifted."""
    minimal = {
        "match": match(),
        "frame": {"type": "frame", "frame": 1},
        "stroke": {"type": "stroke", "frame": 1, "n": 1, "striker": "A", "first": [], "potted": []},
        "choice": {"type": "choice", "frame": 1, "after": 0, "side": "A", "option": "play"},
        "event": {"type": "event", "frame": 1, "after": 0, "kind": "rerack"},
        "frame_end": {"type": "frame_end", "frame": 1},
        "clock": {"type": "clock", "frame": 1, "n": 1},
    }[kind]
    assert not list(VALIDATOR.iter_errors(minimal))
    msgspec.json.decode(json.dumps(minimal), type=RECORD_TYPES[kind])


def _integer_node(kind: str, path: str) -> dict[str, Any]:
    """The schema node of an integer field of a record, by JSON path ("call.points")."""
    node = SCHEMA["$defs"][kind]
    for name in path.split("."):
        node = node["properties"][name]
        node = next((n for n in node.get("anyOf", [node]) if n.get("type") != "null"), node)
        if "$ref" in node:
            node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


@pytest.mark.parametrize(
    ("kind", "path", "bound"),
    [(kind, path, bound) for kind, fields in INT_BOUNDS.items() for path, bound in fields.items()],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_every_stated_bound_is_in_the_schema(kind, path, bound):
    node = _integer_node(kind, path)
    assert (node.get("minimum"), node.get("maximum")) == bound


def test_scores_and_names_have_their_stated_bounds_in_the_schema():
    assert SCHEMA["$defs"]["score"]["items"]["maximum"] == MAX_POINTS
    assert SCHEMA["$defs"]["match"]["properties"]["match"]["maxLength"] == MAX_NAME
    assert SCHEMA["$defs"]["per_side_name"]["properties"]["A"]["maxLength"] == MAX_NAME


@pytest.mark.parametrize(
    ("why", "record"),
    [
        ("n = 2^31", stroke(2**31)),
        ("score 2^63", stroke(1, score=[2**63, 0])),
        ("foul points 2^31", stroke(1, call={"foul": True, "points": 2**31})),
        ("match id of 100,000 characters", match(match="m" * 100_000)),
    ],
)
def test_schema_and_validator_both_reject_values_beyond_their_bounds(why, record, tmp_path):
    assert list(VALIDATOR.iter_errors(record)), why
    records = [record] if record["type"] == "match" else [match(), frame(), record]
    path = tmp_path / "beyond.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = cli("validate", path, "--json")
    assert result.exit_code == 2, why


def test_the_schema_names_the_balls_of_every_ruleset_and_the_sides_the_fast_check_decodes():
    """The fast check decodes strikers and ball lists as ``Side`` and ``Ball``: they are the
    published schema's ``side`` and ``ball``, and a ball is one of some ruleset's."""
    defs = json.loads(schema_text())["$defs"]
    every_ball = set().union(*(rs.balls for rs in RULESETS.values()))
    assert set(get_args(Ball)) == set(defs["ball"]["enum"]) == every_ball
    assert set(get_args(Side)) == set(defs["side"]["enum"]) == {"A", "B"}
