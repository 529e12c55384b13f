"""The rules engines alone: strokes per second over decoded records, against two floors.

    python benchmarks/engine.py                         # the working tree, 3 rounds
    python benchmarks/engine.py --base HEAD~3 --rounds 5   # a revision against the working tree
    python benchmarks/engine.py --strokes 300000 --json
    python benchmarks/engine.py --mix pool --base HEAD~1     # the pool engines

The season is the benchmark's mix (``benchmarks/run.py``: about 70% snooker and 30%
English billiards strokes, officiating errors at 2%), simulated once; with ``--mix pool``
the pool games instead (World and WPA eight-ball 20% each, nine-ball and 14.1 30% each). Each measurement
runs in a fresh process with the tree to measure first on the import path; it decodes
every log into records (timed: the *decode* floor), loops over the decoded strokes
touching every field (the *touch* floor: the least any replay could cost), then replays
the decoded records through the engines (``replay_matches``, one log at a time: the
*engine*), then does so again with Python's cyclic collector paused, as ``cuelog replay``
pauses it (of logs and ``--db``, in its workers too), each three times, and prints the
medians with their spread. With ``--base``
the two trees alternate round by round, and each round's ratio base / tree is printed
(medians of the rounds, with their spread): on a shared machine the ratio of runs taken
back to back means more than either rate. A digest of every result checks that both
trees give the same output.

Timings are wall clock. Never assert them in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# Run in a child process, with the tree to measure first on sys.path.
CHILD = r"""
import gc, hashlib, json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
import msgspec
from cuelog.ingest.reader import read_records
from cuelog.replay import replay_matches
from cuelog.schemas import records as _records
from cuelog.schemas.records import Stroke

# The classes a stroke decodes as (a revision before TypedStroke has Stroke alone).
STROKE_TYPES = (getattr(_records, "TypedStroke", Stroke), Stroke)

def decode(paths):
    return [[r for _, r in read_records(p)] for p in paths]

def touch(files):
    fields = Stroke.__struct_fields__
    acc = 0
    for records in files:
        for s in records:
            if type(s) in STROKE_TYPES:
                for name in fields:
                    if getattr(s, name) is not None:
                        acc += 1
    return acc

def engine(files):
    return [replay_matches(records) for records in files]

def engine_paused(files):
    # The collector off, as cuelog replay turns it off (pipeline._replay_chunk, logreplay.replay_part).
    gc.disable()
    try:
        return engine(files)
    finally:
        gc.enable()

def timed(fn, arg, repeat):
    wall, cpu, value = [], [], None
    for _ in range(repeat):
        value = None
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        value = fn(arg)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return wall, cpu, value

def main():
    paths = sorted(Path(sys.argv[2]).glob("*.jsonl"))
    repeat = int(sys.argv[3])
    decode_s, decode_cpu, files = timed(decode, paths, repeat)
    touch_s, touch_cpu, _ = timed(touch, files, repeat)
    engine_s, engine_cpu, results = timed(engine, files, repeat)
    paused_s, paused_cpu, _ = timed(engine_paused, files, repeat)
    strokes = sum(1 for records in files for r in records if isinstance(r, Stroke))
    digest = hashlib.sha256()
    for per_file in results:
        for m in per_file:
            digest.update(msgspec.json.encode(m))
    print(json.dumps({"strokes": strokes, "decode_s": decode_s, "touch_s": touch_s, "engine_s": engine_s,
                      "paused_s": paused_s, "decode_cpu": decode_cpu, "touch_cpu": touch_cpu,
                      "engine_cpu": engine_cpu, "paused_cpu": paused_cpu, "digest": digest.hexdigest()}))

if __name__ == "__main__":
    main()
"""


MIXES: dict[str, tuple[tuple[str, str, float, int], ...]] = {
    # name: (discipline, ruleset, share of the strokes, strokes a simulated match has about)
    "cue": (("snooker", "snooker/wpbsa-2024", 0.7, 250), ("billiards", "billiards/wpbsa-2024", 0.3, 190)),
    "pool": (
        ("eightball", "eightball/world-2015", 0.2, 85),
        ("eightball-wpa", "eightball/wpa", 0.2, 75),
        ("nineball", "nineball/wpa", 0.3, 50),
        ("straight-pool", "straight-pool/wpa", 0.3, 320),
    ),
}
"""The seasons measured: ``cue``, the benchmark's mix (as ``benchmarks/run.py`` builds it:
the issue's target is set on it), and ``pool``, the pool games, whose racks are short."""


def make_logs(dest: Path, strokes: int, per_file: int, only: str | None = None, mix: str = "cue") -> None:
    """A season of ``mix``, ``per_file`` matches a log; ``only`` one discipline of it, at the
    same share."""
    sys.path.insert(0, str(ROOT))
    from cuelog.simulate import SeasonConfig, simulate_season
    from cuelog.simulate.writer import write_season

    season = dest / "season"
    for name, rules, share, per_match in MIXES[mix]:
        if only in (None, name):
            cfg = SeasonConfig(rules, max(1, int(strokes * share / per_match)), 2026, 0.02)
            write_season(season / name, simulate_season(cfg, workers=os.cpu_count() or 1))
    logs = dest / "logs"
    logs.mkdir()
    files = sorted(season.glob("*/logs/*.jsonl"))
    for i in range(0, len(files), per_file):
        text = "".join(f.read_text(encoding="utf-8") for f in files[i : i + per_file])
        (logs / f"{i // per_file:05d}.jsonl").write_text(text, encoding="utf-8")


