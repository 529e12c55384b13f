"""The follower reads a growing file as `tail -f` does: whole lines, truncation and rotation said."""

from __future__ import annotations

import os
from pathlib import Path

from cuelog.live.follow import Follower, Line, Notice


def _lines(items: list[Line | Notice]) -> list[tuple[int, bytes]]:
    return [(i.number, i.data) for i in items if isinstance(i, Line)]


def _notices(items: list[Line | Notice]) -> list[str]:
    return [i.code for i in items if isinstance(i, Notice)]


def test_only_complete_lines_are_read_and_a_partial_line_waits(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    log.write_bytes(b'{"a": 1}\n{"b"')
    f = Follower(log)
    assert _lines(f.poll()) == [(1, b'{"a": 1}')]
    assert f.pending == b'{"b"'
    assert f.poll() == []
    with log.open("ab") as fh:
        fh.write(b": 2}\r\n\n")
    assert _lines(f.poll()) == [(2, b'{"b": 2}'), (3, b"")]
    assert f.pending == b""


def test_a_missing_file_is_said_once_and_read_when_it_appears(tmp_path: Path) -> None:
    log = tmp_path / "later.jsonl"
    f = Follower(log)
    assert _notices(f.poll()) == ["missing"]
    assert f.poll() == []
    log.write_bytes(b"x\n")
    items = f.poll()
    assert _notices(items) == ["appeared"] and _lines(items) == [(1, b"x")]


def test_truncation_is_said_and_lines_already_read_are_not_given_again(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    log.write_bytes(b"one\ntwo\nthr")
    f = Follower(log)
    assert _lines(f.poll()) == [(1, b"one"), (2, b"two")]
    log.write_bytes(b"one\n")
    items = f.poll()
    assert _notices(items) == ["truncated"] and _lines(items) == []
    notice = next(i for i in items if isinstance(i, Notice))
    assert "truncated to 4 bytes" in notice.message and "unfinished line of 3 bytes" in notice.message
    with log.open("ab") as fh:
        fh.write(b"two\nthree\n")
    assert _lines(f.poll()) == [(3, b"three")]


def test_a_log_saved_whole_through_a_new_file_is_read_on_from_the_first_new_line(tmp_path: Path) -> None:
    """Rotation is detected by inode; the lines the new file repeats are not given twice."""
    log = tmp_path / "m.jsonl"
    log.write_bytes(b"old 1\nold 2\n")
    f = Follower(log)
    assert len(_lines(f.poll())) == 2
    (tmp_path / "next.jsonl").write_bytes(b"old 1\nold 2\nnew 3\n")
    os.rename(tmp_path / "next.jsonl", log)
    items = f.poll()
    assert _notices(items) == ["rotated"]
    assert _lines(items) == [(3, b"new 3")]


def test_a_different_file_in_its_place_is_said_rewritten_and_read_from_line_1(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    log.write_bytes(b"old 1\nold 2\n")
    f = Follower(log)
    assert len(_lines(f.poll())) == 2
    os.rename(log, tmp_path / "m.jsonl.1")
    (tmp_path / "next.jsonl").write_bytes(b"old 1\nnew 2\nnew 3\n")
    os.rename(tmp_path / "next.jsonl", log)
    items = f.poll()
    assert _notices(items) == ["rotated", "rewritten"]
    assert next(i for i in items if isinstance(i, Notice) and i.code == "rewritten").line == 2
    assert _lines(items) == [(1, b"old 1"), (2, b"new 2"), (3, b"new 3")]
