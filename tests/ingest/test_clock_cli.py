"""Shot-clock CSVs on the command line as a newcomer gives them: globs, directories, wrong commands."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from tests.conftest import EXAMPLES
from tests.ingest.conftest import cli

CLOCKS = EXAMPLES / "clocks.csv"
OFFICIATING = EXAMPLES / "snooker-officiating.jsonl"


def _split(tmp_path):
    """The example clock log cut in two files, as a device writing one file per session would."""
    head, *rows = CLOCKS.read_text().splitlines()
    d = tmp_path / "clocks"
    d.mkdir()
    (d / "a.csv").write_text("\n".join([head, *rows[:16]]) + "\n")
    (d / "b.csv").write_text("\n".join([head, *rows[16:]]) + "\n")
    return d


def test_a_shell_glob_after_clock_loads_every_csv_as_a_clock_log(tmp_path):
    d = _split(tmp_path)
    # What `cuelog ingest LOG --clock clocks/*.csv` passes once the shell has expanded the glob.
    result = cli("ingest", OFFICIATING, "--clock", d / "a.csv", d / "b.csv", "--db", tmp_path / "s.duckdb", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [f["path"] for f in doc["files"]] == [str(OFFICIATING)]
    assert [(c["path"], c["status"]) for c in doc["clocks"]] == [
        (str(d / "a.csv"), "loaded"),
        (str(d / "b.csv"), "loaded"),
    ]
    assert sum(c["aligned"] for c in doc["clocks"]) == 15


def test_a_directory_after_clock_means_its_csv_files(tmp_path):
    d = _split(tmp_path)
    result = cli("ingest", OFFICIATING, "--clock", d, "--db", tmp_path / "s.duckdb", "--json")
    assert result.exit_code == 0, result.output
    assert [c["path"] for c in json.loads(result.stdout)["clocks"]] == [str(d / "a.csv"), str(d / "b.csv")]


def test_a_csv_among_the_logs_is_said_to_be_read_as_a_clock_log(tmp_path):
    result = cli("ingest", OFFICIATING, CLOCKS, "--db", tmp_path / "s.duckdb")
    assert result.exit_code == 0, result.output
    assert "read as shot-clock logs" in result.stderr
    assert "invalid_json" not in result.output


def test_a_missing_clock_file_names_the_file_without_line_0(tmp_path):
    result = cli("ingest", OFFICIATING, "--clock", tmp_path / "clocks.csv", "--db", tmp_path / "s.duckdb")
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())
    assert "No such file" in err and "clocks.csv" in err
    assert "line 0" not in err and " 0 " not in err
    assert "rejected: , " not in err
    assert f"rejected: {tmp_path / 'clocks.csv'}" in err


def test_validate_checks_a_csv_as_a_clock_log(tmp_path):
    assert cli("validate", CLOCKS).exit_code == 0
    bad = tmp_path / "bad.csv"
    shutil.copy(CLOCKS, bad)
    with bad.open("a") as fh:
        fh.write("1,yesterday,stop\n")
    result = cli("validate", bad, "--json")
    assert result.exit_code == 2
    [problem] = json.loads(result.stdout)["problems"]
    assert (problem["code"], problem["field"]) == ("bad_time", "ts")


def test_replay_of_a_csv_says_it_is_a_clock_log(tmp_path):
    result = cli("replay", CLOCKS)
    assert result.exit_code == 2
    assert "shot-clock CSV" in result.stderr and "--clock" in result.stderr


def test_a_quoted_glob_after_clock_is_expanded_sorted(tmp_path):
    """`cuelog ingest LOG --clock 'clocks/*.csv'`: the shell left the glob whole; cuelog
    expands it, in sorted order, as the help says."""
    d = _split(tmp_path)
    (d / "0-first.csv").write_text(CLOCKS.read_text().splitlines()[0] + "\n")  # a header only: no rows
    result = cli("ingest", OFFICIATING, "--clock", str(d / "*.csv"), "--db", tmp_path / "s.duckdb", "--json")
    assert result.exit_code == 0, result.output
    clocks = json.loads(result.stdout)["clocks"]
    assert [c["path"] for c in clocks] == [str(d / "0-first.csv"), str(d / "a.csv"), str(d / "b.csv")]
    assert sum(c["aligned"] for c in clocks) == 15


def test_a_quoted_glob_that_matches_nothing_is_a_clear_error(tmp_path):
    pattern = str(tmp_path / "clocks" / "*.csv")
    result = cli("ingest", OFFICIATING, "--clock", pattern, "--db", tmp_path / "s.duckdb")
    assert result.exit_code == 2
    assert f"--clock {pattern}: no file matches this pattern" in " ".join(result.stderr.split())
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "s.duckdb").exists()  # nothing loaded on half an instruction
    as_json = cli("ingest", OFFICIATING, "--clock", pattern, "--db", tmp_path / "s.duckdb", "--json")
    assert as_json.exit_code == 2 and json.loads(as_json.stdout)["error"]["code"] == "no_logs"


def test_a_file_whose_name_holds_glob_characters_is_read_as_itself(tmp_path):
    odd = tmp_path / "table[1].csv"
    shutil.copy(CLOCKS, odd)
    result = cli("ingest", OFFICIATING, "--clock", odd, "--db", tmp_path / "s.duckdb", "--json")
    assert result.exit_code == 0, result.output
    assert [c["path"] for c in json.loads(result.stdout)["clocks"]] == [str(odd)]


def test_the_summary_gives_each_file_one_line_as_written(tmp_path):
    """A season is thousands of files: one plain line each, the path whole, markup printed as
    written and a control character as an escape, never sent to the terminal."""
    odd = tmp_path / "day[bold]1\x1b[31m.jsonl"
    shutil.copy(OFFICIATING, odd)
    clocks = tmp_path / "t[red]7.csv"
    shutil.copy(CLOCKS, clocks)
    result = cli("ingest", odd, "--clock", clocks, "--db", tmp_path / "s.duckdb")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout
    lines = result.stdout.splitlines()
    [log_line] = [line for line in lines if "day[bold]1" in line]
    assert log_line.split() == ["loaded", "example-officiating", "20", str(tmp_path / "day[bold]1\\x1b[31m.jsonl")]
    [clock_line] = [line for line in lines if "t[red]7.csv" in line]
    assert clock_line.split() == ["loaded", "33", "15", "15", "0", str(clocks)]


def test_ingest_with_clock_logs_does_not_load_polars(tmp_path):
    """`cuelog ingest LOG --clock CSV` in a fresh interpreter: the logs and the clocks are
    loaded, and Polars (a second or so of start-up on a busy machine) is never imported."""
    db = tmp_path / "s.duckdb"
    code = (
        "import sys\n"
        "from cuelog.__main__ import main\n"
        "sys.argv = ['cuelog', 'ingest', sys.argv[1], '--clock', sys.argv[2], '--db', sys.argv[3], '--json']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "sys.stderr.write('polars imported' if 'polars' in sys.modules else 'no polars')\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(OFFICIATING), str(CLOCKS), str(db)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr.endswith("no polars")
    assert sum(c["aligned"] for c in json.loads(run.stdout)["clocks"]) == 15
