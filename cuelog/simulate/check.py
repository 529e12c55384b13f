"""Audit accuracy: replay a simulated season and compare its findings with the truth.

An injected error is *found* when the replay reports a finding of the same kind on the
same stroke of the same frame. Recall is the share of injected errors found; precision
the share of findings that are injected errors (a finding the simulator did not inject
is a false alarm of the audit, or a mistake of the simulator: either way a bug).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cuelog.ingest.reader import log_files, read_records
from cuelog.replay import replay_matches
from cuelog.replay.model import MatchResult
from cuelog.schemas.records import Record
from cuelog.simulate.writer import ERRORS_FILE, LOGS_DIR

Key = tuple[str, int, int, str]


@dataclass(slots=True)
class Accuracy:
    injected: int
    found: int
    correct: int
    missed: list[Key] = field(default_factory=list)
    false_alarms: list[Key] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return 1.0 if self.injected == 0 else self.correct / self.injected

    @property
    def precision(self) -> float:
        return 1.0 if self.found == 0 else self.correct / self.found


def finding_keys(results: Iterable[MatchResult]) -> set[Key]:
    """The certain findings: an uncertain one (docs/format.md section 7) claims no error."""
    keys: set[Key] = set()
    for m in results:
        for f in m.findings:
            if f.certain:
                keys.add((m.match, 0, f.n, f.kind))
        for fr in m.frames:
            for f in fr.findings:
                if f.certain:
                    keys.add((m.match, fr.frame, f.n, f.kind))
    return keys


def truth_keys(path: Path) -> set[Key]:
    keys: set[Key] = set()
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                keys.add((row["match"], row["frame"], row["stroke"], row["kind"]))
    return keys


def compare(truth: set[Key], found: set[Key]) -> Accuracy:
    correct = truth & found
    return Accuracy(
        injected=len(truth),
        found=len(found),
        correct=len(correct),
        missed=sorted(truth - found),
        false_alarms=sorted(found - truth),
    )


def check_dir(out: Path) -> Accuracy:
    """Replay every log in ``out`` and compare with its ``errors.jsonl``."""
    records: list[Record] = []
    for f in log_files([out / LOGS_DIR]):
        records.extend(r for _, r in read_records(f))
    return compare(truth_keys(out / ERRORS_FILE), finding_keys(replay_matches(records)))
