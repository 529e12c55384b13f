"""A draft ruleset on the cluster: `cuelog replay --parquet --rules FILE` writes what the
in-process replay under that ruleset gives, and `cuelog diff --dataset DIR --scheduler S`
prints the same document as `cuelog diff --db` over the same matches. The ruleset travels
as data (name, base, parameter values) and is derived again on each worker."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from cuelog.distributed.driver import diff_parquet, replay_parquet
from cuelog.distributed.layout import part_name
from cuelog.distributed.rules import from_spec, to_spec
from cuelog.replay.derived import Derived, parameters_of
from cuelog.rulesfile import load_ruleset_file
from cuelog.store.results import REPLAY_TABLES
from tests.conftest import EXAMPLES
from tests.distributed.conftest import cuelog, in_process_results, tree

DRAFT = EXAMPLES / "wpbsa-2026-draft.toml"


@pytest.fixture(scope="module")
def snooker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of snooker matches only (a snooker draft replays every one of them)."""
    root = tmp_path_factory.mktemp("snooker")
    ran = cuelog(
        "simulate", "--rules", "snooker/wpbsa-2024", "--matches", "8", "--seed", "5", "--out", str(root / "s"),
        "--errors", "0.05",
    )  # fmt: skip
    assert ran.exit_code == 0, ran.stderr
    db = root / "snooker.duckdb"
    ran = cuelog("ingest", str(root / "s" / "logs"), str(EXAMPLES / "snooker-officiating.jsonl"), "--db", str(db))
    assert ran.exit_code == 0, ran.stdout + ran.stderr
    return db


def export(db: Path, dest: Path, partitions: int) -> Path:
    ran = cuelog("export", "--db", str(db), "--parquet", str(dest), "--partitions", str(partitions))
    assert ran.exit_code == 0, ran.stderr
    return dest


def test_replay_parquet_under_a_ruleset_file_writes_the_in_process_bytes(
    snooker: Path, cluster, tmp_path: Path
) -> None:
    data = export(snooker, tmp_path / "archive", 3)
    draft = load_ruleset_file(DRAFT)
    expected = tree(in_process_results(snooker, tmp_path / "expected", 3, rules=draft), REPLAY_TABLES)
    recorded = tree(in_process_results(snooker, tmp_path / "recorded", 3), REPLAY_TABLES)
    assert expected != recorded  # the draft changes what the rules make of these matches
    args = ["replay", "--parquet", str(data), "--scheduler", cluster.scheduler.address, "--out", str(tmp_path / "out")]
    ran = cuelog(*args, "--rules", str(DRAFT), "--json")
    assert ran.exit_code == 1, ran.stderr
    assert json.loads(ran.stdout)["ok"] is True
    assert tree(tmp_path / "out", REPLAY_TABLES) == expected
    # The minimum penalty of five (S3 R11) is in the stored strokes.
    penalties = pq.read_table(tmp_path / "out" / "replay_strokes").column("penalty").to_pylist()
    assert 4 not in penalties and 5 in penalties
    manifest = json.loads((tmp_path / "out" / "_cuelog.json").read_text())
    assert manifest["rules"]["name"] == "wpbsa-2026-draft" and ["minimum", 5] in manifest["rules"]["params"]
    # The same command without --rules: the recorded rules again, and the manifest says so.
    assert cuelog(*args).exit_code == 1
    assert tree(tmp_path / "out", REPLAY_TABLES) == recorded
    assert "rules" not in json.loads((tmp_path / "out" / "_cuelog.json").read_text())


def test_a_built_in_ruleset_id_replays_on_the_cluster_as_in_process(snooker: Path, cluster, tmp_path: Path) -> None:
    data = export(snooker, tmp_path / "archive", 2)
    replay_parquet(cluster, str(data), str(tmp_path / "out"), rules="snooker/classic")
    expected = in_process_results(snooker, tmp_path / "expected", 2, rules="snooker/classic")
    assert tree(tmp_path / "out", REPLAY_TABLES) == tree(expected, REPLAY_TABLES)


def test_a_draft_edited_under_the_same_name_replays_with_its_new_values(snooker: Path, cluster, tmp_path: Path) -> None:
    # A worker process outlives one run: the second version must replace the first there.
    data = export(snooker, tmp_path / "archive", 2)
    first = Derived("edited-draft", "snooker/wpbsa-2024", (("minimum", 5),))
    second = Derived("edited-draft", "snooker/wpbsa-2024", (("minimum", 6),))
    replay_parquet(cluster, str(data), str(tmp_path / "first"), rules=first)
    outcomes = replay_parquet(cluster, str(data), str(tmp_path / "second"), rules=second)
    assert all(o.ok for o in outcomes), [o.failures for o in outcomes]
    five = pq.read_table(tmp_path / "first" / "replay_strokes").column("penalty").to_pylist()
    six = pq.read_table(tmp_path / "second" / "replay_strokes").column("penalty").to_pylist()
    assert min(p for p in five if p) == 5 and min(p for p in six if p) == 6


