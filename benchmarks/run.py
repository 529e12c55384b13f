"""cuelog benchmarks: ingest, replay and report at 100k, 1M and 5M strokes, in one run.

    python benchmarks/run.py [--quick] [--json] [--sizes 100000,1000000] [--profile]

For each size the script builds a season of logs, then measures:

- ingest: rows (records) per second loading the logs and their shot clocks into DuckDB;
- replay: strokes per second through the rules engines, with 1 worker and with every
  core (processes over files; the findings are checked to be the same);
- replay into the store (``replay --db``): replay of the loaded matches with the results
  written to the ``replay_*`` tables;
- ``cuelog replay LOGS --json`` as a user runs it;
- each report's latency over the whole store (median of three in one process, spread);
- a floor: a bare loop over the same decoded stroke records touching every field, the
  least any replay could cost; and peak memory per phase: ``replay LOGS``, ingest,
  ``replay --db`` and each report run in a fresh process of their own, whose peak resident
  set (or its workers') is the phase's;
- the engine alone: the rules engines over the decoded records, against two floors
  labelled as such (decode only, and the loop touching every field), each the median of
  three passes with its spread.

``--base REV`` runs ``replay LOGS``, ``replay --db`` and the reports a second time on the
revision's tree (``git archive``), back to back on the same logs and store.

It prints the ratios replay time / floor time and cost per stroke at 5M / at 1M.

The season is simulated once (about 100k unique strokes, 70% snooker, 30% billiards,
with officiating errors at 2%) and replicated under new match ids up to each size, so the
larger sizes cost minutes rather than hours to build; replaying a copy costs what the
original does. Timings are wall clock on whatever else the machine is doing: run on a
quiet machine, and never assert them in tests.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# A phase child (--phase) runs on the tree named by --code: that tree's cuelog is imported.
_CODE = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv[:-1] else str(ROOT)
if _CODE not in sys.path:
    sys.path.insert(0, _CODE)

from cuelog.ingest.reader import log_files, read_records  # noqa: E402
from cuelog.replay import NoEngine, replay_matches  # noqa: E402
from cuelog.schemas.records import Record, Stroke, TypedStroke  # noqa: E402
from cuelog.simulate import SeasonConfig, simulate_season  # noqa: E402
from cuelog.simulate.writer import write_season  # noqa: E402

SIZES = (100_000, 1_000_000, 5_000_000)
BASE_STROKES = 100_000
SEED = 2026
BASE_YEAR = 2026
"""The year the simulated season is played in (from 1 September)."""


@dataclass(frozen=True, slots=True)
class Base:
    """The unique season: its log files (with their stroke counts) and clock files."""

    logs: list[tuple[Path, int]]
    clocks: list[Path]


def peak_mb() -> float:
    """Peak resident memory of this process and of its finished workers, in MB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024
    return round(max(own, children) / scale, 1)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


# -- the season ------------------------------------------------------------------------


def build_base(root: Path, strokes: int, workers: int) -> Base:
    """Simulate about ``strokes`` unique strokes: 70% snooker, 30% billiards."""
    out = root / "base"
    parts = (
        (SeasonConfig("snooker/wpbsa-2024", max(1, int(strokes * 0.7 / 250)), SEED, 0.02), "snooker"),
        (SeasonConfig("billiards/wpbsa-2024", max(1, int(strokes * 0.3 / 190)), SEED, 0.02), "billiards"),
    )
    for cfg, name in parts:
        try:
            write_season(out / name, simulate_season(cfg, workers=workers))
        except NoEngine as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
    logs = []
    for f in log_files(sorted(out.glob("*/logs"))):
        n = sum(1 for _, r in read_records(f) if isinstance(r, Stroke))
        logs.append((f, n))
    return Base(logs, sorted(out.rglob("clocks/*.csv")))


