"""The shot clocks of a Parquet dataset aligned again over all of it, as every batch does.

    python benchmarks/dataset_clocks.py                           # the working tree, 3 rounds
    python benchmarks/dataset_clocks.py --base HEAD~1 --rounds 5  # a revision against the tree

Every write into a dataset that keeps shot clocks (``cuelog ingest LOGS --clock CSV
--parquet DIR``) aligns every kept clock log with every stroke of the dataset again and
rewrites each partition's ``clocks.parquet`` (``cuelog.distributed.clocks.realign``), so
its cost is paid per batch and grows with the archive. The script simulates a season
(snooker and billiards, the benchmark's mix, one match a file, with the tables' clock
logs), writes it as a dataset with ``cuelog ingest --parquet``, then times ``realign`` on
it in fresh processes, each tree in turn, round by round, beside a floor labelled as such:
one DuckDB query reading every stroke's table and time through the dataset's views (what
any alignment over the whole dataset reads). Peak memory is the process's after the runs.
A digest of the ``clocks.parquet`` files checks that both trees write the same bytes.

With ``--weekly`` it also writes the season into a new dataset week by week, as an archive
grows (``cuelog ingest WEEK_LOGS --clock WEEK_CSVS --parquet DIR``, a fresh process a week,
each tree in turn), each table's clock log cut into one log a week (a device's log of the
days it ran; a log spanning the whole season would make every week align it again), and
prints the time of the first and the last weeks and of them all: what a batch costs as the
archive grows.

Timings are wall clock, medians of ``--repeat`` runs per process, then of the rounds, with
their spread. Never assert them in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from compare import ROOT, export, make_logs

CHILD = r"""
import hashlib, json, os, resource, sys, time
sys.path.insert(0, sys.argv[1])
from cuelog.distributed.layout import Storage
from cuelog.distributed import clocks
from cuelog.distributed.views import loaded_views

data, repeat = sys.argv[2], int(sys.argv[3])
storage = Storage.open(data)

def floor():
    con = loaded_views(storage.url, ("matches", "strokes"), unfinished_ok=True)
    try:
        return con.sql("SELECT count(*), min(epoch_us(s.t)), max(m.table_no) FROM strokes s JOIN matches m USING (match_id)").fetchall()
    finally:
        con.close()

out = {"realign_s": [], "floor_s": []}
for _ in range(repeat):
    for key, fn in (("floor_s", floor), ("realign_s", lambda: clocks.realign(storage))):
        t = time.perf_counter()
        got = fn()
        out[key].append(time.perf_counter() - t)
out["placed"] = sum(p.aligned for p in got.values())
digest = hashlib.sha256()
for root, _, files in sorted(os.walk(os.path.join(data, "shot_clock"))):
    for name in sorted(files):
        digest.update(name.encode())
        with open(os.path.join(root, name), "rb") as fh:
            digest.update(fh.read())
