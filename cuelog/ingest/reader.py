"""Read cuelog/1 JSON Lines files (plain or gzip) into records, line by line.

Streaming: one line in memory at a time. Problems carry the file and line.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, cast

import msgspec

from cuelog.errors import InputError, Problem
from cuelog.schemas.records import Record, decode


def open_log(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open a log for binary reading, gunzipping ``.gz`` files."""
    p = Path(path)
    if p.suffix == ".gz":
        return cast(IO[bytes], gzip.open(p, "rb"))
    return p.open("rb")


def decode_problem(file: str, line: int, exc: Exception) -> Problem:
    """Turn a msgspec decoding error into a Problem naming the field."""
    text = str(exc)
    field = ""
    if "- at `$." in text:
        text, _, path = text.partition(" - at `$.")
        field = path.rstrip("`")
    if isinstance(exc, msgspec.DecodeError):
        return Problem(file, line, field, "invalid_json", text, "one JSON object per line")
    return Problem(file, line, field, "invalid_record", text, "a cuelog/1 record (FORMAT.md section 4)")


def iter_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, bytes]]:
    """Non-blank lines of a log with their 1-based line numbers."""
    with open_log(path) as fh:
        for number, raw in enumerate(fh, start=1):
            if raw.strip():
                yield number, raw


def read_records(path: str | os.PathLike[str]) -> Iterator[tuple[int, Record]]:
    """Records of one file with their line numbers. Raises InputError on the first bad line."""
    name = str(path)
    try:
        for number, raw in iter_lines(path):
            try:
                yield number, decode(raw)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                raise InputError([decode_problem(name, number, exc)]) from None
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise InputError(
            [Problem(name, 0, "", "unreadable", str(exc), "a readable .jsonl or .jsonl.gz file")]
        ) from None


def log_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Expand files and directories (recursively) into log files, in sorted order."""
    out: list[Path] = []
    for item in paths:
        p = Path(item)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.is_file() and q.name.endswith((".jsonl", ".jsonl.gz"))))
        else:
            out.append(p)
    return out