def replicate(
    base: Base, size: int, dest: Path, per_file: int, seasons: bool = False
) -> tuple[list[Path], list[Path], int]:
    """Copies of the base logs under new match ids, each copy on its own tables (with its
    own shot-clock device files), until ``size`` strokes are reached, ``per_file`` matches
    to a log file. Returns log files, clock files and the stroke count.

    Every copy plays at the base's times; with ``seasons`` each copy plays a year after the
    one before instead (its dates and times, in the logs and the device files), as a
    federation's seasons do."""
    (dest / "logs").mkdir(parents=True)
    (dest / "clocks").mkdir()
    logs: list[Path] = []
    clocks: list[Path] = []
    total = 0
    copy = 0
    matches_in_file = 0
    while total < size:
        played: set[tuple[str, str]] = set()  # (table, date) of the matches in this copy
        for f, n in base.logs:
            if total >= size:
                break
            text = _years_on(f.read_text(encoding="utf-8"), '"', copy if seasons else 0)
            first, _, rest = text.partition("\n")
            match = json.loads(first)
            table = match.get("table", "1")
            played.add((table, match.get("date", "")))
            if copy:
                match["match"] = f"{match['match']}-c{copy:03d}"
                match["table"] = f"{table}-c{copy:03d}"
            if not logs or matches_in_file >= per_file:
                logs.append(dest / "logs" / f"{len(logs):06d}.jsonl")
                matches_in_file = 0
            with logs[-1].open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(match, separators=(",", ":")) + "\n" + rest)
            matches_in_file += 1
            total += n
        for src in base.clocks:
            table = src.stem
            name = f"{table}-c{copy:03d}" if copy else table
            lines = _years_on(src.read_text(encoding="utf-8"), ",", copy if seasons else 0).splitlines(keepends=True)
            rows = [r for r in lines[1:] if (table, r[len(table) + 1 : len(table) + 11]) in played]
            if rows:
                csv = dest / "clocks" / f"{name}.csv"
                csv.write_text(lines[0] + "".join(name + r[len(table) :] for r in rows), encoding="utf-8")
                clocks.append(csv)
        copy += 1
    return logs, clocks, total


def _years_on(text: str, before: str, years: int) -> str:
    """``text`` with every date and time (after ``before``) moved ``years`` years on. The
    simulated season starts on 1 September 2026 (``cuelog.simulate.season``) and the
    benchmark's base ends within the year, so every date stays a date."""
    if not years:
        return text
    assert f"{before}{BASE_YEAR + 1}-" not in text, "the base season runs into a second year"
    return text.replace(f"{before}{BASE_YEAR}-", f"{before}{BASE_YEAR + years}-")


# -- the measurements ------------------------------------------------------------------


def _records(path: Path) -> Iterator[Record]:
    for _, record in read_records(path):
        yield record


def replay_files(paths: list[Path]) -> tuple[int, int]:
    """Replay log files one by one (streaming); return (strokes, findings)."""
    strokes = findings = 0
    for p in paths:
        for m in replay_matches(_records(p)):
            for fr in m.frames:
                strokes += len(fr.outcomes)
                findings += len(fr.findings)
            findings += len(m.findings)
    return strokes, findings


def replay_parallel(paths: list[Path], workers: int) -> tuple[int, int]:
    if workers <= 1:
        return replay_files(paths)
    chunks = [paths[i :: workers * 4] for i in range(workers * 4)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(replay_files, [c for c in chunks if c]))
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


def floor_pass(paths: list[Path]) -> tuple[float, float, float, int]:
    """One pass over the logs, file by file (streaming, so memory stays flat): read and
    decode the records (the *decode* floor), a bare loop touching every field of every
    decoded stroke (the *touch* floor: the least any replay could cost), and the rules
    engines over the decoded records (the *engine alone*), each timed apart. Returns
    (decode seconds, touch seconds, engine seconds, strokes)."""
    fields = Stroke.__struct_fields__
    decode_s = touch_s = engine_s = 0.0
    n = 0
    for p in paths:
        t0 = time.perf_counter()
        records = [r for _, r in read_records(p)]
        t1 = time.perf_counter()
        acc = 0
        strokes = 0
        for s in records:
            if type(s) is TypedStroke or type(s) is Stroke:
                strokes += 1
                for name in fields:
                    if getattr(s, name) is not None:
                        acc += 1
        t_touch = time.perf_counter() - t1
        # Untimed: the records just decoded are moved to the oldest generation, as records
        # read a while before would be; otherwise the collector's promotion of them would
        # be charged to the engine (benchmarks/engine.py does the same before each run).
        gc.collect()
        t2 = time.perf_counter()
        replay_matches(records)
        t3 = time.perf_counter()
        decode_s += t1 - t0
        touch_s += t_touch
        engine_s += t3 - t2
        n += strokes
    return decode_s, touch_s, engine_s, n


