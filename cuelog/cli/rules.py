"""``cuelog rules``: the rulesets cuelog knows and the parameters of each edition."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

import typer
from rich.markup import escape

from cuelog.cli.common import EXIT_BAD_INPUT, EXIT_OK, folded_table, json_errors, out_console, print_problems
from cuelog.errors import InputError
from cuelog.replay.derived import Derived, install, parameters_of
from cuelog.replay.rulesets import RULESETS
from cuelog.rulesfile import engine_rulesets, resolve_rules

rules_app = typer.Typer(
    name="rules",
    help="The rulesets and their parameters: each with its rule citation and meaning.",
    no_args_is_help=True,
)


def plain(value: object) -> Any:
    """A parameter value as JSON: mappings sorted, tuples as lists."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in sorted(value.items())}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def _text(value: object) -> str:
    if isinstance(value, Mapping):
        return f"({len(value)} entries)"
    if value is None:
        return "-"
    return json.dumps(plain(value))


@rules_app.command("list")
def list_rules(as_json: bool = typer.Option(False, "--json", help="Print the list as JSON on stdout.")) -> None:
    """List every ruleset id: discipline, whether cuelog has its engine, the rule book.

    Example: cuelog rules list
    """
    engines = set(engine_rulesets())
    rows = [
        {"id": rid, "discipline": rs.discipline, "engine": rid in engines, "source": rs.source}
        for rid, rs in sorted(RULESETS.items())
    ]
    if as_json:
        sys.stdout.write(json.dumps({"rulesets": rows}, indent=1) + "\n")
        raise typer.Exit(EXIT_OK)
    table = folded_table("id", "discipline", "engine", "rule book", whole=("id",))
    for r in rows:
        cells = (str(r["id"]), str(r["discipline"]), "yes" if r["engine"] else "not yet", str(r["source"]))
        table.add_row(*(escape(c) for c in cells))
    out_console().print(table)


def show_doc(rules: str | Derived) -> dict[str, Any]:
    """The parameters of a ruleset (id or derived) as one JSON-ready document."""
    rid = install(rules) if isinstance(rules, Derived) else rules
    params = parameters_of(rid)
    return {
        "id": rid,
        "base": rules.base if isinstance(rules, Derived) else None,
        "description": rules.description if isinstance(rules, Derived) else None,
        "discipline": RULESETS[rid].discipline,
        "source": RULESETS[rid].source,
        "parameters": [
            {
                "name": p.name,
                "type": p.type,
                "default": plain(p.default),
                "value": plain(p.value),
                "changed": p.value != p.default,
                "settable": p.settable,
                "rule": p.rule,
                "meaning": p.meaning,
            }
            for p in params
        ],
    }


@rules_app.command("show")
def show(
    rules: str = typer.Argument(..., help="A ruleset id (see `cuelog rules list`) or a ruleset file (.toml)."),
    as_json: bool = typer.Option(False, "--json", help="Print the parameters as JSON on stdout."),
) -> None:
    """Show the parameters of a ruleset: name, type, default, value, rule and meaning.

    A ruleset file is checked as `cuelog replay --rules` and `cuelog diff` would load it.

    Examples: cuelog rules show snooker/six-reds-2024; cuelog rules show draft.toml --json
    """
    json_errors(as_json)
    try:
        doc = show_doc(resolve_rules(rules))
    except InputError as exc:
        print_problems(exc.problems, as_json=as_json)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    if as_json:
        sys.stdout.write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
        raise typer.Exit(EXIT_OK)
    console = out_console()
    base = f" (from {doc['base']})" if doc["base"] else ""
    console.print(f"[bold]{escape(doc['id'])}[/]{escape(base)}: {escape(doc['source'])}")
    if doc["description"]:
        console.print(escape(doc["description"]), soft_wrap=True)
    # One parameter per paragraph: a table of six columns is unreadable in a terminal.
    for p in doc["parameters"]:
        mark = "  [bold]* changed[/]" if p["changed"] else ""
        head = f"{p['name']}: {p['type']} = {_text(p['value'])} (default {_text(p['default'])}; {p['rule']})"
        console.print(f"  {escape(head)}{mark}", soft_wrap=True)
        console.print(f"      {escape(p['meaning'])}", soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.add_typer(rules_app)
