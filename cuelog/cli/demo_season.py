"""The demo: a small simulated season plus the bundled examples, through the whole pipeline.

Simulate (snooker, billiards, an eight-ball league, nine-ball and 14.1, with officiating
errors) -> ingest the logs and their
shot clocks into DuckDB -> replay every match into the store -> audit summary, headline
statistics and plots. Every step is the library's own; this module only strings them
together and gathers what the command prints. Same seed, same season, same results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cuelog.simulate.check import Accuracy, compare, finding_keys, truth_keys
from cuelog.simulate.season import SeasonConfig, simulate_season
from cuelog.simulate.writer import CLOCKS_DIR, ERRORS_FILE, LOGS_DIR, write_season

Step = Callable[[str, float], None]
"""Progress: called with a step's name and the fraction of the demo done."""

SEASON = (
    # (rules, matches, best of, folder)
    ("snooker/wpbsa-2024", 24, 5, "snooker"),
    ("billiards/wpbsa-2024", 12, 1, "billiards"),
    ("eightball/world-2015", 8, 5, "eightball"),
    ("nineball/wpa", 6, 5, "nineball"),
    ("straight-pool/wpa", 4, 1, "straight-pool"),
)
ERROR_RATE = 0.02


@dataclass(slots=True)
class DemoResult:
    """What the demo found, for the command to print."""

    matches: int = 0
    strokes: int = 0
    injected: int = 0
    files: int = 0
    shots_aligned: int = 0
    findings_by_kind: list[tuple[str, int, int]] = field(default_factory=list)
    """(kind, findings, points at stake), most frequent first."""
    worst_frames: list[dict[str, Any]] = field(default_factory=list)
    accuracy: Accuracy | None = None
    headlines: list[tuple[str, str]] = field(default_factory=list)
    plots: list[Path] = field(default_factory=list)
    report: Path | None = None
    """The audit report (HTML) of the match with the most findings."""


def examples_dir() -> Path | None:
    """The bundled examples (``examples/`` next to the package in a source checkout)."""
    here = Path(__file__).resolve().parents[2] / "examples"
    return here if here.is_dir() else None


def run_demo(db: Path, out: Path, seed: int = 2026, workers: int | None = None, step: Step | None = None) -> DemoResult:
    """Run the whole pipeline; ``out`` receives the season's files and the plots."""
    from cuelog.ingest.clock import ingest_clocks, pairing_ahead
    from cuelog.ingest.load import ingest_paths
    from cuelog.pipeline import replay_db
    from cuelog.store import connect
    from cuelog.store.reads import findings_by_kind, worst_frames

    def say(name: str, done: float) -> None:
        if step is not None:
            step(name, done)

    result = DemoResult()
    season = out / "season"
    truth_files = []
    for i, (rules, matches, best_of, folder) in enumerate(SEASON):
        say(f"simulating {folder}", 0.05 + 0.15 * i)
        cfg = SeasonConfig(rules, matches, seed, ERROR_RATE, best_of=best_of)
        stats = write_season(season / folder, simulate_season(cfg, workers=workers or 1))
        result.matches += stats.matches
        result.strokes += stats.strokes
        result.injected += stats.errors
        truth_files.append(season / folder / ERRORS_FILE)
    say("loading logs and shot clocks", 0.35)
    con = connect(db)
    try:
        sources = [season / folder / LOGS_DIR for *_, folder in SEASON]
        examples = examples_dir()
        if examples is not None:
            sources.append(examples)
        clock_logs = sorted(season.glob(f"*/{CLOCKS_DIR}/*.csv"))
        # The shot clocks paired by a thread while the logs load, as `cuelog ingest` does.
        with pairing_ahead(clock_logs) as paired:
            loaded = ingest_paths(con, sources)
            rejected = [p for r in loaded for p in r.problems]
            if rejected:
                from cuelog.errors import InputError

                raise InputError(rejected)
            result.files = len(loaded)
            clocks = ingest_clocks(con, clock_logs, paired=paired)
        result.shots_aligned = sum(c.aligned for c in clocks)
        say("replaying every stroke", 0.55)
        results = replay_db(con, None, workers)
        simulated = {p.stem for source in sources[: len(SEASON)] for p in source.glob("*.jsonl")}
        found = {k for k in finding_keys(results) if k[0] in simulated}
        truth: set[tuple[str, int, int, str]] = set()
        for f in truth_files:
            truth |= truth_keys(f)
        result.accuracy = compare(truth, found)
        say("audit summary and statistics", 0.75)
        result.findings_by_kind = findings_by_kind(con)
        result.worst_frames = worst_frames(con)
        result.headlines = _headlines(con)
        say("drawing plots", 0.85)
        out.mkdir(parents=True, exist_ok=True)
        result.plots = _plots(con, out, result.worst_frames)
        say("writing the audit report", 0.95)
        result.report = _audit_report(con, out)
    finally:
        con.close()
    say("done", 1.0)
    return result


