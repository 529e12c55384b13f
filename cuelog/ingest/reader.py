"""Read cuelog/1 JSON Lines files (plain or gzip) into records, line by line.

Streaming: one line in memory at a time (a line is cut off at :data:`MAX_LINE` bytes, so
even a file of binary garbage with no newline never sits in memory whole). Whatever is
wrong with a file (unreadable, bad gzip, truncated JSON, bytes that are not UTF-8, an
empty file) becomes a :class:`~cuelog.errors.Problem` naming the file and the line, never
a traceback. A small plain log with nothing to report is read whole instead, its lines
decoded in one call (:func:`whole_records`, :func:`lines_of`), the same records with the
same numbers.
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, cast

import msgspec

from cuelog.errors import InputError, Problem
from cuelog.schemas.records import Record, decode, typed_decoder

MAX_LINE = 1 << 20
"""Longest line accepted (1 MiB); a stroke record is a few hundred bytes."""

BOM = b"\xef\xbb\xbf"
BOM_FOUND = "a byte-order mark (EF BB BF) at the start of the file"
BOM_EXPECTED = "UTF-8 without a byte-order mark (docs/format.md section 2); the lines after it are still checked"
CR_FOUND = "lines ended by a carriage return (CR) alone"
CR_EXPECTED = "lines ended by LF or CR LF (docs/format.md section 2)"

_CR_LINE = re.compile(rb"\r[ \t]*[{\[]")
"""A CR followed by the start of another JSON value: lines ended by CR alone."""

_READ_ERRORS = (OSError, EOFError, zlib.error)

_ASCII_SPACE = " \t\n\r\x0b\x0c"
"""What ``bytes.strip`` removes: a line of only these is blank to the reader."""


def open_log(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open a log for binary reading, gunzipping ``.gz`` files."""
    p = Path(path)
    if p.suffix == ".gz":
        return cast(IO[bytes], gzip.open(p, "rb"))
    return p.open("rb")


