"""Everything a log supplies is shown as written: names that look like terminal markup are text."""

from __future__ import annotations

import pytest

from tests.ingest.conftest import cli, frame, match, stroke, write

NAMES = {"A": "[/red]Ann", "B": "Bea[bold] $\\frac{$"}  # rich markup, and matplotlib mathtext that cannot parse


@pytest.fixture(scope="module")
def marked(tmp_path_factory: pytest.TempPathFactory):
    d = tmp_path_factory.mktemp("markup")
    log = write(
        d / "m.jsonl",
        [
            match(match="m[/b]", sides=NAMES, event="[/]"),
            frame(),
            stroke(1, potted=["red"], score=[1, 0]),
            stroke(2, first=["black"], potted=[], score=[1, 0]),
        ],
    )
    db = d / "m.duckdb"
    assert cli("ingest", log, "--db", db).exit_code == 0
    assert cli("replay", "--db", db, "--workers", "1").exit_code == 0
    return log, db


@pytest.mark.parametrize(
    "command",
    [
        ("ingest", "{log}", "--db", "{db}.fresh"),
        ("matches", "--db", "{db}"),
        ("replay", "--db", "{db}", "--workers", "1"),
        ("replay", "{log}"),
        ("report", "breaks", "--db", "{db}"),
        ("report", "clock", "--db", "{db}"),
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_names_that_look_like_markup_are_printed_as_written(marked, command):
    log, db = marked
    result = cli(*(part.format(log=log, db=db) for part in command))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.output
    shown = result.stdout
    assert ("[/red]Ann" in shown and "Bea[bold]" in shown) or "m[/b]" in shown


@pytest.mark.parametrize("picture", [("breaks",), ("worm", "--match", "m[/b]"), ("clock",)], ids=lambda p: p[0])
def test_pictures_draw_names_as_written(marked, picture, tmp_path):
    _, db = marked
    out = tmp_path / "p.png"
    result = cli("plot", *picture, "--db", db, "--out", out)
    if picture[0] == "clock":  # no shot times in this log: said, not drawn
        assert result.exit_code == 2 and "no shot-clock times" in result.stderr
        return
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:4] == b"\x89PNG"


MARKUP = ["[bold]x[/bold]", "[/]", "[/red]", "back\\", "[link=file:///etc]y[/link]"]


def test_problems_print_every_cell_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """A problem's file, field, found and expected come from the input: markup, a closing
    tag with nothing open, a trailing backslash are printed literally, never read or crashed on."""
    from cuelog.cli.common import print_problems
    from cuelog.errors import Problem

    problems = [Problem(f"{m}.jsonl", 3, m, "wrong_type", m, m) for m in MARKUP]
    print_problems(problems, as_json=False)
    err = capsys.readouterr().err
    for m in MARKUP:
        assert f"{m}.jsonl: 1 problem(s)" in err
        row = next(line for line in err.splitlines() if line.strip().startswith("3 ") and m in line)
        assert row.count(m) == 3, row  # field, found and expected


def test_validate_prints_a_marked_up_file_name_and_value_as_written(tmp_path) -> None:
    bad = write(tmp_path / "[red]x[bold].jsonl", [match(match="m"), {"type": "frame", "frame": "[/]"}])
    result = cli("validate", bad)
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "[red]x[bold].jsonl: 1 problem(s)" in result.stderr
    assert 'str "[/]"' in result.stderr


def test_a_quoted_clock_glob_with_markup_is_named_as_written(tmp_path) -> None:
    pattern = str(tmp_path / "[bold]*.csv")
    result = cli("ingest", write(tmp_path / "m.jsonl", [match(), frame()]), "--clock", pattern, "--db", tmp_path / "d")
    assert result.exit_code == 2
    assert pattern in " ".join(result.stderr.split())
