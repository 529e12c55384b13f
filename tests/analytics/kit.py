"""Hand-built cuelog/1 logs for the analytics tests, and a loader that puts them in a database.

``Log`` writes legal strokes with correct calls (facts and calls agree), so each test can
work out its statistics by hand from the strokes it builds. ``load`` stores logs the way
ingest does (matches, records, shot_clock) so ``cuelog replay --db`` can read them back.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import duckdb
from typer.testing import CliRunner

from cuelog.cli import app
from cuelog.store import connect

COLOURS = {"yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}


class Log:
    """A cuelog/1 log under construction: one match, its frames, strokes, choices, events."""

    def __init__(self, match: str, a: str, b: str, rules: str = "snooker/wpbsa-2024", **extra: Any) -> None:
        self.records: list[dict[str, Any]] = [
            {"type": "match", "format": "cuelog/1", "match": match, "rules": rules, "sides": {"A": a, "B": b}, **extra}
        ]
        self.frame_no = 0
        self.n = 0
        self.reds = 15
        self.last_red = False

    # -- structure -----------------------------------------------------------------------

    def frame(self, breaker: str = "A", reds: int = 15) -> Log:
        self.frame_no += 1
        self.n = 0
        self.reds = reds
        self.last_red = False
        self.records.append({"type": "frame", "frame": self.frame_no, "breaker": breaker})
        return self

    def stroke(self, striker: str, first: list[str], potted: list[str], **fields: Any) -> Log:
        self.n += 1
        rec = {"type": "stroke", "frame": self.frame_no, "n": self.n, "striker": striker, "first": first}
        rec["potted"] = potted
        rec.setdefault("call", None)
        rec.update(fields)
        self.records.append(rec)
        return self

    def choice(self, side: str, option: str) -> Log:
        self.records.append({"type": "choice", "frame": self.frame_no, "after": self.n, "side": side, "option": option})
        return self

    def event(self, kind: str, **fields: Any) -> Log:
        self.records.append({"type": "event", "frame": self.frame_no, "after": self.n, "kind": kind, **fields})
        return self

    def clock(self, elapsed_s: float, limit_s: float | None = None, paused_s: float = 0.0) -> Log:
        """A shot-clock reading for the last stroke: ``elapsed_s`` the shot time, pauses excluded."""
        self.records.append(
            {
                "type": "clock",
                "frame": self.frame_no,
                "n": self.n,
                "limit_s": limit_s,
                "elapsed_s": elapsed_s,
                "paused_s": paused_s,
            }
        )
        return self

    def end(self, winner: str, reason: str = "pot") -> Log:
        self.records.append({"type": "frame_end", "frame": self.frame_no, "winner": winner, "reason": reason})
        return self

    # -- snooker strokes with the right calls ---------------------------------------------

    def red(self, side: str) -> Log:
        """Pot a red (1 point)."""
        self.reds -= 1
        self.last_red = True
        return self.stroke(side, ["red"], ["red"])

    def colour(self, side: str, ball: str) -> Log:
        """Pot a colour: spotted while reds remain and for the colour after the last red (S3 R7)."""
        spotted = self.reds > 0 or self.last_red
        nominated = {"nominated": ball} if self.last_red else {}
        self.last_red = False
        respots = [{"ball": ball, "spot": ball}] if spotted else []
        return self.stroke(side, [ball], [ball], respots=respots, **nominated)

    def clearance(self, side: str) -> Log:
        """The colours in ascending order, yellow to black (S3 R3(h))."""
        for ball in COLOURS:
            self.colour(side, ball)
        return self

    def safety(self, side: str, first: str = "red") -> Log:
        """A legal stroke that pots nothing: the turn ends."""
        self.last_red = False
        return self.stroke(side, [first], [])

    def foul(
        self, side: str, first: list[str], points: int, potted: list[str] | None = None, miss: bool = False
    ) -> Log:
        self.last_red = False
        return self.stroke(side, first, potted or [], call={"foul": True, "points": points, "miss": miss})

    def text(self) -> str:
        return "".join(json.dumps(r) + "\n" for r in self.records)

    def write(self, path: Path) -> Path:
        path.write_text(self.text(), encoding="utf-8")
        return path


def load(db: Path, *logs: Log) -> Path:
    """Load logs into a cuelog database with ``cuelog ingest`` (each written to
    ``<db dir>/logs/<match>.jsonl``); while ingest is not in the tree, store them the way it
    does (matches, records, shot clock)."""
    if importlib.util.find_spec("cuelog.cli.ingest") is not None:
        connect(db).close()  # an empty database is a database too
        if logs:
            folder = db.parent / "logs"
            folder.mkdir(exist_ok=True)
            files = [str(log.write(folder / f"{log.records[0]['match']}.jsonl")) for log in logs]
            result = CliRunner().invoke(app, ["ingest", *files, "--db", str(db)])
            assert result.exit_code == 0, result.output
        return db
    con = connect(db)
    try:
        for log in logs:
            _load_one(con, log)
    finally:
        con.close()
    return db


def _load_one(con: duckdb.DuckDBPyConnection, log: Log) -> None:
    text = log.text()
    file_hash = hashlib.sha256(text.encode()).hexdigest()
    m = log.records[0]
    con.execute(
        "INSERT INTO ingest_log VALUES (?, ?, ?, ?, now())",
        [file_hash, f"{m['match']}.jsonl", [m["match"]], len(log.records)],
    )
    con.execute(
        "INSERT INTO matches (match_id, rules, side_a, side_b, best_of, event, date, file_hash, body) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            m["match"],
            m["rules"],
            m["sides"]["A"],
            m["sides"]["B"],
            m.get("best_of"),
            m.get("event"),
            m.get("date"),
            file_hash,
            json.dumps(m),
        ],
    )
    for seq, rec in enumerate(log.records):
        n = rec.get("n", rec.get("after"))
        con.execute(
            "INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?)",
            [m["match"], seq, seq + 1, rec["type"], rec.get("frame"), n, json.dumps(rec)],
        )
        if rec["type"] == "clock":
            # elapsed_s is the time the shot took, pauses excluded (as ingest reads it).
            con.execute(
                "INSERT INTO shot_clock VALUES (?, ?, ?, ?, ?, ?, 'record')",
                [m["match"], rec["frame"], rec["n"], rec["elapsed_s"], rec.get("paused_s"), rec.get("limit_s")],
            )


# -- the hand-built matches the statistics tests work out by hand ------------------------------


def maximum(match: str = "m1-maximum") -> Log:
    """Bob breaks off; Ann clears the table: 15 reds with 15 blacks and the colours, 147."""
    log = Log(match, "Ann", "Bob", event="Spring Open", date="2026-03-01").frame(breaker="B")
    log.safety("B")
    for _ in range(15):
        log.red("A").colour("A", "black")
    return log.clearance("A").end("A")


def two_fifties(match: str = "m2-two-fifties") -> Log:
    """Bob makes 56 and 67 in one frame; Ann makes 21 between them."""
    log = Log(match, "Ann", "Bob", event="Spring Open", date="2026-03-02").frame(breaker="A")
    log.safety("A")
    for _ in range(7):
        log.red("B").colour("B", "black")  # 7 x 8 = 56
    log.safety("B")
    for _ in range(3):
        log.red("A").colour("A", "pink")  # 3 x 7 = 21
    log.safety("A")
    for _ in range(5):
        log.red("B").colour("B", "black")  # 5 x 8 = 40, the last red gone
    return log.clearance("B").end("B")  # 40 + 27 = 67


def miss_sequence(match: str = "m3-misses") -> Log:
    """Bob misses three times running (5 each, A has him replace and play again), then
    hits the red; Ann goes in-off (4). Shot clock on, limit 30 s."""
    log = Log(match, "Ann", "Bob", event="Autumn Cup", date="2026-09-10").frame(breaker="B")
    log.safety("B").clock(12.0, 30)  # n1
    log.safety("A").clock(10.0, 30)  # n2
    log.foul("B", ["blue"], 5, miss=True).clock(25.0, 30)  # n3
    log.choice("A", "replace_return")
    log.foul("B", ["blue"], 5, miss=True).clock(31.0, 30)  # n4
    log.choice("A", "replace_return")
    log.foul("B", ["blue"], 5, miss=True).clock(18.5, 30)  # n5
    log.choice("A", "replace_return")
    log.safety("B").clock(40.0, 30)  # n6: the sequence ends
    log.foul("A", ["red"], 4, potted=["white"]).clock(16.0, 30)  # n7: in-off
    log.red("B").colour("B", "black")  # n8, n9
    return log.safety("B")  # n10


def billiards_game(match: str = "m4-billiards") -> Log:
    """English billiards: Cara scores 9 then fouls (push stroke) in the middle of her visit."""
    log = Log(match, "Cara", "Dan", rules="billiards/wpbsa-2024", event="Billiards League", target=100)
    log.frame(breaker="A")
    spot = [{"ball": "red", "spot": "spot"}]
    log.stroke("A", ["red"], ["red"], placement="legal", respots=spot)  # n1: 3
    log.stroke("A", ["red"], ["red"], respots=[{"ball": "red", "spot": "centre"}])  # n2: 3, second from the spot
    log.stroke("A", ["red"], ["red"], respots=spot)  # n3: 3
    log.stroke("A", ["red"], [], infringements=[{"code": "push_stroke"}], call={"foul": True, "points": 2})  # n4
    log.stroke("B", ["red"], ["red"], placement="legal", respots=spot)  # n5: 3
    log.stroke("B", ["red"], [], then=["white"])  # n6: cannon 2
    log.stroke("B", ["red"], [])  # n7: nothing, the visit ends
    log.stroke("A", ["red"], ["red"], respots=spot)  # n8: 3
    log.stroke("A", ["red"], [])  # n9
    return log.stroke("B", ["white"], [])  # n10
