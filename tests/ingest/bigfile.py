"""A large valid log, written line by line (never held in memory), for size-related tests."""

from __future__ import annotations

import json
from pathlib import Path

from tests.ingest.conftest import frame, match, stroke

STROKES_PER_FRAME = 100


def write_big_log(path: Path, target_bytes: int, match_id: str = "big", bad_last_line: str | None = None) -> int:
    """Write one match of ~``target_bytes``; returns the number of lines (the bad line included)."""
    number = 0
    frame_no = 0
    with path.open("w", encoding="utf-8") as fh:

        def emit(text: str) -> None:
            nonlocal number
            fh.write(text + "\n")
            number += 1

        emit(json.dumps(match(match=match_id)))
        while fh.tell() < target_bytes:
            frame_no += 1
            emit(json.dumps(frame(frame_no)))
            for n in range(1, STROKES_PER_FRAME + 1):
                emit(
                    json.dumps(
                        stroke(
                            n,
                            frame=frame_no,
                            striker="AB"[n % 2],
                            t=f"2026-05-01T{10 + frame_no // 3600 % 10:02d}:{frame_no // 60 % 60:02d}:{frame_no % 60:02d}.{n:03d}Z",
                            first=["red"],
                            potted=["red"] if n % 3 else [],
                            pockets=["TL"] if n % 3 else [],
                            score=[n, n // 2],
                            **{"break": n},
                        )
                    )
                )
        if bad_last_line is not None:
            emit(bad_last_line)
    return number
