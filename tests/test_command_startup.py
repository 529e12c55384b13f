"""What a command loads before it runs: ``cuelog --help`` lists every command without
importing any command's module, and a command imports what it uses, not what the others
use (Polars, matplotlib, DuckDB, pyarrow), and no command imports pydantic (Typer from 0.29
coerces every option through it; pyproject.toml keeps Typer below). Checked by the modules a
fresh interpreter holds after the command, never by timing it."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cuelog.cli import COMMANDS, app, load, reflowed, root

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HEAVY = ("polars", "matplotlib", "duckdb", "pyarrow", "numpy", "pydantic")

# Runs the command line in this interpreter, then prints the modules it holds.
_PROBE = """
import json, sys
from cuelog.cli import app
try:
    app(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
sys.stdout.write("\\n" + json.dumps({"exit": code, "modules": sorted(sys.modules)}))
"""


def loaded(*args: str | Path) -> tuple[int, set[str]]:
    """The exit code of ``cuelog ARGS`` in a fresh interpreter and the modules it imported."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *map(str, args)], capture_output=True, text=True, check=False, timeout=300
    )
    doc = json.loads(done.stdout.rsplit("\n", 1)[-1])
    return doc["exit"], set(doc["modules"])


def heavy(modules: set[str]) -> set[str]:
    return {m for m in HEAVY if m in modules}


def command_modules(modules: set[str]) -> set[str]:
    return {m.removeprefix("cuelog.cli.") for m in modules if m.removeprefix("cuelog.cli.") in COMMANDS}


def test_help_lists_every_command_without_importing_one() -> None:
    code, modules = loaded("--help")
    assert code == 0
    assert command_modules(modules) == set()
    assert heavy(modules) == set()


def test_help_is_what_the_commands_themselves_would_list() -> None:
    """``--help`` made from :data:`COMMANDS` is the help of a group holding every command
    (imported, its help reflowed as :func:`cuelog.cli.load` gives it), line for line: the
    same commands, order and words."""
    eager = typer.Typer(
        name="cuelog", help=app.info.help, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False
    )
    eager.callback()(root)
    for name in COMMANDS:
        importlib.import_module(f"cuelog.cli.{name}").register(eager)
    for info in eager.registered_commands:  # each command's help as cuelog.cli.load gives it
        info.help = reflowed(info.help or inspect.getdoc(info.callback) or "")
    runner = CliRunner()
    lazy_help, eager_help = runner.invoke(app, ["--help"]), runner.invoke(eager, ["--help"])
    assert lazy_help.exit_code == eager_help.exit_code == 0
    assert lazy_help.stdout == eager_help.stdout
    for name in COMMANDS:
        assert f" {name} " in lazy_help.stdout


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_listed_help_is_the_first_paragraph_of_the_commands_own(name: str) -> None:
    command = load(name)
    assert command.name == name
    assert inspect.cleandoc(command.help or "").split("\n\n")[0] == COMMANDS[name]


@pytest.mark.parametrize(
    ("args", "absent"),
    [
        (("validate", EXAMPLES), HEAVY),
        (("validate", "--help"), HEAVY),
        (("schema",), HEAVY),
        (("rules", "list"), HEAVY),
        (("replay", "--help"), HEAVY),
        (("replay", EXAMPLES / "snooker-officiating.jsonl"), HEAVY),
        (("report", "--help"), HEAVY),
        (("ingest", "--help"), HEAVY),
        (("matches", "--help"), HEAVY),
        (("plot", "--help"), HEAVY),
        (("export", "--help"), HEAVY),
        (("audit", "--help"), HEAVY),
        (("simulate", "--help"), HEAVY),
        (("diff", "--help"), HEAVY),
    ],
    ids=lambda a: " ".join(str(x).replace(str(EXAMPLES), "examples") for x in a) if isinstance(a, tuple) else "",
)
def test_a_command_imports_only_what_it_uses(args: tuple[str | Path, ...], absent: tuple[str, ...]) -> None:
    code, modules = loaded(*args)
    assert code in (0, 1)
    assert {m for m in absent if m in modules} == set()
    # Only its own command module (and the modules commands share) is imported.
    own = str(args[0])
    assert command_modules(modules) <= {own}


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The examples' snooker and billiards logs loaded and replayed into a store."""
    db = tmp_path_factory.mktemp("store") / "s.duckdb"
    runner = CliRunner()
    logs = [str(EXAMPLES / f"{name}.jsonl") for name in ("snooker-officiating", "snooker-maximum", "billiards-game")]
    assert runner.invoke(app, ["ingest", *logs, "--db", str(db)]).exit_code == 0
    assert runner.invoke(app, ["replay", "--db", str(db)]).exit_code in (0, 1)
    return db


