"""Every ``cuelog report`` over a large store: latency and peak memory, at two sizes.

    python benchmarks/reports.py --strokes 1000000,10000000 [--rounds 3] [--keep DIR] [--json]
        [--kinds clock] [--by player,match,event] [--no-direct] [--base REV]

A base season (about 100k strokes: snooker, English billiards, eight-ball, nine-ball and
14.1, officiating errors at 2%, one match per file as ``cuelog simulate`` writes them) is
simulated, loaded with its shot clocks and replayed into a DuckDB file as a user does it
(``ingest_paths``, ``ingest_clocks``, ``stream_db``). Each size is then made from a copy of
that file by replicating its rows in SQL under new match ids (``<id>-c001``, ...) and new
players (``<name> s1``, ... : ``--seasons`` sets of players, so the groups by player grow
with the size as a federation's seasons do), table by table: the loaded matches, the shot
clock, every replay table the reports read, and the report summaries. The records are
copied for the nine-ball matches only (the push outs are read from them); the other
matches' records are read by no report. Building 10M strokes this way takes minutes, where
loading and replaying them would take an hour.

Each report kind (by player) is then made in a fresh process of its own, ``--rounds`` times
in a row, on two paths: the summaries (what ``cuelog report`` does) and the direct
aggregates over the replay tables (``direct=True``, what a store without summaries gets,
and what the reports did before the summaries): the median latency with its spread, and the
process's peak resident set. The two paths' ``--json`` documents are compared byte for
byte. ``--base REV`` adds the reports of that revision's tree (``git archive``) on the same
store.

``--command`` also times ``cuelog report KIND --db FILE`` as a user runs it, a fresh
process each time (its start-up and imports included), printing the table and then the
``--json`` document, ``--rounds`` times with each tree in turn (the working tree and, with
``--base``, that revision's): the median wall time with its spread, the process's peak
resident set, and whether the two trees print the same bytes.

``--printing`` also times ``cuelog replay``'s human output of the base season (the
snooker and billiards logs replayed once, then every match printed to a file-like console
``--rounds`` times: ``cuelog.cli.replay.print_match``), per table of findings, in the
working tree and, with ``--base``, in that revision's. Timings are wall clock: run on a quiet machine, read the load average printed beside
them, and never assert them in tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# A phase child (--phase) runs on the tree named by --code: that tree's cuelog is imported.
_CODE = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv[:-1] else str(ROOT)
if _CODE not in sys.path:
    sys.path.insert(0, _CODE)

SEED = 2026
KINDS = ("breaks", "billiards", "misses", "clock", "pool", "nineball", "straight-pool")
# Share of the base season's strokes, and strokes per match (measured on the simulator).
MIX = (
    ("snooker/wpbsa-2024", 0.60, 243),
    ("billiards/wpbsa-2024", 0.25, 160),
    ("eightball/world-2015", 0.06, 82),
    ("nineball/wpa", 0.05, 45),
    ("straight-pool/wpa", 0.04, 213),
)
# Tables with a match id that are not copied: the records (only the nine-ball matches' are,
# for their push outs), the typed strokes and corrections no report reads, the file log.
NOT_COPIED = ("records", "strokes", "matches", "ingest_log", "replay_corrections_rows", "replay_stroke_details_rows")


def peak_mb() -> float:
    """Peak resident memory of this process, in MB: Linux's ``VmHWM`` where there is one
    (``ru_maxrss`` survives ``exec`` on Linux, so a report process started by a driver
    that built a large store in-process would report the driver's peak)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(own / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


# -- the store -----------------------------------------------------------------------------


def build_base(root: Path, strokes: int, workers: int) -> tuple[Path, int]:
    """Simulate, load (shot clocks included) and replay the base season; returns the
    database and its stroke count."""
    from cuelog.ingest.clock import ingest_clocks
    from cuelog.ingest.load import ingest_paths
    from cuelog.pipeline import stream_db
    from cuelog.simulate import SeasonConfig, simulate_season
    from cuelog.simulate.writer import write_season
    from cuelog.store import connect

    for rules, share, per_match in MIX:
        name = rules.split("/")[0]
        cfg = SeasonConfig(rules, max(1, round(strokes * share / per_match)), SEED, 0.02, prefix=name[:2])
        write_season(root / "base" / name, simulate_season(cfg, workers=workers))
    db = root / "base.duckdb"
    con = connect(db)
    try:
        ingest_paths(con, sorted((root / "base").glob("*/logs")))
        ingest_clocks(con, sorted((root / "base").glob("*/clocks/*.csv")))
        done = stream_db(con, None, workers)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    return db, done.strokes


def _copied_tables(con: Any) -> list[str]:
    """Every stored table with a match id the reports read (the shot clock, the replay rows
    of every generation and which is current, the summaries), views left out."""
    rows = con.execute(
        "SELECT DISTINCT c.table_name FROM information_schema.columns c JOIN information_schema.tables t"
        " USING (table_name) WHERE c.column_name = 'match_id' AND t.table_type = 'BASE TABLE' ORDER BY 1"
    ).fetchall()
    return [r[0] for r in rows if r[0] not in NOT_COPIED]


def _columns(con: Any, table: str) -> set[str]:
    rows = con.execute("SELECT column_name FROM information_schema.columns WHERE table_name = ?", [table]).fetchall()
    return {r[0] for r in rows}


def replicate(base: Path, dest: Path, base_strokes: int, size: int, seasons: int) -> int:
    """A copy of ``base`` with its matches replicated in SQL up to ``size`` strokes; returns
    the stroke count."""
    import duckdb

    shutil.copy(base, dest)
    copies = max(1, -(-size // base_strokes))
    con = duckdb.connect(str(dest))
    try:
        con.execute("CREATE TEMP TABLE base_ids AS SELECT match_id FROM matches")
        con.execute("CREATE TEMP TABLE nine_ids AS SELECT match_id FROM matches WHERE rules LIKE 'nineball/%'")
        tables = _copied_tables(con)
        for c in range(1, copies):
            suffix, season = f"-c{c:03d}", f" s{c % seasons}" if c % seasons else ""
            params = {"suffix": suffix, "season": season}
            con.execute("BEGIN")
            con.execute(
                "INSERT INTO matches SELECT * REPLACE (match_id || $suffix AS match_id, side_a || $season AS side_a,"
                " side_b || $season AS side_b) FROM matches SEMI JOIN base_ids USING (match_id)",
                params,
            )
            con.execute(
                "INSERT INTO records SELECT * REPLACE (match_id || $suffix AS match_id)"
                " FROM records SEMI JOIN nine_ids USING (match_id)",
                {"suffix": suffix},
            )
            for table in tables:
                # A summary that carries its player's name gets the copy's name.
                named = ", player || $season AS player" if "player" in _columns(con, table) else ""
                con.execute(
                    f"INSERT INTO {table} SELECT * REPLACE (match_id || $suffix AS match_id{named})"
                    f" FROM {table} SEMI JOIN base_ids USING (match_id)",
                    params if named else {"suffix": suffix},
                )
            con.execute("COMMIT")
        con.execute("CHECKPOINT")
        return int(con.execute("SELECT count(*) FROM replay_strokes").fetchall()[0][0])
    finally:
        con.close()


# -- one report kind in a process of its own -------------------------------------------------


def report_phase(db: str, kind: str, path: str, rounds: int, by: str = "player") -> dict[str, Any]:
    """``kind`` by ``by``, ``rounds`` times in this process: median latency, spread, the
    document's digest and the peak resident set."""
    from cuelog.store import connect

    try:
        from cuelog.analytics import queries as reports  # where report() is since the command left Polars out
    except ImportError:  # a revision before it
        from cuelog.analytics import reports  # type: ignore[no-redef]
    con = connect(db, read_only=True)
    times: list[float] = []
    digest = ""
    try:
        for _ in range(rounds):
            t0 = time.perf_counter()
            # "base": another revision's tree, whose report() may not know `direct`.
            if path == "direct":
                made = reports.report(con, kind, by=by, direct=True)
            else:
                made = reports.report(con, kind, by=by)
            times.append(time.perf_counter() - t0)
            text = json.dumps(made.document(), indent=1, ensure_ascii=False, allow_nan=False)
            digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    except reports.ReportError as exc:
        return {"kind": kind, "path": path, "error": str(exc)}
    finally:
        con.close()
    return {
        "kind": kind,
        "by": by,
        "path": path,
        "seconds": round(statistics.median(times), 4),
        "spread": [round(min(times), 4), round(max(times), 4)],
        "rows": len(made.rows),
        "digest": digest,
    }


def print_phase(logs: list[str], rounds: int) -> dict[str, Any]:
    """Replay the logs, then print every match ``rounds`` times as ``cuelog replay`` does
    on a pipe: the median time per table of findings, with its spread."""
    import io

    from rich.console import Console

    from cuelog.cli.replay import print_match
    from cuelog.ingest.reader import log_files, read_records
    from cuelog.replay import replay_matches

    results = [m for f in log_files([Path(p) for p in logs]) for m in replay_matches(r for _, r in read_records(f))]
    tables = sum(1 for m in results for fr in m.frames if fr.findings) + sum(1 for m in results if m.findings)
    times = []
    for _ in range(rounds):
        console = Console(file=io.StringIO(), width=1000, highlight=False)
        t0 = time.perf_counter()
        for m in results:
            print_match(m, console)
        times.append(time.perf_counter() - t0)
    per = sorted(t / tables * 1000 for t in times)
    return {
        "matches": len(results),
        "tables": tables,
        "ms_per_table": round(statistics.median(per), 3),
        "spread": [round(per[0], 3), round(per[-1], 3)],
    }


def in_process(db: Path, kind: str, path: str, rounds: int, code: Path, by: str = "player") -> dict[str, Any]:
    argv = [sys.executable, str(Path(__file__).resolve()), "--phase", "--code", str(code)]
    argv += ["--", str(db), kind, path, str(rounds), by]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"report {kind} ({path}) failed: {done.stderr[-2000:]}")
    value: dict[str, Any] = json.loads(done.stdout)
    return value


# Runs the command and reports its wall time and peak resident set on stderr. A small
# process of its own starts it: a child's peak counts the pages of the process that forked
# it, and this script holds the store it built.
_LAUNCH = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
code = subprocess.run(sys.argv[1:], stderr=subprocess.DEVNULL).returncode
seconds = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
sys.stderr.write(json.dumps({"code": code, "seconds": seconds, "peak_mb": peak}))
"""


def command_once(db: Path, kind: str, by: str, output: str, code: Path) -> tuple[float, float, str]:
    """``cuelog report`` once in a fresh process as a user runs it: wall seconds, peak
    resident MB and a digest of what it printed."""
    argv = [sys.executable, "-m", "cuelog", "report", kind, "--by", by, "--db", str(db)]
    argv += ["--json"] if output == "json" else []
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run([sys.executable, "-c", _LAUNCH, *argv], capture_output=True, env=env, cwd=str(code))
    got = json.loads(done.stderr)
    if got["code"] != 0:
        raise RuntimeError(f"cuelog report {kind} exited {got['code']}")
    return got["seconds"], got["peak_mb"], hashlib.sha256(done.stdout).hexdigest()[:16]


def commands(
    db: Path, rounds: int, trees: list[tuple[str, Path]], kinds: list[str], by: list[str]
) -> list[dict[str, Any]]:
    """Each report kind, grouping and output as a user runs the command, the trees taking
    turns round by round (so a change in the machine's load falls on both)."""
    rows = []
    for kind in kinds:
        for group in by:
            for output in ("table", "json"):
                runs: dict[str, list[tuple[float, float, str]]] = {name: [] for name, _ in trees}
                for _ in range(rounds):
                    for name, code in trees:
                        runs[name].append(command_once(db, kind, group, output, code))
                for name, got in runs.items():
                    times = sorted(t for t, _, _ in got)
                    rows.append(
                        {
                            "kind": kind,
                            "by": group,
                            "output": output,
                            "tree": name,
                            "seconds": statistics.median(times),
                            "spread": [times[0], times[-1]],
                            "peak_rss_mb": max(m for _, m, _ in got),
                            "digest": got[-1][2],
                        }
                    )
    return rows


def human_commands(rows: list[dict[str, Any]]) -> str:
    lines = ["  cuelog report as a user runs it (a fresh process each time):"]
    for r in rows:
        low, high = r["spread"]
        lines.append(
            f"    {r['kind']:<14} {r['by']:<7} {r['output']:<6} {r['tree']:<13} {r['seconds']:6.2f} s ({low:.2f}-{high:.2f})"
            f"  peak {r['peak_rss_mb']:5.0f} MB  out {r['digest']}"
        )
    same: dict[str, set[str]] = {}
    for r in rows:
        same.setdefault(f"{r['kind']} by {r['by']} ({r['output']})", set()).add(r["digest"])
    lines.append("    the same output from every tree: " + ("yes" if all(len(v) == 1 for v in same.values()) else "NO"))
    return "\n".join(lines)


def measure(
    db: Path, strokes: int, rounds: int, base_tree: Path | None, kinds: list[str], by: list[str], direct: bool
) -> dict[str, Any]:
    paths = (
        [("summaries", ROOT)] + ([("direct", ROOT)] if direct else []) + ([("base", base_tree)] if base_tree else [])
    )
    row: dict[str, Any] = {"strokes": strokes, "load_before": load_average(), "reports": []}
    for kind in kinds:
        for group in by:
            for path, code in paths:
                row["reports"].append(in_process(db, kind, path, rounds, code, group))
    row["load_after"] = load_average()
    return row


def human(row: dict[str, Any]) -> str:
    lines = [f"{row['strokes']:,} strokes (load average {row['load_before']} before, {row['load_after']} after)"]
    for r in row["reports"]:
        if "error" in r:
            lines.append(f"  {r['kind']:<14} {r.get('by', 'player'):<7} {r['path']:<10} {r['error']}")
            continue
        low, high = r["spread"]
        lines.append(
            f"  {r['kind']:<14} {r.get('by', 'player'):<7} {r['path']:<10} {r['seconds'] * 1000:8.0f} ms ({low * 1000:.0f}-{high * 1000:.0f})"
            f"  peak {r['peak_rss_mb']:6.0f} MB  {r['rows']:>6} rows  json {r['digest']}"
        )
    same = {}
    for r in row["reports"]:
        same.setdefault(f"{r['kind']} by {r.get('by', 'player')}", set()).add(r.get("digest"))
    lines.append(
        "  same --json on every path: " + ", ".join(f"{k} {'yes' if len(v) == 1 else 'NO'}" for k, v in same.items())
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strokes", default="1000000,10000000", help="comma-separated sizes (strokes)")
    ap.add_argument("--base-strokes", type=int, default=100_000, help="the simulated season replicated")
    ap.add_argument("--seasons", type=int, default=10, help="sets of players the copies cycle through")
    ap.add_argument("--rounds", type=int, default=3, help="reports made in a row in each process")
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated report kinds")
    ap.add_argument("--by", default="player", help="comma-separated groupings (player, match, event)")
    ap.add_argument("--no-direct", action="store_true", help="leave out the reports from every stroke")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="replay workers for the base")
    ap.add_argument("--keep", type=Path, help="build in this directory and keep it (reused when present)")
    ap.add_argument("--base", help="also the reports of this git revision, on the same stores")
    ap.add_argument("--printing", action="store_true", help="also time replay's human output of the findings")
    ap.add_argument("--command", action="store_true", help="also time `cuelog report` as a user runs it")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--phase", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--code", type=Path, default=ROOT, help=argparse.SUPPRESS)
    ap.add_argument("args", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.phase and args.args[0] == "print":
        value = print_phase(args.args[2:], int(args.args[1]))
        sys.stdout.write(json.dumps(value) + "\n")
        return 0
    if args.phase:
        db, kind, path, rounds, *by = args.args
        value = report_phase(db, kind, path, int(rounds), *by)
        value["peak_rss_mb"] = peak_mb()
        sys.stdout.write(json.dumps(value) + "\n")
        return 0
    root = args.keep or Path(tempfile.mkdtemp(prefix="cuelog-reports-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        return _run(args, root)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


def _run(args: argparse.Namespace, root: Path) -> int:
    base_db = root / "base.duckdb"
    counts = root / "base.json"
    if base_db.exists() and counts.exists():
        base_strokes = int(json.loads(counts.read_text())["strokes"])
    else:
        _, base_strokes = build_base(root, args.base_strokes, args.workers)
        counts.write_text(json.dumps({"strokes": base_strokes}))
    base_tree = None
    if args.base:
        base_tree = root / "base-tree"
        shutil.rmtree(base_tree, ignore_errors=True)
        base_tree.mkdir()
        archive = subprocess.run(["git", "archive", args.base], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base_tree)], input=archive, check=True)
    doc: dict[str, Any] = {"base_strokes": base_strokes, "cores": os.cpu_count(), "sizes": []}
    for size in (int(s) for s in args.strokes.split(",")):
        db = root / f"s{size}.duckdb"
        if not db.exists():
            t0 = time.perf_counter()
            strokes = replicate(base_db, db, base_strokes, size, args.seasons)
            built = round(time.perf_counter() - t0, 1)
        else:
            import duckdb

            with duckdb.connect(str(db), read_only=True) as con:
                strokes = int(con.execute("SELECT count(*) FROM replay_strokes").fetchall()[0][0])
            built = 0.0
        row = measure(
            db, strokes, args.rounds, base_tree, args.kinds.split(","), args.by.split(","), not args.no_direct
        )
        row["build_seconds"] = built
        if args.command:
            trees = [("working tree", ROOT)] + ([("base", base_tree)] if base_tree else [])
            row["commands"] = commands(db, args.rounds, trees, args.kinds.split(","), args.by.split(","))
        doc["sizes"].append(row)
        if not args.json:
            print(human(row), flush=True)
            if args.command:
                print(human_commands(row["commands"]), flush=True)
    if args.printing:
        logs = [str(p) for p in sorted((root / "base").glob("*/logs")) if p.parent.name in ("snooker", "billiards")]
        trees = [("working tree", ROOT)] + ([("base", base_tree)] if base_tree else [])
        doc["printing"] = {}
        for name, code in trees:
            argv = [sys.executable, str(Path(__file__).resolve()), "--phase", "--code", str(code)]
            done = subprocess.run([*argv, "--", "print", str(args.rounds), *logs], capture_output=True, text=True)
            doc["printing"][name] = json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr[-500:]}
            if not args.json:
                print(f"printing ({name}): {doc['printing'][name]}", flush=True)
    if args.json:
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
