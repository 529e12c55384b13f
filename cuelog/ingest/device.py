"""What a shot-clock device log is made of (docs/format.md section 5): its events, and a row
that ends up in no shot. Below both readers of the logs, the Python one
(:mod:`cuelog.ingest.clock`) and DuckDB's (:mod:`cuelog.ingest.clockdb`), which the first
hands its plain logs to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

EVENTS: Final = ("start", "pause", "resume", "stop", "reset", "expire")
"""A device's events, in the order docs/format.md section 5 explains them."""


@dataclass(frozen=True, slots=True)
class Unplaced:
    """A device row that ends up in no stored shot, and why."""

    line: int
    table: str
    ts: str
    event: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "table": self.table, "ts": self.ts, "event": self.event, "reason": self.reason}
