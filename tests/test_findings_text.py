"""The findings of ``cuelog replay``'s human output, written as plain aligned text
(``cuelog.analytics.plain``): the same words on every line as the rich table it replaced,
every log-supplied text escaped for the terminal, and the same bytes whatever else is printed."""

from __future__ import annotations

import io
from pathlib import Path

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.testing import CliRunner

from cuelog.analytics import plain
from cuelog.analytics.replay_text import findings_text
from cuelog.analytics.words import kind_words
from cuelog.cli import app
from cuelog.replay.model import Finding
from tests.ingest.conftest import frame, match, stroke, write

FINDINGS = [
    Finding(
        n=7, kind="respot_missing", rule="S3 R7", side=None, points=6, message="pink had to be spotted but was not"
    ),
    Finding(
        n=2,
        kind="condoned_foul",
        rule="S3 R11(b)(iv)",
        side="B",
        points=6,
        message="pink hit first with red on: foul not called (worth 6), condoned",
    ),
    Finding(
        n=12,
        kind="penalty_value",
        rule="S3 R11(b)(iv)",
        side="A",
        points=3,
        message="black hit first with red on: foul called for 4, the rules give 7",
    ),
]


def rich_table(findings: list[Finding]) -> str:
    """The table as the replay printed it before, laid out by rich."""
    t = Table(box=box.SIMPLE_HEAD, padding=(0, 1))
    for name, how in (("stroke", "right"), ("finding", "left"), ("kind", "left"), ("rule", "left")):
        t.add_column(name, justify=how)  # type: ignore[arg-type]
    t.add_column("side", justify="center")
    t.add_column("points", justify="right")
    t.add_column("message", overflow="fold")
    for f in sorted(findings, key=Finding.sort_key):
        t.add_row(str(f.n), kind_words(f.kind), f.kind, escape(f.rule), f.side or "-", str(f.points), escape(f.message))
    out = io.StringIO()
    Console(file=out, width=1000, highlight=False).print(t)
    return out.getvalue()


def test_the_plain_table_has_the_rich_tables_lines_and_columns() -> None:
    text = findings_text(FINDINGS)
    before = rich_table(FINDINGS)
    strip = [line.rstrip() for line in before.splitlines()]
    lines = text.splitlines()
    # Every line but the rule under the header is the same, column for column.
    assert [line for line in lines if "─" not in line] == [line for line in strip if "─" not in line]
    assert [line.split()[0] for line in lines[3:-1]] == ["2", "7", "12"]  # in stroke order


def test_log_text_is_shown_as_written_and_control_characters_as_codes() -> None:
    sneaky = Finding(
        n=1, kind="condoned_foul", rule="S3 R10", side="A", points=4, message="[bold]Ann[/] \x1b[2J\rcleared\x07"
    )
    text = findings_text([sneaky], title="\x1b]0;title\x07 match")
    assert "[bold]Ann[/] \\x1b[2J\\x0dcleared\\x07" in text
    assert "\\x1b]0;title\\x07 match" in text
    assert not any(ch in text for ch in "\x1b\r\x07")
    assert plain.terminal_text("tab\there\u2028") == "tab\\x09here\\u2028"


def test_replay_prints_a_marked_up_and_controlled_name_as_text(tmp_path: Path) -> None:
    log = write(
        tmp_path / "m.jsonl",
        [
            match(match="m\x1b[31m", sides={"A": "[red]Ann\x1b[0m", "B": "Bea"}),
            frame(),
            stroke(1, potted=["red"], score=[1, 0]),
            stroke(2, first=["black"], potted=[], score=[1, 0]),
        ],
    )
    result = CliRunner().invoke(app, ["replay", str(log)])
    assert result.exit_code in (0, 1), result.output
    assert "\x1b" not in result.stdout
    assert result.stdout.splitlines()[0] == "m\\x1b[31m  snooker/wpbsa-2024  [red]Ann\\x1b[0m v Bea"


def test_a_long_season_prints_every_finding_once(tmp_path: Path) -> None:
    """Many frames with findings: each table in its place, each finding on one line."""
    many = [
        Finding(n=n, kind="condoned_foul", rule="S3 R10", side="A", points=4, message=f"foul {n}")
        for n in range(1, 400)
    ]
    text = findings_text(many)
    rows = [line for line in text.splitlines() if line.strip().startswith(tuple("0123456789"))]
    assert [int(r.split()[0]) for r in rows] == list(range(1, 400))
    assert len({len(r) - len(r.rstrip("0123456789")) for r in rows}) == 3  # messages end "foul N"