def test_a_ruleset_spec_is_plain_data_derived_again_on_arrival() -> None:
    spec = to_spec(Derived("spec-check", "snooker/wpbsa-2024", (("minimum", 5), ("warn_after", 1)), "d.toml", "why"))
    assert json.loads(json.dumps(spec)) == spec  # nothing but JSON values crosses the wire
    got = from_spec(spec)
    assert isinstance(got, Derived) and got.id == "snooker/spec-check"
    assert {p.name: p.value for p in parameters_of(got.id)}["minimum"] == 5
    edited = from_spec({**spec, "params": [["minimum", 6]]})
    assert isinstance(edited, Derived)
    assert {p.name: p.value for p in parameters_of(edited.id)}["minimum"] == 6
    assert from_spec(to_spec("snooker/classic")) == "snooker/classic"
    with pytest.raises(ValueError):
        from_spec({**spec, "name": "wpbsa-2024"})  # the name of a built-in ruleset


def test_diff_over_a_dataset_on_the_cluster_prints_the_in_process_document(
    season: Path, cluster, tmp_path: Path
) -> None:
    from cuelog.store import connect

    data = export(season, tmp_path / "archive", 4)
    address = cluster.scheduler.address
    con = connect(season, read_only=True)
    try:
        (event,) = con.execute("SELECT min(event) FROM matches WHERE rules LIKE 'snooker/%'").fetchall()[0]
    finally:
        con.close()
    assert event
    cases = [
        ["--rules", str(DRAFT)],
        ["--rules", str(DRAFT), "--against", "snooker/classic"],
        ["--rules", "snooker/classic", "--event", event],
        ["--rules", "snooker/classic", "--match", "example-officiating", "--match", "snooker-00002"],
        ["--rules", "billiards/classic"],
    ]
    for args in cases:
        in_process = cuelog("diff", "--db", str(season), *args, "--json", "--workers", "1")
        assert in_process.exit_code in (0, 1), in_process.stderr
        on_cluster = cuelog("diff", "--dataset", str(data), "--scheduler", address, *args, "--json")
        assert on_cluster.exit_code == in_process.exit_code, on_cluster.stderr
        assert on_cluster.stdout == in_process.stdout, args
    doc = json.loads(cuelog("diff", "--db", str(season), "--rules", str(DRAFT), "--json").stdout)
    assert doc["summary"]["frames_compared"] > 0 and doc["frames"] and doc["not_compared"]
    human = cuelog("diff", "--dataset", str(data), "--scheduler", address, "--rules", str(DRAFT))
    assert human.stdout == cuelog("diff", "--db", str(season), "--rules", str(DRAFT)).stdout
    lines = [line for line in human.stderr.splitlines() if line.startswith("partition")]
    assert lines and all("match(es) compared" in line for line in lines)  # progress, one line per partition


def test_diff_parquet_from_python_gives_diff_db(season: Path, cluster, tmp_path: Path) -> None:
    from cuelog import diff as d
    from cuelog.store import connect

    data = export(season, tmp_path / "archive", 3)
    draft = load_ruleset_file(DRAFT)
    selection, diffs = diff_parquet(cluster, str(data), draft)
    con = connect(season, read_only=True)
    try:
        expected_selection, expected = d.diff_db(con, draft, workers=1)
    finally:
        con.close()
    assert selection == expected_selection
    assert diffs == expected


def test_diff_over_a_dataset_refuses_what_diff_db_refuses(season: Path, cluster, tmp_path: Path) -> None:
    data = export(season, tmp_path / "archive", 2)
    address = cluster.scheduler.address
    cases = [
        (["--dataset", str(data), "--rules", str(DRAFT)], "go together"),
        (["--dataset", str(data), "--scheduler", address, "--rules", str(DRAFT), "--workers", "2"], "--workers"),
        (["--dataset", str(data), "--scheduler", address, "--baseline", "x.json"], "--baseline"),
        (["--dataset", str(tmp_path), "--scheduler", address, "--rules", str(DRAFT)], "_cuelog.json"),
        (["--dataset", str(data), "--scheduler", address, "--rules", str(DRAFT), "--match", "nope"], "nope"),
        (
            ["--dataset", str(data), "--scheduler", address, "--rules", str(DRAFT), "--against", "billiards/classic"],
            "different disciplines",
        ),
    ]
    for args, message in cases:
        ran = cuelog("diff", *args)
        assert ran.exit_code == 2, (args, ran.stdout)
        assert message in ran.stderr.replace("\n", ""), (args, ran.stderr)
    # A partition that cannot be read is named, as an unreadable database is.
    (matches_file,) = (data / "records" / part_name(0)).glob("*.parquet")
    matches_file.write_bytes(b"not parquet")
    ran = cuelog("diff", "--dataset", str(data), "--scheduler", address, "--rules", str(DRAFT))
    assert ran.exit_code == 2 and str(matches_file) in ran.stderr.replace("\n", "")


def test_a_match_of_another_discipline_fails_its_partition_naming_match_and_file(
    season: Path, cluster, tmp_path: Path
) -> None:
    data = export(season, tmp_path / "archive", 4)
    args = ["replay", "--parquet", str(data), "--scheduler", cluster.scheduler.address, "--out", str(tmp_path / "out")]
    ran = cuelog(*args, "--rules", str(DRAFT), "--json")
    assert ran.exit_code == 2
    doc = json.loads(ran.stdout)
    failures = [f for p in doc["partitions"] for f in p["failures"]]
    billiards = [f for f in failures if "'example-billiards'" in f]
    assert len(billiards) == 1 and "billiards-game.jsonl" in billiards[0] and "another discipline" in billiards[0]
    assert all("'snooker-" not in f for f in failures)  # only the matches it cannot replay are named
    # The in-process replay under the draft refuses the same season.
    assert cuelog("replay", "--db", str(season), "--rules", str(DRAFT)).exit_code == 2