def spread(values: list[float]) -> dict[str, float]:
    """Median and range of repeated timings, in seconds."""
    return {"median": round(statistics.median(values), 3), "low": round(min(values), 3), "high": round(max(values), 3)}


def engine_alone(paths: list[Path], rounds: int = 3) -> dict[str, Any]:
    """The engines alone against the two floors: :func:`floor_pass` ``rounds`` times, each
    figure the median of the rounds with its spread; the ratios are of the medians."""
    passes = []
    for _ in range(rounds):
        gc.collect()
        passes.append(floor_pass(paths))
    n = passes[0][3]
    decode, touch, engine = (spread([p[i] for p in passes]) for i in range(3))
    return {
        "rounds": rounds,
        "strokes": n,
        "decode_seconds": decode,
        "touch_seconds": touch,
        "engine_seconds": engine,
        "engine_strokes_per_s": round(n / engine["median"]),
        "engine_strokes_per_s_range": [round(n / engine["high"]), round(n / engine["low"])],
        "engine_over_touch": round(engine["median"] / touch["median"], 2),
        "engine_over_decode": round(engine["median"] / decode["median"], 2),
    }


def ingest_store(db: Path, logs_dir: Path, clocks: list[Path]) -> dict[str, Any] | None:
    try:
        from cuelog.ingest import clock
        from cuelog.ingest.load import ingest_paths
        from cuelog.store import connect
    except ImportError:
        return None
    con = connect(db)
    try:
        if hasattr(clock, "pairing_ahead"):
            # As `cuelog ingest LOGS --clock ...` runs: the clocks paired while the logs load,
            # so the clocks' time is what comes after the logs (aligning and storing).
            start = time.perf_counter()
            with clock.pairing_ahead(clocks) as paired:
                results = ingest_paths(con, [logs_dir])
                t = time.perf_counter() - start
                tc, aligned = timed(lambda: sum(r.aligned for r in clock.ingest_clocks(con, clocks, paired=paired)))
        else:
            t, results = timed(lambda: ingest_paths(con, [logs_dir]))
            tc, aligned = timed(lambda: sum(r.aligned for r in _ingest_clocks(clock, con, clocks)))
        rows = sum(r.records for r in results)
    finally:
        con.close()
    return {
        "rows": rows,
        "seconds": round(t, 3),
        "rows_per_s": round(rows / t),
        "clock_files": len(clocks),
        "clock_seconds": round(tc, 3),
        "shots_aligned": aligned,
    }


def _ingest_clocks(clock: Any, con: Any, paths: list[Path]) -> list[Any]:
    """Every clock CSV in one call, as ``cuelog ingest`` loads them (one call per CSV in a
    tree from before ``ingest_clocks``)."""
    if hasattr(clock, "ingest_clocks"):
        return list(clock.ingest_clocks(con, paths))
    return [clock.ingest_clock(con, p) for p in paths]


def replay_store(db: Path, workers: int) -> dict[str, Any] | None:
    """``replay --db`` as the command runs it: the results streamed to the store chunk by
    chunk (``stream_db``; ``replay_db``, which holds them all, in a tree without it)."""
    try:
        from cuelog import pipeline
        from cuelog.store import connect
    except ImportError:
        return None
    con = connect(db)
    try:
        if hasattr(pipeline, "stream_db"):
            t, done = timed(lambda: pipeline.stream_db(con, None, workers))
            strokes = done.strokes
        else:
            t, results = timed(lambda: pipeline.replay_db(con, None, workers))
            strokes = sum(len(fr.outcomes) for m in results for fr in m.frames)
    finally:
        con.close()
    return {"workers": workers, "seconds": round(t, 3), "strokes_per_s": round(strokes / t)}


