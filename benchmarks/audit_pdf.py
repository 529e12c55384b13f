"""The audit report: building the HTML, and printing it to PDF with each library at hand.

The report of one simulated match of several frames (seed 2026, officiating errors at 5%)
is built, then printed by every HTML-to-PDF route installed here: WeasyPrint (the
``[pdf]`` extra), xhtml2pdf, and Chromium's own printing (Debian's ``chromium``; a
browser, not a pip package, shown for reference). Each is timed ``--runs`` times; the
medians are given with their spread (min-max) and as ratios to the floor, building the
HTML itself, measured in the same run. Pages and size are printed too: a route that
loses the inline SVG or the print CSS prints fewer or more pages than the frames need.

    python benchmarks/audit_pdf.py
    python benchmarks/audit_pdf.py --runs 9 --frames 7
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cuelog.analytics.audit_report import Audit, render, write_pdf
from cuelog.cli.audit_source import audit_from_records
from cuelog.simulate.season import SeasonConfig, simulate_season

AT = "2026-05-01T18:00:00Z"


def worst_match(frames: int) -> Audit:
    """The simulated match with the most findings, replayed for its report."""
    cfg = SeasonConfig("snooker/wpbsa-2024", 6, 2026, 0.05, best_of=frames)
    matches = list(simulate_season(cfg, workers=1))
    best = None
    for sim in matches:
        audit = audit_from_records([sim.match, *sim.records], None)
        found = sum(len(fr.findings) for fr in audit.result.frames)
        if best is None or found > best[0]:
            best = (found, audit)
    assert best is not None
    return best[1]


def pages(pdf: Path) -> int:
    if importlib.util.find_spec("pypdf") is None:
        return -1
    import pypdf

    return len(pypdf.PdfReader(pdf).pages)


def time_it(fn: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return times


def routes(html: str, folder: Path) -> dict[str, Callable[[], Path]]:
    src = folder / "report.html"
    src.write_text(html, encoding="utf-8")
    out: dict[str, Callable[[], Path]] = {}

    def weasy() -> Path:
        write_pdf(html, folder / "weasyprint.pdf")
        return folder / "weasyprint.pdf"

    try:
        import weasyprint  # noqa: F401

        out["weasyprint"] = weasy
    except (ImportError, OSError):
        pass
    if importlib.util.find_spec("xhtml2pdf") is not None:
        from xhtml2pdf import pisa

        def xhtml() -> Path:
            with (folder / "xhtml2pdf.pdf").open("wb") as fh:
                pisa.CreatePDF(html, dest=fh)  # type: ignore[no-untyped-call]
            return folder / "xhtml2pdf.pdf"

        out["xhtml2pdf"] = xhtml
    chromium = shutil.which("chromium")
    if chromium:

        def browser() -> Path:
            target = folder / "chromium.pdf"
            subprocess.run(
                [
                    chromium,
                    "--headless",
                    "--no-sandbox",
                    "--no-pdf-header-footer",
                    f"--print-to-pdf={target}",
                    src.as_uri(),
                ],
                capture_output=True,
                check=True,
            )
            return target

        out["chromium (not pip)"] = browser
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--frames", type=int, default=5, help="best of N frames")
    args = ap.parse_args()
    audit = worst_match(args.frames)
    html, frames = render(audit, at=AT), len(audit.result.frames)
    floor = time_it(lambda: render(audit, at=AT), args.runs)
    base = statistics.median(floor)
    print(f"report: {frames} frames, {len(html):,} bytes of HTML")
    print(f"{'route':<20} {'median s':>9} {'spread s':>15} {'x floor':>8} {'pages':>6} {'bytes':>9}")
    print(f"{'floor: build HTML':<20} {base:>9.3f} {min(floor):>7.3f}-{max(floor):<7.3f} {1.0:>8.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, route in routes(html, Path(tmp)).items():
            pdf = route()
            times = time_it(route, args.runs)
            med = statistics.median(times)
            print(
                f"{name:<20} {med:>9.3f} {min(times):>7.3f}-{max(times):<7.3f} {med / base:>8.1f} "
                f"{pages(pdf):>6} {pdf.stat().st_size:>9,}"
            )


if __name__ == "__main__":
    main()
