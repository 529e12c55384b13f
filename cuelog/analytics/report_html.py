"""The audit report's page: its style sheet, the page skeleton and the score-worm SVG.

Plain strings and ``html.escape``: the page is small, a template engine would cost an
import and a dependency for nothing. Every text that comes from a log goes through
:func:`esc`. The page carries no script and loads nothing: its Content-Security-Policy
forbids every request, so it opens offline and cannot reach the network.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

SIDE_COLOURS = {"A": "#1f5fa8", "B": "#b3261e"}
PAPER = {"a4": "A4", "letter": "letter"}

# No request may leave the file: no script, no font, no image but inline ones.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def esc(value: object) -> str:
    """Text for HTML, quotes included: safe in element content and in attribute values."""
    return html.escape("" if value is None else str(value), quote=True)


def style(paper: str) -> str:
    """The style sheet: screen first (a tablet or a phone), then print (a frame per page)."""
    return (
        _SCREEN
        + f"""
@page {{ size: {PAPER[paper]}; margin: 14mm 12mm 16mm 12mm;
  @bottom-right {{ content: "page " counter(page) " of " counter(pages); font-size: 8pt; color: #555; }} }}
"""
        + _PRINT
    )


_SCREEN = """
:root { --ink: #1b1b1b; --muted: #5c5c5c; --rule: #d0d0d0; --band: #f4f4f1; --alert: #8a1c12; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--ink); margin: 0 auto; padding: 16px; max-width: 1180px; }
h1 { font-size: 1.5em; margin: 0 0 4px; } h2 { font-size: 1.25em; margin: 0 0 6px; }
h3 { font-size: 1.05em; margin: 14px 0 6px; }
.muted { color: var(--muted); }
dl.head { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 10px 0; }
dl.head dt { color: var(--muted); } dl.head dd { margin: 0; overflow-wrap: anywhere; }
section { margin: 18px 0; padding-top: 10px; border-top: 2px solid var(--ink); }
table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; font-size: 0.92em; }
th, td { border-bottom: 1px solid var(--rule); padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: var(--band); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.differs { color: var(--alert); font-weight: 600; }
tr.finding td { border-bottom: 0; }
tr.why td { padding-top: 0; }
div.why { display: grid; grid-template-columns: repeat(3, 1fr); gap: 4px 14px; font-size: 0.92em; }
div.why b { display: block; font-weight: 600; color: var(--muted); }
span.calls { white-space: pre-line; }
p.unless { margin: 4px 0 0; color: var(--muted); font-size: 0.9em; }
td.cite { white-space: nowrap; }
.kind { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
blockquote.rule { margin: 6px 0 0; padding: 4px 8px; border-left: 3px solid var(--rule);
  background: var(--band); white-space: pre-line; font-size: 0.92em; }
blockquote.rule cite { display: block; color: var(--muted); font-style: normal; font-size: 0.9em; }
p.rule-missing { margin: 4px 0 0; color: var(--muted); font-size: 0.9em; }
div.wide { overflow-x: auto; }
svg.worm { width: 100%; height: auto; max-height: 320px; display: block; }
.legend span { margin-right: 14px; white-space: nowrap; }
.legend i { display: inline-block; width: 22px; height: 0; border-top: 3px solid; vertical-align: middle;
  margin-right: 4px; }
.legend i.recorded { border-top-style: dashed; }
.sign { display: grid; grid-template-columns: repeat(3, 1fr); gap: 18px; margin-top: 22px; }
.sign div { border-top: 1px solid var(--ink); padding-top: 2px; color: var(--muted); font-size: 0.85em; }
@media (max-width: 720px) {
  body { padding: 10px; font-size: 14px; }
  table.findings thead { display: none; }
  table.findings tbody { display: block; border-bottom: 2px solid var(--rule); padding: 4px 0; }
  table.findings tr { display: block; }
  table.findings td { display: grid; grid-template-columns: 6em 1fr; border: 0; padding: 2px 4px; }
  table.findings td::before { content: attr(data-label); color: var(--muted); font-family: system-ui, sans-serif; }
  table.findings tr.why td { display: block; }
  div.why { grid-template-columns: 1fr; }
  td.num { text-align: left; }
  table.frames th, table.frames td { padding: 3px; }
  .sign { grid-template-columns: 1fr; }
}
"""

_PRINT = """
@media print {
  body { font-size: 9pt; max-width: none; padding: 0; }
  section { border-top: 0; margin: 0; padding: 0; }
  section.frame { break-before: page; }
  thead { display: table-header-group; }
  tbody, blockquote.rule { break-inside: avoid; }
  div.wide { overflow-x: auto; }
svg.worm { max-height: 60mm; }
  table { font-size: 8pt; }
}
"""


def page(*, title: str, made_at: str, paper: str, body: str, generator: str) -> str:
    """The whole document around ``body`` (already escaped HTML)."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="{esc(generator)}">\n'
        f'<meta name="dcterms.created" content="{esc(made_at)}">\n'
        f"<title>{esc(title)}</title>\n<style>{style(paper)}</style>\n</head>\n"
        f"<body>\n{body}</body>\n</html>\n"
    )


# -- the score worm ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mark:
    """A finding drawn on the worm: its number in the table, its stroke, a tooltip."""

    label: int
    n: int
    title: str
    certain: bool = True
    """An uncertain finding is drawn hollow."""


W, H = 800, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 26, 30


def _steps(points: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """A score after each stroke as a step line: flat until the stroke, then up."""
    out: list[tuple[int, int]] = []
    for n, score in points:
        if out:
            out.append((n, out[-1][1]))
        out.append((n, score))
    return out


def _ticks(top: int, count: int = 5) -> list[int]:
    step = max(1, top // count)
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if nice >= step:
            step = nice
            break
    return list(range(0, top + 1, step))


def worm_svg(
    *,
    official: dict[str, list[tuple[int, int]]],
    recorded: dict[str, list[tuple[int, int]]],
    names: dict[str, str],
    marks: Sequence[Mark],
    strokes: int,
    caption: str,
) -> str:
    """Both sides' scores stroke by stroke, official (solid) and recorded (dashed), with each
    finding marked at its stroke by its number in the findings table."""
    top = max([1, *(s for line in (*official.values(), *recorded.values()) for _, s in line)])
    last = max(1, strokes)

    def x(n: float) -> str:
        return f"{LEFT + (W - LEFT - RIGHT) * n / last:.1f}"

    def y(s: float) -> str:
        return f"{H - BOTTOM - (H - TOP - BOTTOM) * s / top:.1f}"

    parts = [
        f'<svg class="worm" viewBox="0 0 {W} {H}" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'aria-label="{esc(caption)}">',
        f"<title>{esc(caption)}</title>",
    ]
    for s in _ticks(top):
        parts.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(s)}" y2="{y(s)}" stroke="#e3e3e3"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y(s)}" font-size="11" text-anchor="end" dy="4">{s}</text>')
    for n in _ticks(last, 10):
        parts.append(f'<text x="{x(n)}" y="{H - BOTTOM + 16}" font-size="11" text-anchor="middle">{n}</text>')
    parts.append(f'<text x="{W - RIGHT}" y="{H - 2}" font-size="11" text-anchor="end" fill="#5c5c5c">stroke</text>')
    for m in marks:
        parts.append(
            f'<g class="mark"><title>{esc(m.title)}</title>'
            f'<line x1="{x(m.n)}" x2="{x(m.n)}" y1="{TOP - 4}" y2="{H - BOTTOM}" stroke="#8a1c12" '
            f'stroke-dasharray="2 3"/>'
            f'<circle cx="{x(m.n)}" cy="{TOP - 12}" r="9" fill="{"#8a1c12" if m.certain else "#fff"}" stroke="#8a1c12"/>'
            f'<text x="{x(m.n)}" y="{TOP - 8}" font-size="11" fill="{"#fff" if m.certain else "#8a1c12"}" '
            f'text-anchor="middle">{m.label}</text></g>'
        )
    for side in ("A", "B"):
        colour = SIDE_COLOURS[side]
        for line, dash in ((recorded.get(side, []), ' stroke-dasharray="6 4"'), (official.get(side, []), "")):
            if line:
                pts = " ".join(f"{x(n)},{y(s)}" for n, s in _steps([(0, 0), *line]))
                width = "2" if dash else "2.5"
                parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="{width}"{dash}/>')
    parts.append("</svg>")
    legend = " ".join(
        f'<span><i style="border-color:{SIDE_COLOURS[s]}"></i>{esc(names.get(s, s))} official</span>'
        f'<span><i class="recorded" style="border-color:{SIDE_COLOURS[s]}"></i>recorded</span>'
        for s in ("A", "B")
    )
    return "".join(parts) + f'\n<p class="legend">{legend}</p>\n'