def current_mb() -> float:
    """This process's resident memory now, in MB (Linux; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 1024 / 1024, 1)


def report_query(db: Path, kind: str = "breaks", rounds: int = 3) -> dict[str, Any] | None:
    """A report over the whole store, made ``rounds`` times in one process: the median
    latency with its spread, and the resident memory before the first and at the peak."""
    try:
        from cuelog.store import connect
    except ImportError:
        return None
    try:
        from cuelog.analytics import queries as reports  # where report() is since the command left Polars out
    except ImportError:  # a revision before it
        from cuelog.analytics import reports
    con = connect(db, read_only=True)
    try:
        before = current_mb()
        times, rows = [], 0
        for _ in range(rounds):
            t, made = timed(lambda: reports.report(con, kind))
            times.append(t)
            rows = len(made.rows)
    except reports.ReportError as exc:
        return {"report": kind, "error": str(exc)}
    finally:
        con.close()
    times.sort()
    return {
        "report": f"{kind} by player",
        "seconds": round(times[len(times) // 2], 4),
        "spread": [round(times[0], 4), round(times[-1], 4)],
        "rows": rows,
        "rss_before_mb": before,
    }


def replay_logs(logs: Path) -> dict[str, Any]:
    """``cuelog replay LOGS --json`` as a user runs it (the document to /dev/null)."""
    from cuelog.cli import app

    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        t, _ = timed(lambda: _command(app, ["replay", str(logs), "--json"]))
    return {"seconds": round(t, 3)}


def _command(app: Any, argv: list[str]) -> int:
    try:
        app(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


# -- each phase in a process of its own: its peak memory is its own ----------------------

PHASES: dict[str, Callable[..., dict[str, Any] | None]] = {
    "ingest": lambda db, logs, *clocks: ingest_store(Path(db), Path(logs), [Path(c) for c in clocks]),
    "replay_db": lambda db, workers: replay_store(Path(db), int(workers)),
    "report": lambda db, kind: report_query(Path(db), kind),
    "replay_logs": lambda logs: replay_logs(Path(logs)),
}


def in_process(name: str, *args: str, code: Path = ROOT) -> dict[str, Any] | None:
    """Run a phase in a fresh Python process on the cuelog tree at ``code``; its figures
    with ``peak_rss_mb``, the largest resident set of that process or of its workers."""
    argv = [sys.executable, str(Path(__file__).resolve()), "--phase", name, "--code", str(code), "--", *args]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"phase {name} failed: {done.stderr[-2000:]}")
    value: dict[str, Any] | None = json.loads(done.stdout)
    return value


def run_phase(name: str, args: list[str]) -> int:
    """The child's side of :func:`in_process`: the figures as JSON on stdout."""
    value = PHASES[name](*args)
    if value is not None:
        value["peak_rss_mb"] = peak_mb()
    sys.stdout.write(json.dumps(value) + "\n")
    return 0


REPORTS = ("breaks", "billiards", "misses", "clock")
"""The report kinds of the benchmark's snooker and billiards season."""


def measure(
    size: int,
    base: Base,
    root: Path,
    workers: int,
    store: bool,
    per_file: int,
    code: Path = ROOT,
    files: bool = True,
    seasons: bool = False,
) -> dict[str, Any]:
    here = root / f"s{size}"
    logs, clocks, strokes = replicate(base, size, here, per_file, seasons=seasons)
    row: dict[str, Any] = {"strokes": strokes, "files": len(logs), "matches_per_file": per_file, "seasons": seasons}
    if not files:
        return _measure_store(row, here, clocks, workers, store, code)
    alone = engine_alone(logs)
    assert alone["strokes"] == strokes
    decode_s, touch_s = alone["decode_seconds"]["median"], alone["touch_seconds"]["median"]
    row["floor"] = {"decode_seconds": decode_s, "touch_seconds": touch_s}
    row["engine_alone"] = alone
    t1, (s1, f1) = timed(lambda: replay_files(logs))
    tn, (sn, fn) = timed(lambda: replay_parallel(logs, workers))
    assert (s1, f1) == (sn, fn), "the replay must not depend on the number of workers"
    row["replay"] = {
        "findings": f1,
        "one_worker": {"seconds": round(t1, 3), "strokes_per_s": round(s1 / t1)},
        "all_cores": {"workers": workers, "seconds": round(tn, 3), "strokes_per_s": round(sn / tn)},
        "replay_over_floor": round(t1 / touch_s, 1),
        "replay_over_decode_and_floor": round(t1 / (decode_s + touch_s), 2),
    }
    return _measure_store(row, here, clocks, workers, store, code)


