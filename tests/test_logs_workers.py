"""``cuelog replay LOGS --workers N`` and ``cuelog validate --workers N``: the logs read by
worker processes, a part of the files at a time, with the same output, problems and errors
as one process."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuelog import logreplay
from cuelog.cli import app
from cuelog.errors import InputError, Problem
from cuelog.ingest import pool
from cuelog.ingest.corrections import read_corrections
from cuelog.ingest.files import validate_paths
from cuelog.ingest.reader import log_files
from cuelog.replay.output import Rendered
from cuelog.simulate import SeasonConfig, simulate_season
from cuelog.simulate.writer import write_season
from tests.analytics import kit

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command in a fresh process (spawned workers need a real ``__main__``)."""
    return subprocess.run(
        [sys.executable, "-m", "cuelog", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        check=False,
    )


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A season of one-match logs of two disciplines with officiating errors, over 1 MB in
    all, so the command's parts (``PART_BYTES``) give the workers more than one."""
    root = tmp_path_factory.mktemp("season")
    for rules, matches, seed in (("snooker/wpbsa-2024", 40, 3), ("billiards/wpbsa-2024", 14, 4)):
        out = root / rules.split("/")[0]
        write_season(out, simulate_season(SeasonConfig(rules, matches, seed, 0.03), workers=1))
    logs = root / "logs"
    logs.mkdir()
    for path in sorted(root.glob("*/logs/*.jsonl")):
        shutil.copy(path, logs / path.name)
    assert sum(p.stat().st_size for p in logs.iterdir()) > 2 * pool.PART_BYTES
    return logs


def _docs(replayed: list[Rendered]) -> list[dict[str, object]]:
    """Each replayed match's part of the JSON document (made in the worker that replayed
    it), in reading order."""
    return [json.loads(r.text) for r in replayed]


def test_two_worker_processes_print_the_same_bytes_as_one(season: Path) -> None:
    one = cli("replay", str(season), "--json", "--workers", "1")
    two = cli("replay", str(season), "--json", "--workers", "2")
    assert one.returncode == two.returncode == 1, one.stderr  # the injected errors are found
    assert two.stdout == one.stdout
    doc = json.loads(one.stdout)
    assert len(doc["matches"]) == len(list(season.iterdir()))
    assert [m["match"] for m in doc["matches"]] == sorted(m["match"] for m in doc["matches"])
    # The human output too, and with the files given in another order.
    files = [str(p) for p in sorted(season.iterdir(), reverse=True)]
    text_one = cli("replay", *files[:20], "--workers", "1")
    text_two = cli("replay", *files[:20], "--workers", "2")
    assert text_one.returncode == text_two.returncode and text_two.stdout == text_one.stdout
    assert "finding(s)" in text_one.stdout


def test_the_parts_keep_the_reading_order_and_the_same_results(season: Path) -> None:
    files = log_files([season])
    parts = pool.parts(files, 200_000)
    assert [name for part in parts for name in part] == [str(p) for p in files]
    assert len(parts) > 3
    one = list(logreplay.replay_logs(files, workers=1))
    two = list(logreplay.replay_logs(files, workers=2, part_bytes=200_000))
    assert [r.match for r in two] == [r.match for r in one]
    assert _docs(two) == _docs(one)
    assert [(r.findings, r.uncertain, r.corrections) for r in two] == [
        (r.findings, r.uncertain, r.corrections) for r in one
    ]
    assert sum(r.findings for r in one) > 0  # the season's injected errors, counted


def test_a_log_that_does_not_start_with_its_match_record_is_bad_input(tmp_path: Path) -> None:
    """Every log starts with its match record (the validator's ``no_match``): records at the
    top of a second file are not taken for the first file's match."""
    first = kit.maximum("m1").write(tmp_path / "a.jsonl")
    second = tmp_path / "b.jsonl"
    lines = kit.two_fifties("m2").text().splitlines(keepends=True)
    second.write_text("".join(lines[1:]), encoding="utf-8")  # the match record left out
    result = runner.invoke(app, ["replay", str(first), str(second), "--json"])
    assert result.exit_code == 2
    (problem,) = json.loads(result.stdout)["problems"]
    assert (problem["file"], problem["line"], problem["code"]) == (str(second), 1, "no_match")
    with pytest.raises(InputError) as raised:
        list(logreplay.replay_logs([first, second], workers=2, part_bytes=1))
    assert [(p.file, p.line, p.code) for p in raised.value.problems] == [(str(second), 1, "no_match")]


def _fixes(path: Path, *rows: dict[str, object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# The maximum's third stroke pots the black after the first red; the referee saw the pink
# (S3 R5: 6 points, not 7).
PINK_THIRD = {
    "match": "m1",
    "frame": 1,
    "n": 3,
    "set": {"first": ["pink"], "potted": ["pink"], "nominated": "pink", "respots": [{"ball": "pink", "spot": "pink"}]},
    "note": "pink, not black",
}


def test_a_correction_applies_to_each_log_of_its_match(tmp_path: Path) -> None:
    """A match whose log is given twice is replayed twice, and its correction applies to both."""
    a = kit.maximum("m1").write(tmp_path / "a.jsonl")
    b = shutil.copy(a, tmp_path / "b.jsonl")
    fixes = read_corrections(_fixes(tmp_path / "f.jsonl", PINK_THIRD))
    for workers, part in ((1, 1 << 20), (2, 1)):
        replayed = list(logreplay.replay_logs([a, b], fixes, workers=workers, part_bytes=part))
        assert [r.match for r in replayed] == ["m1", "m1"]
        assert [r.corrections for r in replayed] == [1, 1]
        docs = _docs(replayed)
        assert [len(d["corrections"]) for d in docs] == [1, 1]  # type: ignore[arg-type]
        assert [d["frames"][0]["breaks"][0]["points"] for d in docs] == [147 - 1, 147 - 1]  # type: ignore[index]


def test_every_correction_problem_is_reported_and_nothing_after_the_first_is_replayed(tmp_path: Path) -> None:
    logs = [kit.maximum(f"m{i}").write(tmp_path / f"{i}.jsonl") for i in range(1, 5)]
    fixes = read_corrections(
        _fixes(
            tmp_path / "f.jsonl",
            {**PINK_THIRD, "match": "m2", "n": 70},  # no 70th stroke
            {**PINK_THIRD, "match": "m4", "n": 71},
            {**PINK_THIRD, "match": "m9"},  # no such match in the logs
        )
    )
    seen: list[list[tuple[int, str]]] = []
    for workers, part in ((1, 1 << 20), (2, 1)):
        replayed: list[str] = []
        with pytest.raises(InputError) as raised:
            for r in logreplay.replay_logs(logs, fixes, workers=workers, part_bytes=part):
                replayed.append(r.match)
        assert replayed == ["m1"]  # nothing after the first problem
        seen.append([(p.line, p.code) for p in raised.value.problems])
    assert seen[0] == seen[1] == [(1, "no_such_stroke"), (2, "no_such_stroke"), (3, "no_such_stroke")]


def test_the_first_unreadable_file_in_reading_order_stops_the_replay(tmp_path: Path) -> None:
    logs = [kit.maximum(f"m{i}").write(tmp_path / f"{i}.jsonl") for i in range(1, 6)]
    for broken in (logs[2], logs[4]):
        with broken.open("a", encoding="utf-8") as fh:
            fh.write('{"type": "stroke", "frame": 1, "n": "x"}\n')
    for workers, part in ((1, 1 << 20), (2, 1)):
        with pytest.raises(InputError) as raised:
            list(logreplay.replay_logs(logs, workers=workers, part_bytes=part))
        ((file, field),) = [(p.file, p.field) for p in raised.value.problems]
        assert (file, field) == (str(logs[2]), "n")


def test_a_ruleset_of_another_discipline_stops_the_replay_with_its_message(tmp_path: Path) -> None:
    logs = [kit.maximum(f"m{i}").write(tmp_path / f"{i}.jsonl") for i in range(1, 4)]
    one = runner.invoke(app, ["replay", *map(str, logs), "--rules", "billiards/wpbsa-2024", "--workers", "1"])
    assert one.exit_code == 2 and "'m1'" in one.stderr and "another discipline" in one.stderr
    with pytest.raises(logreplay.LogReplayFailed) as raised:
        list(logreplay.replay_logs(logs, rules="billiards/wpbsa-2024", workers=2, part_bytes=1))
    assert raised.value.code == "bad_input" and "'m1'" in raised.value.message


def test_workers_by_default_only_for_logs_worth_them(tmp_path: Path) -> None:
    small = kit.maximum().write(tmp_path / "m.jsonl")
    assert logreplay.default_workers([small], cores=2, load=0.0) == 1
    large = tmp_path / "day.jsonl"
    with large.open("wb") as fh:
        fh.truncate(logreplay.PARALLEL_BYTES)  # its size is what is counted
    assert logreplay.default_workers([small, large], cores=2, load=0.0) == 2
    assert logreplay.default_workers([small, large], cores=2, load=1.0) == 1  # one core idle: no workers


def test_a_match_without_an_engine_stops_the_replay_unless_a_correction_failed_before(
    tmp_path: Path, monkeypatch
) -> None:
    # Every known ruleset has an engine today: take one away (in this process, one worker).
    from cuelog import replay as engines

    monkeypatch.delitem(engines.ENGINES, "straight-pool")
    first = kit.maximum("m1").write(tmp_path / "1.jsonl")
    pool = kit.Log("m2-pool", "Ann", "Bob", rules="straight-pool/wpa").write(tmp_path / "2.jsonl")
    result = runner.invoke(app, ["replay", str(first), str(pool)], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "straight-pool/wpa" in result.stderr
    # After a correction failed nothing more is replayed: its problem is what is reported.
    fixes = _fixes(tmp_path / "f.jsonl", {**PINK_THIRD, "n": 70})
    result = runner.invoke(app, ["replay", str(first), str(pool), "--corrections", str(fixes), "--json"])
    assert result.exit_code == 2
    assert [p["code"] for p in json.loads(result.stdout)["problems"]] == ["no_such_stroke"]


# -- cuelog validate --workers: the same problems, in the same order --------------------------


def test_validate_with_workers_reports_every_problem_in_file_order(season: Path, tmp_path: Path) -> None:
    from tests.ingest.corpus import CASES

    bad = tmp_path / "bad"
    bad.mkdir()
    for case in CASES:
        case.make(bad)
    files = [*log_files([season]), *log_files([bad])]
    one = validate_paths(files)
    two = validate_paths(files, workers=2, part_bytes=50_000)
    # An unknown ruleset's problem lists the rulesets its process knows: a worker knows the
    # built-in ones, this process also those other tests installed (rule makers' drafts).
    assert [_known(p) for p in two] == [_known(p) for p in one]
    assert len(pool.parts(files, 50_000)) > 3
    assert {p.file for p in one} == {str(f) for f in log_files([bad])}  # the season is clean
    # The command, in its own process with real workers: the same JSON document.
    args = ("validate", str(season), str(bad), "--json")
    by_one, by_two = cli(*args, "--workers", "1"), cli(*args, "--workers", "2")
    assert by_one.returncode == by_two.returncode == 2
    assert by_two.stdout == by_one.stdout
    assert len(json.loads(by_one.stdout)["problems"]) == len(one)


def _known(p: Problem) -> Problem:
    return dataclasses.replace(p, expected="a known ruleset") if p.code == "unknown_rules" else p


def test_validate_uses_workers_by_default_only_for_logs_worth_them(tmp_path: Path) -> None:
    from cuelog.cli.validate import PARALLEL_BYTES
    from cuelog.ingest.workers import default_workers

    small = kit.maximum().write(tmp_path / "m.jsonl")
    assert default_workers([small], cores=2, load=0.0, parallel_bytes=PARALLEL_BYTES, large_logs=False) == 1
    large = tmp_path / "day.jsonl"
    with large.open("wb") as fh:
        fh.truncate(PARALLEL_BYTES)
    assert default_workers([small, large], cores=2, load=0.0, parallel_bytes=PARALLEL_BYTES, large_logs=False) == 2