out["digest"] = digest.hexdigest()[:16]
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(json.dumps(out))
"""


def build(work: Path, snooker: int, billiards: int) -> tuple[Path, int]:
    """The season written as a dataset with its clock logs; the dataset and its strokes."""
    make_logs(work, snooker, billiards, 1)
    data = work / "dataset"
    clocks = sorted(str(p) for p in (work / "clocks").glob("*.csv"))
    args = ["ingest", str(work / "logs"), "--clock", *clocks, "--parquet", str(data), "--json"]
    ran = subprocess.run([sys.executable, "-m", "cuelog", *args], capture_output=True, text=True, cwd=ROOT)
    if ran.returncode != 0:
        sys.exit(ran.stderr)
    strokes = sum(text.count('"type":"stroke"') for text in (p.read_text() for p in (work / "logs").glob("*.jsonl")))
    return data, strokes


def weeks(work: Path) -> list[tuple[list[str], list[str]]]:
    """The season's logs by the week of their match's date, with each table's clock log cut
    into weeks the same way: (logs, clock CSVs) a week."""
    logs: dict[int, list[str]] = {}
    first: date | None = None
    for path in sorted((work / "logs").glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            day = date.fromisoformat(json.loads(fh.readline())["date"])
        first = day if first is None else min(first, day)
        logs.setdefault(day.toordinal(), []).append(str(path))
    assert first is not None
    by_week: dict[int, list[str]] = {}
    for ordinal, paths in logs.items():
        by_week.setdefault((ordinal - first.toordinal()) // 7, []).extend(paths)
    clocks: dict[int, list[str]] = {}
    for csv in sorted((work / "clocks").glob("*.csv")):
        header, *rows = csv.read_text(encoding="utf-8").splitlines()
        cut: dict[int, list[str]] = {}
        for row in rows:
            day = date.fromisoformat(row.split(",")[1][:10])
            cut.setdefault((day.toordinal() - first.toordinal()) // 7, []).append(row)
        for week, lines in cut.items():
            out = work / "weekly" / f"{week:03d}" / csv.name
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
            clocks.setdefault(week, []).append(str(out))
    return [(sorted(by_week.get(w, [])), clocks.get(w, [])) for w in sorted(set(by_week) | set(clocks))]


def weekly(tree: Path, work: Path, batches: list[tuple[list[str], list[str]]], name: str) -> list[float]:
    """Each week written into a new dataset by ``cuelog ingest`` of ``tree``: its seconds."""
    data = work / f"weekly-{name}"
    shutil.rmtree(data, ignore_errors=True)
    out = []
    for logs, clocks in batches:
        args = ["ingest", *logs, *(["--clock", *clocks] if clocks else []), "--parquet", str(data), "--json"]
        start = time.perf_counter()
        ran = subprocess.run([sys.executable, "-m", "cuelog", *args], capture_output=True, text=True, cwd=tree)
        out.append(time.perf_counter() - start)
        if ran.returncode != 0:
            sys.exit(f"{tree}: {ran.stderr}")
    return out


def measure(tree: Path, script: Path, data: Path, repeat: int) -> dict[str, Any]:
    ran = subprocess.run(
        [sys.executable, str(script), str(tree), str(data), str(repeat)], capture_output=True, text=True, cwd=tree
    )
    if ran.returncode != 0:
        sys.exit(f"{tree}: {ran.stderr}")
    return dict(json.loads(ran.stdout.strip().splitlines()[-1]))


def spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "low": round(min(values), 3), "high": round(max(values), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", help="git revision to compare against (default: the working tree alone)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (a fresh process per tree each)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs within each process")
    ap.add_argument("--snooker", type=int, default=400, help="snooker matches in the season")
    ap.add_argument("--billiards", type=int, default=100, help="billiards matches in the season")
    ap.add_argument("--weekly", action="store_true", help="also write the season week by week, as an archive grows")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuelog-dataset-clocks-") as tmp:
        work = Path(tmp)
        trees = [("tree", ROOT)]
        if args.base:
            trees.insert(0, ("base", export(args.base, work / "base")))
        data, strokes = build(work, args.snooker, args.billiards)
        script = work / "child.py"
        script.write_text(CHILD, encoding="utf-8")
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
        for _ in range(args.rounds):
            for name, tree in trees:
                runs[name].append(measure(tree, script, data, args.repeat))
        batches = weeks(work) if args.weekly else []
        by_week = {name: [weekly(tree, work, batches, name) for _ in range(args.rounds)] for name, tree in trees}
    doc: dict[str, Any] = {"strokes": strokes, "load": [round(x, 2) for x in os.getloadavg()], "trees": {}}
    if batches:
        doc["weekly"] = {
            name: {
                "weeks": len(batches),
                "first_week_s": spread([r[0] for r in got]),
                "last_week_s": spread([r[-1] for r in got]),
                "all_weeks_s": spread([sum(r) for r in got]),
            }
            for name, got in by_week.items()
        }
    for name, got in runs.items():
        medians = {key: [statistics.median(r[key]) for r in got] for key in ("realign_s", "floor_s")}
        doc["trees"][name] = {
            "realign_s": spread(medians["realign_s"]),
            "floor_s": spread(medians["floor_s"]),
            "realign_over_floor": round(
                statistics.median(medians["realign_s"]) / statistics.median(medians["floor_s"]), 1
            ),
            "peak_mb": max(r["peak_mb"] for r in got),
            "placed": got[0]["placed"],
            "digests": sorted({r["digest"] for r in got}),
        }
    if args.base:
        ratios = [
            statistics.median(b["realign_s"]) / statistics.median(t["realign_s"])
            for b, t in zip(runs["base"], runs["tree"], strict=True)
        ]
        doc["speed_up"] = {**spread(ratios), "rounds": [round(r, 2) for r in ratios]}
        doc["same_bytes"] = doc["trees"]["base"]["digests"] == doc["trees"]["tree"]["digests"]
    if args.json:
        print(json.dumps(doc, indent=2))
        return
    print(f"{strokes:,} strokes in the dataset, load average {doc['load']}")
    for name, t in doc["trees"].items():
        r, f = t["realign_s"], t["floor_s"]
        print(
            f"  {name:<5} realign {r['median']} s ({r['low']}-{r['high']}), floor: read every stroke's table"
            f" and time {f['median']} s ({f['low']}-{f['high']}); {t['realign_over_floor']}x the floor;"
            f" peak {t['peak_mb']} MB; {t['placed']:,} shots placed"
        )
    if args.base:
        s = doc["speed_up"]
        print(f"  base / tree: {s['median']}x (rounds {s['rounds']}); same bytes: {doc['same_bytes']}")
    for name, w in doc.get("weekly", {}).items():
        first, last, every = w["first_week_s"], w["last_week_s"], w["all_weeks_s"]
        print(
            f"  {name:<5} written in {w['weeks']} weeks: first week {first['median']} s, last week {last['median']} s"
            f" ({last['low']}-{last['high']}), all {every['median']} s ({every['low']}-{every['high']})"
        )


if __name__ == "__main__":
    main()