def _measure_store(
    row: dict[str, Any], here: Path, clocks: list[Path], workers: int, store: bool, code: Path
) -> dict[str, Any]:
    """``replay LOGS``, ingest, ``replay --db`` and every report, each in a process of its
    own (its peak memory its own); with ``--base`` the replays and the reports again on the
    base revision's tree, back to back on the same logs, each tree ingesting them into a
    store of its own (two revisions may lay the store out differently)."""
    trees = {"": ROOT} if code == ROOT else {"": ROOT, "base_": code}
    for prefix, tree in trees.items():
        row[f"{prefix}replay_logs"] = in_process("replay_logs", str(here / "logs"), code=tree)
    if store:
        for prefix, tree in trees.items():
            db = str(here / f"{prefix}cuelog.duckdb")
            row[f"{prefix}ingest"] = in_process("ingest", db, str(here / "logs"), *map(str, clocks), code=tree)
            if row[f"{prefix}ingest"] is None:
                continue
            row[f"{prefix}replay_into_store"] = in_process("replay_db", db, str(workers), code=tree)
            row[f"{prefix}reports"] = [in_process("report", db, kind, code=tree) for kind in REPORTS]
    row["peak_rss_mb"] = peak_mb()
    shutil.rmtree(here, ignore_errors=True)
    return row


