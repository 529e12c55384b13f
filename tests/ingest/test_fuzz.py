"""No input gives a traceback: records with any JSON value in any field, through validate and ingest.

Hypothesis replaces fields of sound records with arbitrary JSON (huge and negative
integers, floats, strings, nesting); whatever comes out, `validate` returns problems and
`ingest` either loads the file or rejects it with those problems, and the replay of the
file reads it or reports an InputError.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuelog.ingest.files import validate_file
from cuelog.ingest.load import ingest_paths
from cuelog.store import connect
from tests.ingest.conftest import cli, frame, match, stroke

SOUND: list[dict[str, Any]] = [
    match(),
    frame(),
    stroke(1, potted=["red"], score=[1, 0], call=None, **{"break": 1}),
    stroke(2, striker="B", first=["black"], call={"foul": True, "points": 7}, score=[1, 7]),
    {"type": "choice", "frame": 1, "after": 2, "side": "A", "option": "play"},
    {"type": "event", "frame": 1, "after": 2, "kind": "time_foul", "side": "A", "points": 4},
    {"type": "clock", "frame": 1, "n": 2, "limit_s": 15, "elapsed_s": 9.4},
    {"type": "frame_end", "frame": 1, "winner": "B", "score": [1, 11]},
]

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([2**31 - 1, 2**31, 2**63, -1, 0, 10**20])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    records = [dict(r) for r in SOUND]
    for _ in range(draw(st.integers(1, 3))):
        record = records[draw(st.integers(0, len(records) - 1))]
        key = draw(st.sampled_from([*sorted(record), "score", "points", "n", "after", "call"]))
        record[key] = draw(JSON)
    return records


@settings(
    max_examples=int(os.environ.get("CUELOG_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(records=logs())
def test_no_log_gives_a_traceback_in_validate_ingest_or_replay(records, tmp_path):
    tmp_path = Path(tempfile.mkdtemp(dir=tmp_path))  # a fresh database for every example
    path = tmp_path / "fuzz.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    problems = validate_file(path)
    con = connect(tmp_path / "fuzz.duckdb")
    try:
        [result] = ingest_paths(con, [path], replace=True)
    finally:
        con.close()
    assert result.status == ("rejected" if problems else "loaded")
    assert {(p.line, p.code) for p in result.problems} == {(p.line, p.code) for p in problems}
    replayed = cli("replay", path, "--json")
    assert replayed.exit_code in (0, 1, 2), replayed.exception
    if replayed.exit_code == 2:
        # Bad input: its problems with their lines, or (an unknown ruleset) the error said.
        doc = json.loads(replayed.stdout)
        assert doc.get("problems") or doc.get("error", {}).get("message")
