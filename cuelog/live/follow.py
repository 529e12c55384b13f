"""Follow a growing log file as ``tail -f`` does: complete new lines only.

A partial last line waits in a buffer until its newline arrives. Between two reads the
file is checked by inode and size: a file replaced by another (rotated) is read from the
start of the new file, a file that shrank (truncated) from its new start; both are said
as a :class:`Notice`, never passed over. The follower never sleeps: the caller polls.
"""

from __future__ import annotations

import os
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
    """Something that happened to the file itself: ``missing``, ``appeared``, ``rotated``, ``truncated``, ``too_long``."""

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

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    @property
    def pending(self) -> bytes:
        """The partial last line still waiting for its newline."""
        return self._buffer

    def _open(self) -> None:
        self._fh = self.path.open("rb")
        self._inode = os.fstat(self._fh.fileno()).st_ino
        self._offset, self._buffer, self._number, self._skipping = 0, b"", 0, False

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
            self._open()
            return [Notice("appeared", f"{self.path} appeared; reading it from the start")] if said else []
        if st.st_ino != self._inode:
            self.close()
            self._open()
            return [Notice("rotated", f"{self.path} was replaced by a new file; reading the new file from line 1")]
        if st.st_size < self._offset:
            lost = self._buffer
            self.close()
            self._open()
            msg = f"{self.path} was truncated to {st.st_size} bytes; reading it again from line 1"
            if lost:
                msg += f" (an unfinished line of {len(lost)} bytes was dropped with it)"
            return [Notice("truncated", msg)]
        return []

    def poll(self) -> list[Line | Notice]:
        """Everything that can be said now: notices and the complete lines appended."""
        out: list[Line | Notice] = list(self._check())
        if self._fh is None:
            return out
        while True:
            chunk = self._fh.read(CHUNK)
            if not chunk:
                break
            self._offset += len(chunk)
            out.extend(self._split(chunk))
        return out

    def _split(self, chunk: bytes) -> list[Line | Notice]:
        out: list[Line | Notice] = []
        data = self._buffer + chunk
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            self._number += 1
            if self._skipping:
                self._skipping = False
            else:
                out.append(Line(self._number, data[start:end].rstrip(b"\r")))
            start = end + 1
        self._buffer = data[start:]
        if len(self._buffer) > MAX_LINE:
            # A line that never ends must not fill memory (as the reader's MAX_LINE).
            self._buffer, self._skipping = b"", True
            out.append(Notice("too_long", f"line {self._number + 1}: more than {MAX_LINE} bytes", self._number + 1))
        return out