def gz_size(path: str | os.PathLike[str]) -> int | None:
    """The size a gzipped file records for what it holds (its last four bytes: modulo 4 GiB,
    of its last member, so a hint, not a promise), or None when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            fh.seek(-4, os.SEEK_END)
            return int.from_bytes(fh.read(4), "little")
    except OSError:
        return None


def decode_problem(file: str, line: int, exc: Exception) -> Problem:
    """Turn a msgspec decoding error into a Problem naming the field."""
    text = str(exc)
    field = ""
    if "- at `$." in text:
        text, _, path = text.partition(" - at `$.")
        field = path.rstrip("`")
    # ValidationError is a subclass of DecodeError: test for it first.
    if isinstance(exc, msgspec.ValidationError):
        return Problem(file, line, field, "invalid_record", text, "a cuelog/1 record (docs/format.md section 4)")
    return Problem(file, line, field, "invalid_json", text, "one JSON object per line")


def _lines(fh: IO[bytes]) -> Iterator[tuple[bytes, bool]]:
    """Raw lines, each cut at MAX_LINE bytes; the flag says the line was longer (and cut)."""
    while True:
        raw = fh.readline(MAX_LINE)
        if not raw:
            return
        if len(raw) == MAX_LINE and not raw.endswith(b"\n"):
            # Skip the rest of the over-long line without holding it.
            while True:
                rest = fh.readline(MAX_LINE)
                if not rest or rest.endswith(b"\n"):
                    break
            yield raw, True
        else:
            yield raw, False


def scan(path: str | os.PathLike[str]) -> Iterator[tuple[int, str | Problem]]:
    """Every non-blank line of a log as text, or the Problem that stops it being one.

    Never raises for bad content: an unreadable file, a broken gzip stream, a line that is
    not UTF-8 or is too long, and a file with no records at all are each yielded as a
    Problem with the line where it was found. Reading continues after a bad line; it stops
    only when the bytes themselves cannot be read any further.
    """
    name = str(path)
    number = 0
    records = 0
    try:
        with open_log(path) as fh:
            for number, (raw, cut) in enumerate(_lines(fh), start=1):
                if cut and _CR_LINE.search(raw):
                    yield number, Problem(name, number, "", "cr_line_endings", CR_FOUND, CR_EXPECTED)
                    records += 1
                    continue
                if cut:
                    yield (
                        number,
                        Problem(
                            name, number, "", "line_too_long", f"more than {MAX_LINE} bytes", "one JSON object per line"
                        ),
                    )
                    records += 1
                    continue
                if number == 1 and raw.startswith(BOM):
                    yield number, Problem(name, number, "", "byte_order_mark", BOM_FOUND, BOM_EXPECTED)
                    raw = raw[len(BOM) :]
                if not raw.strip():
                    continue
                records += 1
                if b"\r" in raw and _CR_LINE.search(raw):
                    # readline splits on LF only: a file ended by CR alone arrives as one line.
                    yield number, Problem(name, number, "", "cr_line_endings", CR_FOUND, CR_EXPECTED)
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    found = f"byte 0x{raw[exc.start]:02x} at column {exc.start + 1}"
                    yield number, Problem(name, number, "", "not_utf8", found, "UTF-8 text (docs/format.md section 2)")
                    continue
                yield number, text.strip()
    except _READ_ERRORS as exc:
        what = "gzip" if isinstance(exc, (gzip.BadGzipFile, EOFError, zlib.error)) else "file"
        yield (
            number + 1,
            Problem(name, number + 1, "", "unreadable", f"{what} error: {exc}", "a readable .jsonl or .jsonl.gz file"),
        )
        return
    if records == 0:
        yield 1, Problem(name, 1, "", "empty_file", "no records", "a match record and its frames")


def whole_records(path: str | os.PathLike[str]) -> list[tuple[int, Record]] | None:
    """The records of a plain log of at most :data:`WHOLE_FILE_BYTES` with their line
    numbers, its lines found and decoded in one call (:func:`decoded_lines`): about half
    the CPU of reading and decoding it line by line (benchmarks/README.md, "replay LOGS: a
    small log decoded in one call"). None for any other log, or one that call cannot answer
    for whole (something to report, a stroke naming a ball outside the schema): the caller
    reads it line by line."""
    p = Path(path)
    try:
        if p.suffix == ".gz" or p.stat().st_size > WHOLE_FILE_BYTES:
            return None
        data = p.read_bytes()
    except OSError:
        return None  # the line-by-line read reports it
    decoded = decoded_lines(data)
    if decoded is None:
        return None
    numbered, records = decoded
    return [(number, record) for (number, _), record in zip(numbered, records, strict=True)]


def lines_of(data: bytes, first: int = 1) -> list[tuple[int, str]] | None:
    """The non-blank lines of a small log's bytes (or of a part of a log that starts on
    line ``first``), numbered as the reader numbers them, or None when the bytes hold
    anything the reader reports (a byte-order mark, CR line ends, bytes that are not UTF-8,
    an over-long line, no record at all) or a line that does not start with ``{`` and end
    with ``}``."""
    if data.startswith(BOM) or b"\r" in data or (len(data) >= MAX_LINE and _has_long_line(data)):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    out = []
    for number, raw in enumerate(text.split("\n"), start=first):
        line = raw.strip()
        if line[:1] == "{" and line[-1:] == "}":
            out.append((number, line))
        elif line or raw.strip(_ASCII_SPACE):
            # Not one object on its line (see decoded_lines), or blank to str.strip and not
            # to the reader: the detailed check says what it is.
            return None
    return out or None


def _has_long_line(data: bytes) -> bool:
    return any(len(raw) >= MAX_LINE - 1 for raw in data.split(b"\n"))


def decoded_lines(data: bytes, first: int = 1) -> tuple[list[tuple[int, str]], list[Record]] | None:
    """A small log's lines (:func:`lines_of`, from line ``first``) and their records, all
    decoded in one call of the decoder; None when :func:`lines_of` gives none or a line
    does not hold exactly one record.

    The decoder reads a stream of JSON values and knows no lines, so every line must start
    with ``{`` and end with ``}`` (:func:`lines_of` checked that): a ``}`` followed by white
    space and ``{`` can only end a value at the top level (inside a value a ``,``, ``]`` or
    ``}`` must follow, and a JSON string holds no raw line break), so no value runs over a
    line's end, and as many values as lines means one a line.
    """
    numbered = lines_of(data, first)
    if numbered is None:
        return None
    try:
        records = typed_decoder.decode_lines(data)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    return (numbered, records) if len(records) == len(numbered) else None


def iter_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, bytes]]:
    """Non-blank lines of a log with their 1-based line numbers. Raises InputError on unreadable bytes."""
    for number, item in scan(path):
        if isinstance(item, Problem):
            if item.code == "empty_file":
                return
            raise InputError([item])
        yield number, item.encode("utf-8")


WHOLE_FILE_BYTES = 4 << 20
"""A plain log up to this size is read whole by :func:`read_records` (its records held
until the last is taken); a larger or gzipped one line by line."""


def read_records(path: str | os.PathLike[str]) -> Iterator[tuple[int, Record]]:
    """Records of one file with their line numbers. Raises InputError on the first bad line.

    This is the fast path for code that needs the records of a file already known to be
    valid; :mod:`cuelog.ingest.validate` reports every problem of a file instead. A small
    plain log is read whole and its lines decoded in one call (:func:`whole_records`),
    where that gives every record; any other, or one with anything to report, line by line.
    """
    whole = whole_records(path)
    if whole is not None:
        yield from whole
        return
    yield from records_by_line(path)


def records_by_line(path: str | os.PathLike[str]) -> Iterator[tuple[int, Record]]:
    """:func:`read_records`, every log line by line."""
    name = str(path)
    for number, item in scan(path):
        if isinstance(item, Problem):
            raise InputError([item])
        try:
            yield number, decode(item)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise InputError([decode_problem(name, number, exc)]) from None


CORRECTIONS_SUFFIX = ".corrections.jsonl"
"""Officials' corrections kept beside the logs they correct; a directory's logs leave them out."""

CLOCK_SUFFIXES = (".csv",)
"""Shot-clock device logs (docs/format.md section 5): never stroke logs."""


def is_log(path: Path) -> bool:
    """A stroke log found in a directory: ``.jsonl`` or ``.jsonl.gz``, not a corrections file."""
    name = path.name
    return name.endswith((".jsonl", ".jsonl.gz")) and not name.endswith(
        (CORRECTIONS_SUFFIX, CORRECTIONS_SUFFIX + ".gz")
    )


def is_clock_csv(path: str | os.PathLike[str]) -> bool:
    return str(path).lower().endswith(CLOCK_SUFFIXES)


def log_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Expand files and directories (recursively) into log files, in sorted order.

    A file given by name is taken as a log whatever its name (and reported if it is not
    one); a directory gives its ``.jsonl``/``.jsonl.gz`` files, leaving out
    ``*.corrections.jsonl`` (officials' corrections, for ``--corrections``).
    """
    out: list[Path] = []
    for item in paths:
        p = Path(item)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.is_file() and is_log(q)))
        else:
            out.append(p)
    return out
