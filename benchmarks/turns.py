"""Two trees measured in turn, a fresh process each, round by round, and their ratio: what
``replay_worker.py`` and ``ingest_worker.py`` share.

On a shared machine the ratio of runs taken back to back means more than either figure, so
the trees alternate (tree, base, then base, tree, ...) and each round's ratio tree / base is
taken from that round's two runs. A measurement returns at least ``cpu_s``,
``ns_per_record`` and ``digest`` (of what the tree made, to say both made the same)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import ROOT, checkout, spread

Measure = Callable[[Path], dict[str, Any]]


def add_options(ap: argparse.ArgumentParser, rounds: int = 3) -> None:
    """The options of a measurement in turn: ``--base``, ``--tree``, ``--rounds``, ``--json``."""
    ap.add_argument("--base", help="git revision or directory to compare against (default: the working tree alone)")
    ap.add_argument("--tree", default=str(ROOT), help="the tree to measure (default: the working tree)")
    ap.add_argument("--rounds", type=int, default=rounds, help="rounds (a fresh process per tree each)")
    ap.add_argument("--json", action="store_true")


def run_child(child: str, tree: Path, *args: object) -> dict[str, Any]:
    """``python -c child TREE ARGS...`` in ``tree``: the JSON document its last line prints
    (with ``records`` and ``cpu_s``), and ``ns_per_record`` from them."""
    out = subprocess.run(
        [sys.executable, "-c", child, str(tree), *(str(a) for a in args)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    run = dict(json.loads(out.stdout.strip().splitlines()[-1]))
    run["ns_per_record"] = run["cpu_s"] / max(run["records"], 1) * 1e9
    return run


def in_turn(tree: str, base: str | None, rounds: int, measure: Measure) -> dict[str, list[dict[str, Any]]]:
    """``measure`` of ``tree`` and of ``base`` (directories or git revisions; no base: the
    tree alone), ``rounds`` times each, in turn, each tree's modules compiled to bytecode
    first."""
    with tempfile.TemporaryDirectory(prefix="cuelog-turns-") as tmp:
        trees = {
            "tree": checkout(tree, Path(tmp) / "tree"),
            "base": checkout(base, Path(tmp) / "base") if base else None,
        }
        for where in trees.values():
            # Each tree's bytecode made first: an exported revision has none, and the first
            # import of an engine inside the timed work would compile it there.
            if where is not None:
                subprocess.run([sys.executable, "-m", "compileall", "-q", str(where / "cuelog")], check=True)
        runs: dict[str, list[dict[str, Any]]] = {"tree": [], "base": []}
        for i in range(rounds):
            for name in ("tree", "base") if i % 2 == 0 else ("base", "tree"):
                where = trees[name]
                if where is not None:
                    runs[name].append(measure(where))
    return runs


def compared(runs: dict[str, list[dict[str, Any]]], base: str | None) -> dict[str, Any]:
    """The tree's figures, and with a base its figures, the rounds' ratios and whether every
    run made the same."""
    doc: dict[str, Any] = {"tree": {"ns_per_record": spread([r["ns_per_record"] for r in runs["tree"]])}}
    if base is not None:
        first = runs["tree"][0]
        ratios = [t["cpu_s"] / b["cpu_s"] for t, b in zip(runs["tree"], runs["base"], strict=True)]
        doc["base"] = {"revision": base, "ns_per_record": spread([r["ns_per_record"] for r in runs["base"]])}
        doc["tree_over_base"] = {**spread(ratios), "rounds": [round(r, 3) for r in ratios]}
        doc["same_rows"] = all(r["digest"] == first["digest"] for r in runs["tree"] + runs["base"])
    return doc


def report(head: dict[str, Any], runs: dict[str, list[dict[str, Any]]], args: argparse.Namespace, title: str) -> None:
    """Print what was measured (``head``, then the rounds and :func:`compared`), as JSON with
    ``--json``, else as text under ``title`` (formatted with the document's fields)."""
    doc = {**head, "rounds": args.rounds, **compared(runs, args.base)}
    if args.json:
        print(json.dumps(doc, indent=1))
        return
    print(title.format(**doc))
    t = doc["tree"]["ns_per_record"]
    print(f"  tree  {t['median']:,.0f} ns a record ({t['low']:,.0f}-{t['high']:,.0f})")
    if "base" in doc:
        b, r = doc["base"]["ns_per_record"], doc["tree_over_base"]
        print(f"  base  {b['median']:,.0f} ns a record ({b['low']:,.0f}-{b['high']:,.0f})  [{doc['base']['revision']}]")
        print(f"  tree / base {r['median']:.3f} (rounds {', '.join(str(x) for x in r['rounds'])})")
        print(f"  same rows from both trees: {doc['same_rows']}")
