"""cuelog's exception hierarchy and validation problems as data.

A :class:`Problem` has a stable ``code`` and names the file, the line and the field, what
was found and what was expected; the CLI prints problems as a table or as JSON and exits
with code 2 (docs/format.md section 7).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input file."""

    file: str
    line: int
    field: str
    code: str
    found: str
    expected: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.code}: found {self.found}, expected {self.expected}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class CuelogError(Exception):
    """Base of every error cuelog raises on purpose."""


class InputError(CuelogError):
    """Input that cannot be read or does not follow cuelog/1. Carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems[:20]))


class UsageError(CuelogError):
    """The command was called wrongly (exit code 2)."""
