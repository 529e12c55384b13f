"""Plain text tables for long human output: aligned columns written as lines.

``cuelog replay`` prints a table of findings for every frame that has any; laying each
out as a rich table cost about 13 ms, as much as replaying the frame. These tables are
laid out in one pass over their cells (the widths, then one line per row) and written as
text, never read as markup. Every cell is made safe for the terminal first
(:func:`terminal_text`): a log supplies names, ids and messages, and a control character
in one (an escape sequence, a carriage return) is shown as its code, never sent to the
terminal as is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Literal

Justify = Literal["left", "right", "center"]

_GAP: Final = "   "
"""Between two columns (a rich table's padding either side and its blank separator)."""


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators.
_CONTROLS: Final = {c: _escaped(chr(c)) for c in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)}


def terminal_text(text: str) -> str:
    """``text`` with every control character shown as its code (``\\x1b``), so that a log
    cannot move the cursor, colour or clear the terminal, or break a line of a table."""
    # Nearly every cell is printable as it is (no control is printable): checked in C, where
    # translating looks up every character (a season prints millions of cells).
    return text if text.isprintable() else text.translate(_CONTROLS)


_ALIGN: Final = {"left": "<", "right": ">", "center": "^"}


def _row_text(row: Iterable[object]) -> list[str]:
    """A row's cells as text for the terminal: a row printable as it is (nearly all) is
    checked in one call."""
    texts = list(map(str, row))
    return texts if "".join(texts).isprintable() else [terminal_text(t) for t in texts]


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    justify: Sequence[Justify] | None = None,
    title: str | None = None,
    *,
    last_runs_on: bool = False,
) -> str:
    """The table as text: a blank line (or the title centred over the table and a blank
    line), the header, a rule, a line per row, a blank line. Cells (any value, as ``str``
    gives it) are escaped (:func:`terminal_text`), left-justified unless ``justify`` says
    otherwise; the last column is not padded when it is left-justified. With
    ``last_runs_on`` the title and the rule span the last column's header only, not its
    longest cell (a list that runs on past the screen)."""
    cells = [_row_text(row) for row in rows]
    columns = list(zip(*cells, strict=True)) or [() for _ in headers]
    return _laid_out(headers, columns, justify, title, last_runs_on)


def column_table(
    headers: Sequence[str],
    columns: Sequence[Sequence[str]],
    justify: Sequence[Justify] | None = None,
    title: str | None = None,
    *,
    last_runs_on: bool = False,
) -> str:
    """:func:`table` of cells given column by column, each already text (a report made
    column by column: a season by match is 59,000 rows), escaped a column at a time."""
    return _laid_out(headers, [_column_text(column) for column in columns], justify, title, last_runs_on)


def _column_text(column: Sequence[str]) -> Sequence[str]:
    """A column's cells for the terminal: a column printable as it is (nearly all) is
    checked in one call."""
    return column if "".join(column).isprintable() else [terminal_text(text) for text in column]


def _laid_out(
    headers: Sequence[str],
    columns: Sequence[Sequence[str]],
    justify: Sequence[Justify] | None,
    title: str | None,
    last_runs_on: bool,
) -> str:
    justify = justify or ["left"] * len(headers)
    widths = [max(len(h), max(map(len, column), default=0)) for h, column in zip(headers, columns, strict=True)]
    # One format for every line, laid out by str.format in C (a season's table by match is
    # 59,000 lines): the last column is padded only when aligned right or centred (numbers).
    # A centred cell ("^") has the odd space on its right.
    last = len(headers) - 1
    specs = [
        "{}" if i == last and how == "left" else f"{{:{_ALIGN[how]}{width}}}"
        for i, (width, how) in enumerate(zip(widths, justify, strict=True))
    ]
    layout = "  " + _GAP.join(specs)

    def line(values: Sequence[str]) -> str:
        return layout.format(*values).rstrip()

    spanned = [*widths[:-1], len(headers[-1])] if last_runs_on and headers else widths
    width = sum(spanned) + len(_GAP) * (len(widths) - 1) + 4
    head = [terminal_text(title).center(width).rstrip(), ""] if title else [""]
    rule = " " + "─" * (width - 2)
    return "\n".join([*head, line(headers), rule, *(line(r) for r in zip(*columns, strict=True)), ""]) + "\n"