@pytest.mark.parametrize("kind", ["breaks", "billiards", "misses", "clock"])
@pytest.mark.parametrize("output", [(), ("--json",)], ids=["table", "json"])
def test_a_report_printed_imports_neither_polars_nor_arrow(replayed: Path, kind: str, output: tuple[str, ...]) -> None:
    """The report's table and ``--json`` come from DuckDB's group rows as plain values:
    Polars, pyarrow and numpy are about a third of a second of a report's start-up."""
    code, modules = loaded("report", kind, "--db", replayed, *output)
    assert code == 0
    assert {m for m in ("polars", "pyarrow", "numpy", "matplotlib", "pydantic") if m in modules} == set()


def test_a_report_written_to_a_file_has_its_rows(replayed: Path, tmp_path: Path) -> None:
    """``--csv`` makes the Polars frame the printed table does without: the same rows."""
    runner = CliRunner()
    shown = json.loads(runner.invoke(app, ["report", "breaks", "--db", str(replayed), "--json"]).stdout)
    out = tmp_path / "breaks.csv"
    result = runner.invoke(app, ["report", "breaks", "--db", str(replayed), "--csv", str(out)])
    assert result.exit_code == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("player,frames,")
    assert [line.split(",")[0] for line in lines[1:]] == [row["player"] for row in shown["players"]]


def test_a_usage_error_still_names_the_command_and_suggests_one() -> None:
    result = CliRunner().invoke(app, ["valdate", "x"])
    assert result.exit_code == 2
    assert "No such command 'valdate'" in result.output and "'validate'" in result.output


def test_the_version_option_needs_no_command() -> None:
    code, modules = loaded("--version")
    assert code == 0
    assert command_modules(modules) == set() and heavy(modules) == set()


def test_a_commands_help_is_reflowed_paragraph_by_paragraph_and_examples_kept() -> None:
    """Typer keeps a docstring's line breaks, which the terminal then wraps again: each
    prose paragraph is given on one line, examples and lists line by line."""
    doc = """First line
    goes on.

    A paragraph written
    over three
    lines.

    Examples:

      cuelog ingest a/
      cuelog ingest b/ --json

    - one item
    - another
    """
    assert reflowed(doc) == (
        "First line goes on.\n\nA paragraph written over three lines.\n\nExamples:\n\n"
        "  cuelog ingest a/\n  cuelog ingest b/ --json\n\n- one item\n- another"
    )
    result = CliRunner().invoke(app, ["ingest", "--help"], env={"COLUMNS": "200"})
    assert "and the database is left as it was; the other files still load." in result.stdout


# The command's entry point, then numpy imported: the thread setting and the threads it added.
_BLAS_PROBE = """
import os, sys
sys.argv = ["cuelog", "--version"]
from cuelog import __main__
try:
    __main__.main()
except SystemExit:
    pass
before = len(os.listdir("/proc/self/task"))
import numpy
print(os.environ["OPENBLAS_NUM_THREADS"], len(os.listdir("/proc/self/task")) - before)
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc (Linux)")
@pytest.mark.parametrize(("given", "expected"), [(None, ["1", "0"]), ("4", ["4"])])
def test_a_command_keeps_numpys_blas_to_the_calling_thread_unless_told_otherwise(
    given: str | None, expected: list[str]
) -> None:
    """cuelog does no linear algebra, so numpy (which pyarrow imports) starts no OpenBLAS
    threads in a command's processes; a setting of the user's stands."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    out = subprocess.run([sys.executable, "-c", _BLAS_PROBE], capture_output=True, text=True, env=env, check=True)
    setting_and_threads = out.stdout.splitlines()[-1].split()  # after the version line
    assert setting_and_threads[: len(expected)] == expected, out.stdout
