"""``cuelog simulate``: a season of cuelog/1 logs with shot clocks and injected errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from cuelog.cli.common import EXIT_FINDINGS, EXIT_OK, fail, json_errors, out_console
from cuelog.replay import NoEngine, UnknownRuleset
from cuelog.replay.model import FINDING_KINDS
from cuelog.schemas.rulesets import ruleset
from cuelog.simulate import SeasonConfig, simulate_season
from cuelog.simulate.check import check_dir
from cuelog.simulate.writer import write_season

SUPPORTED = (
    "snooker/wpbsa-2024",
    "billiards/wpbsa-2024",
    "snooker/six-reds-2024",
    "snooker/classic",
    "billiards/classic",
    "billiards/one-red",
    "eightball/world-2015",
    "eightball/wepf",
    "eightball/wpa",
    "eightball/blackball",
    "nineball/wpa",
    "straight-pool/wpa",
)


def simulate(
    rules: str = typer.Option(..., "--rules", help=f"Ruleset to simulate: {', '.join(SUPPORTED)}."),
    matches: int = typer.Option(..., "--matches", min=1, help="Number of matches in the season."),
    seed: int = typer.Option(..., "--seed", help="Season seed: the same seed gives the same bytes."),
    out: Path = typer.Option(..., "--out", help="Directory for logs/, clocks/ and errors.jsonl."),
    errors: float = typer.Option(0.0, "--errors", min=0.0, max=1.0, help="Chance of an officiating error per stroke."),
    best_of: int | None = typer.Option(None, "--best-of", min=1, help="Frames per match (snooker default 7)."),
    reds: int | None = typer.Option(None, "--reds", min=0, max=15, help="Snooker reds per frame (0: random 3-15)."),
    target: int | None = typer.Option(None, "--target", min=1, help="Billiards game target in points."),
    kinds: str | None = typer.Option(
        None, "--kinds", help="Comma-separated finding kinds to inject (default: every kind the discipline offers)."
    ),
    workers: int = typer.Option(1, "--workers", min=1, help="Processes to simulate with (same output)."),
    check: bool = typer.Option(False, "--check", help="Replay what was written and print recall and precision."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Simulate a season of matches with officiating errors injected at a chosen rate.

    Writes OUT/logs/<match>.jsonl, OUT/clocks/<table>.csv (shot-clock device logs) and
    OUT/errors.jsonl (match, frame, stroke, kind of each injected error). With
    --check, exit code 1 when the audit's recall or precision is below 1.

    Example: cuelog simulate --rules snooker/wpbsa-2024 --matches 20 --seed 7 --out season --errors 0.02 --check
    """
    json_errors(as_json)
    try:
        ruleset(rules)
    except UnknownRuleset as exc:
        fail(str(exc), "unknown_rules")
    if rules not in SUPPORTED:
        fail(f"cuelog simulate knows {', '.join(SUPPORTED)}; not {rules!r}", "unknown_rules")
    chosen: frozenset[str] | None = None
    if kinds is not None:
        chosen = frozenset(k.strip() for k in kinds.split(",") if k.strip())
        unknown = sorted(chosen - set(FINDING_KINDS))
        if unknown:
            fail(f"--kinds: unknown kind(s) {', '.join(unknown)}; expected from: {', '.join(FINDING_KINDS)}")
    config = SeasonConfig(rules, matches, seed, errors, best_of=best_of, reds=reds, target=target, kinds=chosen)
    try:
        stats = write_season(out, simulate_season(config, workers=workers))
    except NoEngine as exc:
        fail(str(exc), "unknown_rules")
    summary: dict[str, object] = {
        "matches": stats.matches,
        "strokes": stats.strokes,
        "errors": stats.errors,
        "out": str(out),
    }
    code = EXIT_OK
    if check:
        acc = check_dir(out)
        summary.update(recall=round(acc.recall, 6), precision=round(acc.precision, 6))
        summary["missed"] = [list(k) for k in acc.missed[:20]]
        summary["false_alarms"] = [list(k) for k in acc.false_alarms[:20]]
        if acc.recall < 1.0 or acc.precision < 1.0:
            code = EXIT_FINDINGS
    if as_json:
        sys.stdout.write(json.dumps(summary, indent=1) + "\n")
    else:
        console = out_console()
        console.print(
            f"{stats.matches} matches, {stats.strokes} strokes, {stats.errors} injected errors written to {out}",
            markup=False,
        )
        if check:
            console.print(f"audit recall {summary['recall']:.4f}, precision {summary['precision']:.4f}")
            for k in summary["missed"]:  # type: ignore[attr-defined]
                console.print(f"  missed: {k}", markup=False)
            for k in summary["false_alarms"]:  # type: ignore[attr-defined]
                console.print(f"  false alarm: {k}", markup=False)
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command()(simulate)
