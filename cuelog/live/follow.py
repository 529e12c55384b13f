"""Follow a growing log file as ``tail -f`` does: complete new lines only.

A partial last line waits in a buffer until its newline arrives. Between two reads the
file is checked by inode and size: a file replaced by another (rotated, or saved whole
through a temporary file) or one that shrank (truncated) is said as a :class:`Notice`,
never passed over, and read again from its first line. The lines already read are known
by their checksums: those the new file repeats in the same places are not given again,
so a recorder that rewrites its whole log does not make the watch say everything twice.
Where the new file differs from what was read (``rewritten``), it is read from line 1
and the caller starts over. The follower never sleeps: the caller polls.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cuelog.ingest.reader import MAX_LINE

CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class Line:
    """One complete line of the followed file (without its newline), 1-based ``number``."""

    number: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Notice:
    """Something that happened to the file itself: ``missing``, ``appeared``, ``rotated``,
    ``truncated``, ``rewritten`` (read again from line 1: start over), ``too_long``."""

    code: str
    message: str
    line: int = 0


class Follower:
    """Reads what has been appended to ``path`` since the last call to :meth:`poll`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._fh: IO[bytes] | None = None
        self._inode: int | None = None
        self._offset = 0
        self._buffer = b""
        self._number = 0
        self._skipping = False
        self._missing_said = False
        self._sums: list[int] = []
        """Checksum of every complete line read, by line number."""
        self._expect: list[int] | None = None
        """After a rotation or truncation: the lines read before, which the new file may repeat."""

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    @property
    def pending(self) -> bytes:
        """The partial last line still waiting for its newline."""
        return self._buffer

    def _open(self, *, compare: bool) -> None:
        self.close()
        self._fh = self.path.open("rb")
        self._inode = os.fstat(self._fh.fileno()).st_ino
        self._expect = self._sums if compare and self._sums else None
        self._offset, self._buffer, self._number, self._skipping, self._sums = 0, b"", 0, False, []

    def _check(self) -> list[Notice]:
        """Open the file, or notice that it was rotated or truncated since the last read."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            if self._fh is None and not self._missing_said:
                self._missing_said = True
                return [Notice("missing", f"{self.path} does not exist yet; waiting for it")]
            return []
        if self._fh is None:
            said = self._missing_said
            self._open(compare=False)
            return [Notice("appeared", f"{self.path} appeared; reading it from the start")] if said else []
        again = "; reading it again from line 1, lines already read passed over where they are the same"
        if st.st_ino != self._inode:
            self._open(compare=True)
            return [Notice("rotated", f"{self.path} was replaced by a new file{again}")]
        if st.st_size < self._offset:
            lost = self._buffer
            self._open(compare=True)
            msg = f"{self.path} was truncated to {st.st_size} bytes{again}"
            if lost:
                msg += f" (an unfinished line of {len(lost)} bytes was dropped with it)"
            return [Notice("truncated", msg)]
        return []

    def poll(self) -> list[Line | Notice]:
        """Everything that can be said now: notices and the complete lines appended."""
        out: list[Line | Notice] = list(self._check())
        while self._fh is not None:
            chunk = self._fh.read(CHUNK)
            if not chunk:
                break
            self._offset += len(chunk)
            lines = self._split(chunk)
            out.extend(lines)
            if lines and isinstance(lines[-1], Notice) and lines[-1].code == "rewritten":
                self._open(compare=False)
        return out

    def _split(self, chunk: bytes) -> list[Line | Notice]:
        out: list[Line | Notice] = []
        data = self._buffer + chunk
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            line = data[start:end].rstrip(b"\r")
            start = end + 1
            self._number += 1
            self._sums.append(zlib.crc32(line))
            if self._skipping:
                self._skipping = False
            elif len(line) > MAX_LINE:
                out.append(Notice("too_long", f"line {self._number}: more than {MAX_LINE} bytes", self._number))
            elif self._expect is not None and self._number <= len(self._expect):
                if self._expect[self._number - 1] != self._sums[-1]:
                    # Not the log already read: read it again from line 1, and start over.
                    what = f"{self.path} differs from what was read at line {self._number}; reading it from line 1"
                    return [*out, Notice("rewritten", what, self._number)]
            else:
                self._expect = None
                out.append(Line(self._number, line))
        self._buffer = data[start:]
        if len(self._buffer) > MAX_LINE:
            # A line that never ends must not fill memory (as the reader's MAX_LINE).
            if not self._skipping:
                out.append(Notice("too_long", f"line {self._number + 1}: more than {MAX_LINE} bytes", self._number + 1))
            self._buffer, self._skipping = b"", True
        return out