def profile_replay(base: Base, top: int = 18) -> str:
    """cProfile of a single-worker replay of the base season: the hot spots."""
    paths = [p for p, _ in base.logs]
    prof = cProfile.Profile()
    prof.enable()
    replay_files(paths)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="100k strokes only")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--sizes", help="comma-separated stroke counts (default 100000,1000000,5000000)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes for 'all cores'")
    ap.add_argument(
        "--matches-per-file",
        type=int,
        default=20,
        help="matches written to one log file (a day's session; ingest pays a cost per file)",
    )
    ap.add_argument(
        "--seasons",
        action="store_true",
        help="each copy of the base season a year after the one before (a federation's seasons), not all at once",
    )
    ap.add_argument("--no-store", action="store_true", help="skip DuckDB ingest, replay --db and the report")
    ap.add_argument("--profile", action="store_true", help="print the replay's hot spots (cProfile)")
    ap.add_argument("--keep", type=Path, help="build in this directory and keep it")
    ap.add_argument("--store-only", action="store_true", help="skip the floor and the replay of the files")
    ap.add_argument("--base", help="also run replay --db and the reports on this git revision, on the same store")
    ap.add_argument("--phase", help=argparse.SUPPRESS)
    ap.add_argument("--code", type=Path, default=ROOT, help=argparse.SUPPRESS)
    ap.add_argument("args", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.phase:
        return run_phase(args.phase, args.args)
    sizes = (SIZES[0],) if args.quick else SIZES
    if args.sizes:
        sizes = tuple(int(s) for s in args.sizes.split(","))
    root = args.keep or Path(tempfile.mkdtemp(prefix="cuelog-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        t_base, base = timed(lambda: build_base(root, min(BASE_STROKES, max(sizes)), args.workers))
        doc: dict[str, Any] = {
            "machine": machine(),
            "base": {"strokes": sum(n for _, n in base.logs), "simulate_seconds": round(t_base, 1)},
            "sizes": [],
        }
        code = ROOT
        if args.base:
            code = root / "base-tree"
            code.mkdir()
            archive = subprocess.run(["git", "archive", args.base], cwd=ROOT, capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
        for size in sizes:
            row = measure(
                size,
                base,
                root,
                args.workers,
                not args.no_store,
                args.matches_per_file,
                code,
                not args.store_only,
                seasons=args.seasons,
            )
            doc["sizes"].append(row)
            if not args.json:
                print(human(row), flush=True)
        by = {r["strokes"] // 1000: r for r in doc["sizes"]}
        big, mid = (
            next((r for k, r in by.items() if k >= 5000), None),
            next((r for k, r in by.items() if 1000 <= k < 5000), None),
        )
        if big and mid:
            per = [r["replay"]["one_worker"]["seconds"] / r["strokes"] for r in (big, mid)]
            doc["cost_5m_over_1m"] = round(per[0] / per[1], 2)
        if args.profile:
            doc["profile"] = profile_replay(base)
        if args.json:
            sys.stdout.write(json.dumps(doc, indent=1) + "\n")
        else:
            if "cost_5m_over_1m" in doc:
                print(f"cost per stroke at 5M / at 1M: {doc['cost_5m_over_1m']}")
            if args.profile:
                print(doc["profile"])
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


def human(row: dict[str, Any]) -> str:
    lines = [f"{row['strokes']:>9,} strokes in {row['files']} files of {row['matches_per_file']} matches"]
    if "replay" in row:
        r = row["replay"]
        one, every = r["one_worker"], r["all_cores"]
        lines += [
            f"  floor: decode {row['floor']['decode_seconds']} s, touch every field {row['floor']['touch_seconds']} s",
            f"  replay 1 worker: {one['strokes_per_s']:,} strokes/s ({one['seconds']} s),"
            f" {every['workers']} workers: {every['strokes_per_s']:,} strokes/s ({every['seconds']} s)",
            f"  replay / floor: {r['replay_over_floor']}x (with decoding: {r['replay_over_decode_and_floor']}x)",
        ]
    if row.get("engine_alone"):
        e = row["engine_alone"]
        lo, hi = e["engine_strokes_per_s_range"]
        es, ds, ts = e["engine_seconds"], e["decode_seconds"], e["touch_seconds"]
        lines.insert(
            2,
            f"  engine alone (median of {e['rounds']}): {e['engine_strokes_per_s']:,} strokes/s ({lo:,}-{hi:,};"
            f" {es['median']} s, {es['low']}-{es['high']}); floors: decode {ds['median']} s ({ds['low']}-{ds['high']}),"
            f" touch {ts['median']} s ({ts['low']}-{ts['high']}); engine / touch {e['engine_over_touch']}x,"
            f" engine / decode {e['engine_over_decode']}x",
        )
    return "\n".join([*lines, *_store_lines(row), f"  peak memory (this process): {row['peak_rss_mb']} MB"])


def _store_lines(row: dict[str, Any]) -> list[str]:
    lines = []
    for prefix, tree in (("", "working tree"), ("base_", "base")):
        if row.get(f"{prefix}ingest"):
            i = row[f"{prefix}ingest"]
            lines.append(
                f"  ingest ({tree}): {i['rows_per_s']:,} rows/s ({i['seconds']} s), clocks {i['clock_seconds']} s;"
                f" peak {i['peak_rss_mb']} MB"
            )
        if row.get(f"{prefix}replay_logs"):
            r = row[f"{prefix}replay_logs"]
            lines.append(f"  replay LOGS --json ({tree}): {r['seconds']} s; peak {r['peak_rss_mb']} MB")
        if row.get(f"{prefix}replay_into_store"):
            s = row[f"{prefix}replay_into_store"]
            lines.append(
                f"  replay --db ({tree}, {s['workers']} workers): {s['strokes_per_s']:,} strokes/s ({s['seconds']} s);"
                f" peak {s['peak_rss_mb']} MB"
            )
        for q in row.get(f"{prefix}reports") or []:
            if q is None or "error" in q:
                continue
            low, high = q["spread"]
            lines.append(
                f"  report {q['report']} ({tree}): {q['seconds'] * 1000:.0f} ms ({low * 1000:.0f}-{high * 1000:.0f});"
                f" memory {q['rss_before_mb']} MB before, peak {q['peak_rss_mb']} MB"
            )
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
