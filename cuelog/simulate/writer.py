"""Write a simulated season: ``logs/<match>.jsonl`` (cuelog/1), ``clocks/<table>.csv``
(each table's shot-clock device log, docs/format.md section 5) and
``errors.jsonl``, the truth of every injected error."""

from __future__ import annotations

import json
from collections.abc import Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cuelog.schemas.records import encode
from cuelog.simulate.clock import CSV_HEADER
from cuelog.simulate.season import SimMatch

ERRORS_FILE = "errors.jsonl"
LOGS_DIR = "logs"
CLOCKS_DIR = "clocks"


@dataclass(slots=True)
class SeasonStats:
    """What a season's files hold."""

    matches: int = 0
    strokes: int = 0
    errors: int = 0


def write_log(out: Path, sim: SimMatch) -> None:
    with (out / LOGS_DIR / f"{sim.match.match}.jsonl").open("wb") as fh:
        for record in sim.records:
            fh.write(encode(record))
            fh.write(b"\n")


def write_season(out: Path, season: Iterable[SimMatch]) -> SeasonStats:
    """Write every match as it comes: its log, its rows in its table's shot-clock file (one
    device per table, matches in schedule order, so each file is in time order), and its
    injected errors."""
    (out / LOGS_DIR).mkdir(parents=True, exist_ok=True)
    (out / CLOCKS_DIR).mkdir(parents=True, exist_ok=True)
    stats = SeasonStats()
    with ExitStack() as stack:
        errors = stack.enter_context((out / ERRORS_FILE).open("w", encoding="utf-8"))
        devices: dict[str, IO[str]] = {}
        for sim in season:
            write_log(out, sim)
            table = sim.match.table or "1"
            device = devices.get(table)
            if device is None:
                device = stack.enter_context(
                    (out / CLOCKS_DIR / f"{table}.csv").open("w", encoding="utf-8", newline="")
                )
                device.write(CSV_HEADER)
                devices[table] = device
            device.writelines(sim.clock_rows)
            stats.matches += 1
            stats.strokes += sim.strokes
            for truth in sim.truth:
                errors.write(json.dumps(truth.to_dict(), sort_keys=True) + "\n")
                stats.errors += 1
    return stats
