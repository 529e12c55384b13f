"""Ruleset files (TOML): a named ruleset derived from a known edition.

    name = "wpbsa-2026-draft"
    base = "snooker/wpbsa-2024"
    description = "minimum penalty five"   # optional

    [params]
    minimum = 5

Every key and value is checked against the base edition's parameters; each problem
names the file, the line, the key and the valid choices (docs/rulesets.md).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from cuelog.errors import InputError, Problem
from cuelog.replay.derived import Derived, NameTaken, derive
from cuelog.replay.params import BadParameter, parameters
from cuelog.replay.rulesets import RULESETS, UnknownRuleset

__all__ = ["engine_rulesets", "load_ruleset_file", "resolve_rules"]

_TOP_KEYS = ("name", "base", "description", "params")


def engine_rulesets() -> list[str]:
    """The built-in ruleset ids that have an engine, sorted."""
    from cuelog.replay.derived import editions_of

    return sorted(rid for rid, rs in RULESETS.items() if rs.edition in editions_of(rs.discipline))


def resolve_rules(spec: str) -> str | Derived:
    """A ruleset id with an engine, or the ruleset a file derives. Raises InputError."""
    if spec in RULESETS:
        if spec not in engine_rulesets():
            raise InputError([_problem(spec, 0, "rules", "no_engine", spec, ", ".join(engine_rulesets()))])
        return spec
    path = Path(spec)
    if path.is_file():
        return load_ruleset_file(path)
    expected = f"a ruleset file (.toml) or one of: {', '.join(engine_rulesets())}"
    raise InputError([_problem(spec, 0, "rules", "unknown_rules", repr(spec), expected)])


def _problem(file: str, line: int, key: str, code: str, found: str, expected: str) -> Problem:
    return Problem(file=file, line=line, field=key, code=code, found=found, expected=expected)


def _line_of(text: str, key: str, section: str | None) -> int:
    """The line where ``key`` is set (in ``[section]`` when given), 0 when not found."""
    current: str | None = None
    for i, line in enumerate(text.splitlines(), start=1):
        header = re.match(r"\s*\[\s*([^\]]+?)\s*\]", line)
        if header:
            current = header.group(1)
        elif current == section and re.match(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=", line):
            return i
    return 0


def load_ruleset_file(path: Path) -> Derived:
    """The ruleset a TOML file derives; raises InputError listing every problem."""
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
        doc = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError([_problem(file, 0, "", "unreadable", str(exc), "a readable UTF-8 TOML file")]) from None
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"line (\d+)", str(exc))
        line = int(at.group(1)) if at else 0
        raise InputError([_problem(file, line, "", "bad_toml", str(exc), "TOML (https://toml.io)")]) from None
    problems = _check_top(file, text, doc)
    if problems:
        raise InputError(problems)
    params: dict[str, Any] = doc.get("params", {})
    try:
        return derive(doc["name"], doc["base"], params, source=file, description=doc.get("description", ""))
    except UnknownRuleset:
        expected = ", ".join(engine_rulesets())
        problems.append(_problem(file, _line_of(text, "base", None), "base", "unknown_base", doc["base"], expected))
    except LookupError:
        expected = ", ".join(engine_rulesets())
        problems.append(_problem(file, _line_of(text, "base", None), "base", "no_engine", doc["base"], expected))
    except NameTaken as exc:
        problems.append(_problem(file, _line_of(text, "name", None), "name", "name_taken", str(exc), "a new name"))
    except BadParameter:
        problems.extend(_param_problems(file, text, doc["base"], params))
    except ValueError as exc:
        problems.append(_problem(file, _line_of(text, "name", None), "name", "bad_name", str(exc), "a plain name"))
    raise InputError(problems)


def _check_top(file: str, text: str, doc: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    for key in doc:
        if key not in _TOP_KEYS:
            line = _line_of(text, key, None)
            problems.append(_problem(file, line, key, "unknown_key", repr(key), ", ".join(_TOP_KEYS)))
    for key in ("name", "base"):
        if key not in doc:
            problems.append(_problem(file, 0, key, "missing_key", "nothing", f'{key} = "..."'))
        elif not isinstance(doc[key], str):
            line = _line_of(text, key, None)
            problems.append(_problem(file, line, key, "wrong_type", repr(doc[key]), "a string"))
    if "description" in doc and not isinstance(doc["description"], str):
        line = _line_of(text, "description", None)
        problems.append(_problem(file, line, "description", "wrong_type", repr(doc["description"]), "a string"))
    if "params" in doc and not isinstance(doc["params"], dict):
        problems.append(
            _problem(file, _line_of(text, "params", None), "params", "wrong_type", "a value", "a [params] table")
        )
    return problems


def _param_problems(file: str, text: str, base: str, params: dict[str, Any]) -> list[Problem]:
    """Every bad parameter of the file, each with its valid choices."""
    from cuelog.replay.derived import edition_of
    from cuelog.replay.params import check_value

    known = {p.name: p for p in parameters(edition_of(base))}
    problems: list[Problem] = []
    for key, value in params.items():
        line = _line_of(text, key, "params")
        if key not in known:
            choices = ", ".join(sorted(n for n, p in known.items() if p.settable))
            problems.append(_problem(file, line, f"params.{key}", "unknown_parameter", repr(key), choices))
            continue
        try:
            check_value(known[key], value)
        except BadParameter as exc:
            problems.append(_problem(file, line, f"params.{key}", "wrong_type", exc.problem, exc.expected))
    return problems
