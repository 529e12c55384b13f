"""Every problem of log files: the fast check first (:mod:`cuelog.ingest.clean`), the
detailed check (:mod:`cuelog.ingest.validate`) of a file it cannot call clean, and worker
processes for many files (:mod:`cuelog.ingest.pool`). Above the two checks, so that neither
imports the other's caller: the fast check builds on the detailed one's rules.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from cuelog.errors import Problem
from cuelog.ingest.clean import is_clean
from cuelog.ingest.collector import collector_paused
from cuelog.ingest.pool import PART_BYTES, in_order, parts
from cuelog.ingest.reader import log_files
from cuelog.ingest.validate import detailed_problems


def validate_file(path: str | os.PathLike[str]) -> list[Problem]:
    """Every problem of one log file, in line order.

    A small plain log the fast check (:mod:`cuelog.ingest.clean`) calls clean has none, as
    ingest finds; any other goes through :func:`detailed_problems`, which names them all.
    """
    return [] if is_clean(path) else detailed_problems(path)


def validate_paths(
    paths: Iterable[str | os.PathLike[str]], *, workers: int = 1, part_bytes: int | None = None
) -> list[Problem]:
    """Every problem of every log under ``paths`` (files, .gz, directories, sorted), in
    file order. With ``workers`` of 2 or more, that many processes check the files a part
    (of about ``part_bytes``) at a time (:mod:`cuelog.ingest.pool`): the same problems in
    the same order. A worker knows the built-in rulesets, not those installed in this
    process (``cuelog.replay.derived.install``): ``cuelog validate`` installs none."""
    todo = parts(log_files(paths), PART_BYTES if part_bytes is None else part_bytes)
    return [p for found in in_order(validate_part, todo, workers) for p in found]


def validate_part(names: list[str]) -> list[Problem]:
    """Every problem of these logs, file after file (in a worker process, or in this one)."""
    problems: list[Problem] = []
    with collector_paused():
        for name in names:
            path = Path(name)
            if not path.exists():
                problems.append(Problem(name, 0, "", "unreadable", "no such file", "an existing file or directory"))
                continue
            problems.extend(validate_file(path))
    return problems
