"""Helpers for the live tests: a recorder that appends a log line by line, the real command."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class Recorder(threading.Thread):
    """Appends ``lines`` to ``path`` one by one with pauses, as a match recorder would.

    Some lines are written in two pieces with a pause between: the watch must wait for
    the newline. ``after_each`` is called with the line number after each line is flushed.
    """

    def __init__(self, path: Path, lines: list[bytes], *, seed: int = 1, pause_s: float = 0.004) -> None:
        super().__init__(daemon=True)
        self.path, self.lines, self.pause_s = path, lines, pause_s
        self.rng = random.Random(seed)
        self.done = threading.Event()

    def run(self) -> None:
        with self.path.open("ab", buffering=0) as fh:
            for line in self.lines:
                if len(line) > 10 and self.rng.random() < 0.3:
                    cut = self.rng.randrange(1, len(line) - 1)
                    fh.write(line[:cut])
                    time.sleep(self.pause_s)
                    fh.write(line[cut:])
                else:
                    fh.write(line)
                time.sleep(self.rng.uniform(0, 2 * self.pause_s))
        self.done.set()


def log_lines(path: Path) -> list[bytes]:
    return [line if line.endswith(b"\n") else line + b"\n" for line in path.read_bytes().splitlines(keepends=True)]


def start_watch(*args: str) -> subprocess.Popen[str]:
    """The real command line in a subprocess (``python -m cuelog watch ...``)."""
    return subprocess.Popen(
        [sys.executable, "-m", "cuelog", "watch", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def watch_while_recording(log: Path, source: Path, *args: str, seed: int = 1) -> tuple[int, list[dict[str, Any]], str]:
    """Start ``cuelog watch --json`` on an empty ``log``, record ``source`` into it, collect the output."""
    log.write_bytes(b"")
    proc = start_watch(str(log), "--json", "--until-end", *args)
    rec = Recorder(log, log_lines(source), seed=seed)
    rec.start()
    out, err = proc.communicate(timeout=300)
    rec.join(timeout=60)
    assert rec.done.is_set()
    return proc.returncode, [json.loads(x) for x in out.splitlines()], err


def _key(match: str, frame: int | None, finding: dict[str, Any]) -> str:
    return json.dumps([match, frame, finding], sort_keys=True)


FINDING_FIELDS = ("n", "kind", "rule", "side", "points", "message", "certain", "unless")


def standing(events: list[dict[str, Any]]) -> Counter[str]:
    """Findings the watch said, less those it withdrew, as comparable keys."""
    said: Counter[str] = Counter()
    for e in events:
        if e["event"] == "finding":
            said[_key(e["match"], e["frame"], {k: e[k] for k in FINDING_FIELDS if k in e})] += 1
        elif e["event"] == "withdrawn":
            key = _key(e["match"], e["frame"], e["finding"])
            assert said[key] > 0, f"withdrawn a finding never said: {e}"
            said[key] -= 1
    return +said


def replayed(doc: dict[str, Any]) -> Counter[str]:
    """The findings of a ``cuelog replay --json`` document, as the same keys."""
    out: Counter[str] = Counter()
    for m in doc["matches"]:
        for f in m.get("findings", []):
            out[_key(m["match"], None, f)] += 1
        for fr in m["frames"]:
            for f in fr["findings"]:
                out[_key(m["match"], fr["frame"], f)] += 1
    return out


def replay_doc(path: Path) -> tuple[int, dict[str, Any]]:
    r = subprocess.run(
        [sys.executable, "-m", "cuelog", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    return r.returncode, json.loads(r.stdout)
