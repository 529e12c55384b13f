"""Write a simulated season: ``logs/<match>.jsonl`` (cuelog/1), ``clocks/<match>.csv``
(the shot-clock device rows of the match's table, FORMAT.md section 5) and
``errors.jsonl``, the truth of every injected error."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cuelog.schemas.records import encode
from cuelog.simulate.clock import CSV_HEADER
from cuelog.simulate.season import SimMatch

ERRORS_FILE = "errors.jsonl"
LOGS_DIR = "logs"
CLOCKS_DIR = "clocks"


@dataclass(slots=True)
class Written:
    matches: int = 0
    strokes: int = 0
    errors: int = 0


def write_match(out: Path, sim: SimMatch) -> None:
    name = sim.match.match
    with (out / LOGS_DIR / f"{name}.jsonl").open("wb") as fh:
        for record in sim.records:
            fh.write(encode(record))
            fh.write(b"\n")
    with (out / CLOCKS_DIR / f"{name}.csv").open("w", encoding="utf-8", newline="") as fh:
        fh.write(CSV_HEADER)
        fh.writelines(sim.clock_rows)


def write_season(out: Path, season: Iterable[SimMatch]) -> Written:
    """Write every match as it comes and the truth file at the end."""
    (out / LOGS_DIR).mkdir(parents=True, exist_ok=True)
    (out / CLOCKS_DIR).mkdir(parents=True, exist_ok=True)
    stats = Written()
    with (out / ERRORS_FILE).open("w", encoding="utf-8") as errors:
        for sim in season:
            write_match(out, sim)
            stats.matches += 1
            stats.strokes += sim.strokes
            for truth in sim.truth:
                errors.write(json.dumps(truth.to_dict(), sort_keys=True) + "\n")
                stats.errors += 1
    return stats