def _headlines(con: Any) -> list[tuple[str, str]]:
    from cuelog.analytics.queries import ReportError, report

    out: list[tuple[str, str]] = []
    try:
        breaks = report(con, "breaks").frame.sort("highest", descending=True)
        top = breaks.row(0, named=True)
        out.append(("highest snooker break", f"{top['highest']} by {top['player']}"))
        out.append(("snooker centuries / 50+ breaks", f"{breaks['centuries'].sum()} / {breaks['fifty_plus'].sum()}"))
    except ReportError:
        pass
    try:
        bil = report(con, "billiards").frame.drop_nulls("average").sort("average", descending=True)
        top = bil.row(0, named=True)
        out.append(("best billiards average", f"{top['average']} points a visit by {top['player']}"))
        low = bil.row(bil.height - 1, named=True)
        out.append(("lowest billiards average", f"{low['average']} by {low['player']}"))
    except ReportError:
        pass
    try:
        misses = report(con, "misses").frame
        out.append(("FOUL AND A MISS calls due", str(misses["miss_calls"].sum())))
    except ReportError:
        pass
    try:
        pool = report(con, "pool").frame.sort("racks_won", "clearances", descending=True)
        top = pool.row(0, named=True)
        out.append(("most eight-ball racks won", f"{top['racks_won']} by {top['player']}"))
        out.append(
            ("eight-ball clearances / break-and-dish", f"{pool['clearances'].sum()} / {pool['break_and_dish'].sum()}")
        )
    except ReportError:
        pass
    try:
        sp = report(con, "straight-pool").frame.sort("high_run", descending=True)
        top = sp.row(0, named=True)
        out.append(("highest 14.1 run", f"{top['high_run']} by {top['player']}"))
    except ReportError:
        pass
    try:
        clock = report(con, "clock").frame.drop_nulls("mean_s")
        if clock.height:
            shots = int(clock["shots"].sum())
            mean = (clock["mean_s"] * clock["shots"]).sum() / max(shots, 1)
            out.append(("shot clock", f"{shots} shots timed, {mean:.1f} s on average"))
    except ReportError:
        pass
    return out


def _audit_report(con: Any, out: Path) -> Path | None:
    """The audit report of the match with the most findings (ties: the lowest id)."""
    from cuelog.analytics.audit_report import render
    from cuelog.cli.audit_source import audit_from_db
    from cuelog.store.reads import most_findings_match

    match_id = most_findings_match(con)
    if match_id is None:
        return None
    path = out / "audit-report.html"
    path.write_text(render(audit_from_db(con, match_id)), encoding="utf-8")
    return path


def _plots(con: Any, out: Path, worst: list[dict[str, Any]]) -> list[Path]:
    import cuelog.analytics.plots as plots
    from cuelog.analytics.queries import ReportError, Scope
    from cuelog.analytics.reports import load
    from cuelog.store.reads import frame_findings

    written: list[Path] = []
    # The worst frame drawn is the one the worst-frames table ranks first, whatever its discipline.
    first = worst[0] if worst else None
    for picture, name in plots.SEASON_PLOTS:
        try:
            written.append(plots.save(plots.picture(con, picture, Scope()), out / name))
        except (ReportError, plots.NothingToPlot):
            continue
    if first is not None:
        match_id, frame = str(first["match"]), int(first["frame"])
        try:
            data = load(con, "clock", Scope(matches=(match_id,)))
            fig = plots.score_worm(data, match_id, frame, findings=frame_findings(con, match_id, frame))
            written.append(plots.save(fig, out / "worst-frame.png"))
        except (ReportError, plots.NothingToPlot):
            pass
    return written