def measure(tree: Path, script: Path, logs: Path, repeat: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(script), str(tree), str(logs), str(repeat)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def checkout(where: str, dest: Path) -> Path:
    """A directory as it is, or a git revision exported (``git archive``) into ``dest``."""
    if Path(where).is_dir():
        return Path(where).resolve()
    dest.mkdir()
    archive = subprocess.run(["git", "archive", where], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "low": min(values), "high": max(values)}


def summary(runs: list[dict[str, Any]], clock: str) -> dict[str, Any]:
    """Medians with spread over every timed run of one tree, on one clock (``s``: wall,
    ``cpu``: the process's CPU time), as strokes/s and as ratios to the floors."""
    n = runs[0]["strokes"]
    eng, dec, tou, pau = (
        spread([v for r in runs for v in r[f"{k}_{clock}"]]) for k in ("engine", "decode", "touch", "paused")
    )
    return {
        "engine_s": eng,
        "paused_s": pau,
        "paused_strokes_per_s": round(n / pau["median"]),
        "paused_strokes_per_s_range": [round(n / pau["high"]), round(n / pau["low"])],
        "decode_s": dec,
        "touch_s": tou,
        "engine_strokes_per_s": round(n / eng["median"]),
        "engine_strokes_per_s_range": [round(n / eng["high"]), round(n / eng["low"])],
        "decode_strokes_per_s": round(n / dec["median"]),
        "touch_strokes_per_s": round(n / tou["median"]),
        "engine_over_touch": round(eng["median"] / tou["median"], 2),
        "engine_over_decode": round(eng["median"] / dec["median"], 2),
        "us_per_stroke": round(eng["median"] / n * 1e6, 2),
    }


def line(label: str, s: dict[str, Any]) -> str:
    lo, hi = s["engine_strokes_per_s_range"]
    plo, phi = s["paused_strokes_per_s_range"]
    return (
        f"  {label:<14} engine {s['engine_strokes_per_s']:>9,} strokes/s ({lo:,}-{hi:,}; {s['us_per_stroke']} us),"
        f" decode {s['decode_strokes_per_s']:,}/s, touch {s['touch_strokes_per_s']:,}/s;"
        f" engine / touch {s['engine_over_touch']}x, engine / decode {s['engine_over_decode']}x\n"
        f"  {'':<14} engine with the collector paused, as the commands run it:"
        f" {s['paused_strokes_per_s']:,} strokes/s ({plo:,}-{phi:,})"
    )


def speed_up(base: list[dict[str, Any]], tree: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """Per round: the base's median engine time over the tree's (> 1: the tree is faster)."""
    ratios = [statistics.median(b[key]) / statistics.median(t[key]) for b, t in zip(base, tree, strict=True)]
    return {**spread(ratios), "rounds": [round(r, 3) for r in ratios]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", help="git revision to compare against (default: the working tree alone)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (fresh processes per tree)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs within each process")
    ap.add_argument("--strokes", type=int, default=100_000, help="about this many strokes in the mix")
    ap.add_argument("--matches-per-file", type=int, default=20)
    ap.add_argument("--mix", choices=tuple(MIXES), default="cue", help="the season: snooker and billiards, or pool")
    ap.add_argument(
        "--only", choices=tuple(name for m in MIXES.values() for name, *_ in m), help="one discipline of the mix"
    )
    ap.add_argument("--tree", help="the tree to measure: a directory or a git revision (default: this working tree)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuelog-engine-") as tmp:
        work = Path(tmp)
        trees = [("tree", checkout(args.tree, work / "tree") if args.tree else ROOT)]
        if args.base:
            trees.insert(0, ("base", checkout(args.base, work / "base")))
        if args.only is not None and args.only not in {name for name, *_ in MIXES[args.mix]}:
            ap.error(f"--only {args.only} is not in the {args.mix} mix")
        make_logs(work, args.strokes, args.matches_per_file, args.only, args.mix)
        script = work / "child.py"
        script.write_text(CHILD, encoding="utf-8")
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
        for _ in range(args.rounds):
            for name, tree in trees:
                runs[name].append(measure(tree, script, work / "logs", args.repeat))
    doc: dict[str, Any] = {
        "mix": args.mix,
        "strokes": runs["tree"][0]["strokes"],
        "load": os.getloadavg(),
        "rounds": args.rounds,
        "repeat": args.repeat,
    }
    for name, rs in runs.items():
        doc[name] = {"wall": summary(rs, "s"), "cpu": summary(rs, "cpu")}
    if args.base:
        doc["speed_up"] = {
            clock: speed_up(runs["base"], runs["tree"], f"engine_{k}") for clock, k in (("wall", "s"), ("cpu", "cpu"))
        }
        doc["same_output"] = {r["digest"] for r in runs["base"] + runs["tree"]} == {runs["tree"][0]["digest"]}
    if args.json:
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
        return
    print(f"{doc['strokes']:,} strokes ({args.mix}), {args.rounds} rounds x {args.repeat} runs, load {doc['load']}")
    for clock in ("wall", "cpu"):
        print(f"{clock} clock, median (spread):")
        for name, _ in trees:
            print(line(args.base if name == "base" else args.tree or "working tree", doc[name][clock]))
        if args.base:
            s = doc["speed_up"][clock]
            print(
                f"  speed-up of the engine: {s['median']:.2f}x ({s['low']:.2f}-{s['high']:.2f}; rounds: "
                f"{', '.join(f'{r:.2f}' for r in s['rounds'])})"
            )
    if args.base:
        print(f"same output: {doc['same_output']}")


if __name__ == "__main__":
    main()
