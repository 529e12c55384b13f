"""Decode and validate cuelog/1 stroke records three ways: msgspec, pydantic, jsonschema.

Each contender turns one JSON line (bytes) into a checked stroke, or an error, exactly as
the reader must: parse, check every field's type, build the value. The lines are
generated (deterministic, seed 2026) with the mix of fields real logs have: calls,
respots, pockets, times, scores. Run it from the repository root:

    python benchmarks/validation.py            # 1,000,000 records
    python benchmarks/validation.py --n 100000

It prints records per second for each and its time relative to the fastest of the run.
jsonschema is some hundred times slower than the others, so it is timed on the first
``--slow-n`` records only (default 20,000; the work per record is the same for every
record, so its rate carries over); its row says so.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jsonschema
import msgspec
import pydantic

from cuelog.schemas import schema_text
from cuelog.schemas.records import Stroke

COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]
POCKETS = ["TL", "TR", "ML", "MR", "BL", "BR"]


def generate(n: int, seed: int = 2026) -> list[bytes]:
    """``n`` stroke lines, a frame of up to 120 strokes after another."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        frame, number = divmod(i, 120)
        potted = rng.choice([[], [], ["red"], [rng.choice(COLOURS)]])
        record: dict[str, object] = {
            "type": "stroke",
            "frame": frame + 1,
            "n": number + 1,
            "striker": rng.choice("AB"),
            "t": f"2026-05-01T14:{number % 60:02d}:{rng.randrange(60):02d}.{rng.randrange(1000):03d}Z",
            "first": [rng.choice(["red", *COLOURS])],
            "potted": potted,
            "pockets": [rng.choice(POCKETS) for _ in potted],
            "cushions": {"objects": rng.randrange(3), "after_contact": True, "cue_first": False},
            "call": None,
            "score": [rng.randrange(150), rng.randrange(150)],
            "break": rng.randrange(100),
        }
        if potted and potted[0] != "red":
            record["respots"] = [{"ball": potted[0], "spot": potted[0]}]
        if rng.random() < 0.05:
            record["call"] = {"foul": True, "points": rng.choice([4, 5, 6, 7]), "miss": rng.random() < 0.5}
        out.append(json.dumps(record).encode())
    return out


# -- pydantic: the same record, as pydantic models ------------------------------------------


class PCushions(pydantic.BaseModel):
    objects: int | None = None
    after_contact: bool | None = None
    cue_first: bool | None = None


class PCall(pydantic.BaseModel):
    foul: bool = False
    points: int | None = None
    miss: bool = False
    free_ball: bool = False
    reason: str | None = None
    visits: int | None = None
    ball_in_hand: bool | None = None
    loss_of_frame: bool | None = None


class PRespot(pydantic.BaseModel):
    ball: str
    spot: str | None = None
    x: float | None = None
    y: float | None = None


class PInfringement(pydantic.BaseModel):
    code: str
    ball: str | None = None


class PStroke(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(frozen=True, strict=True)

    type: Literal["stroke"]
    frame: int
    n: int
    striker: str
    first: list[str]
    potted: list[str]
    t: str | None = None
    then: list[str] | None = None
    pockets: list[str] | None = None
    off_table: list[str] | None = None
    cushions: PCushions | None = None
    nominated: str | None = None
    pocket_called: str | None = None
    placement: str | None = None
    crossed_baulk: bool | None = None
    push_out: bool | None = None
    infringements: list[PInfringement] | None = None
    positions: list[tuple[str, float, float]] | None = None
    call: PCall | None = None
    respots: list[PRespot] | None = None
    score: list[int] | None = None
    break_: int | None = pydantic.Field(default=None, alias="break")


# -- the contenders ---------------------------------------------------------------------------


def contenders() -> dict[str, Callable[[bytes], object]]:
    msgspec_decoder = msgspec.json.Decoder(Stroke)
    validator = jsonschema.Draft202012Validator(json.loads(schema_text()))

    def with_jsonschema(line: bytes) -> object:
        value = json.loads(line)
        validator.validate(value)
        return value

    return {
        "msgspec": msgspec_decoder.decode,
        "pydantic": PStroke.model_validate_json,
        "jsonschema": with_jsonschema,
    }


SLOW = frozenset({"jsonschema"})


def run(n: int, slow_n: int) -> list[tuple[str, int, float]]:
    """(contender, records checked, seconds) for each contender."""
    lines = generate(n)
    timings = []
    for name, check in contenders().items():
        sample = lines[: min(n, slow_n)] if name in SLOW else lines
        start = time.perf_counter()
        for line in sample:
            check(line)
        timings.append((name, len(sample), time.perf_counter() - start))
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="stroke records to decode (default 1,000,000)")
    parser.add_argument("--slow-n", type=int, default=20_000, help="records jsonschema is timed on (default 20,000)")
    args = parser.parse_args()
    timings = run(args.n, args.slow_n)
    rates = {name: count / seconds for name, count, seconds in timings}
    fastest = max(rates.values())
    print(f"{args.n:,} stroke records, Python {platform.python_version()}, {platform.machine()}")
    print(
        f"msgspec {msgspec.__version__}, pydantic {pydantic.VERSION}, "
        f"jsonschema {__import__('importlib.metadata').metadata.version('jsonschema')}"
    )
    print(f"{'library':<12}{'records':>11}{'seconds':>10}{'records/s':>14}{'time vs fastest':>17}")
    for name, count, seconds in timings:
        print(f"{name:<12}{count:>11,}{seconds:>10.2f}{rates[name]:>14,.0f}{fastest / rates[name]:>16.1f}x")


if __name__ == "__main__":
    main()
