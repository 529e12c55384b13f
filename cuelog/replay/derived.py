"""Derived rulesets: a named ruleset made from a known edition with some parameters changed.

A rule maker's draft (``name = "wpbsa-2026-draft"``, ``base = "snooker/wpbsa-2024"``,
``minimum = 5``) replays under the base's engine with the base's :class:`Edition` changed
by ``dataclasses.replace``. :func:`install` registers it under ``discipline/name`` with
the ruleset registry and the engine's editions, so every replay function takes it like a
built-in ruleset. A :class:`Derived` is a small picklable record: a worker process
installs it again before replaying (a worker does not inherit the caller's memory: it is
forked from a fresh server, or spawned; :mod:`cuelog.ingest.processes`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from cuelog.replay.params import Parameter, override, parameters
from cuelog.replay.rulesets import RULESETS, Ruleset, ruleset
from cuelog.schemas.records import Match

__all__ = [
    "Derived",
    "NameTaken",
    "OtherDiscipline",
    "derive",
    "edition_of",
    "editions_of",
    "install",
    "parameters_of",
    "under",
]


class NameTaken(ValueError):
    """A derived ruleset was given the name of another ruleset."""

    def __init__(self, rules: str) -> None:
        super().__init__(rules)
        self.rules = rules

    def __str__(self) -> str:
        return f"the name {self.rules!r} is already a ruleset; give the derived ruleset a name of its own"


@dataclass(frozen=True, slots=True)
class Derived:
    """A ruleset derived from ``base`` (a built-in id) with ``params`` overridden."""

    name: str
    base: str
    params: tuple[tuple[str, Any], ...]
    source: str = ""
    """Where it was defined (a ruleset file), for messages."""
    description: str = ""
    """What the ruleset is for, in the rule maker's words."""

    @property
    def discipline(self) -> str:
        return self.base.split("/", 1)[0]

    @property
    def id(self) -> str:
        return f"{self.discipline}/{self.name}"


def editions_of(discipline: str) -> dict[str, Any]:
    """The editions of a discipline's engine, by edition name (empty without an engine)."""
    from cuelog.replay import ENGINES  # the package imports its modules first

    name = ENGINES.get(discipline)
    if name is None:
        return {}
    editions: dict[str, Any] = importlib.import_module(name).EDITIONS
    return editions


def edition_of(rules: str) -> Any:
    """The edition object of a ruleset id (built-in or installed). Raises UnknownRuleset,
    or LookupError when the discipline has no engine yet."""
    rs = ruleset(rules)
    editions = editions_of(rs.discipline)
    if rs.edition not in editions:
        raise LookupError(f"no rules engine for {rules!r} yet")
    return editions[rs.edition]


def derive(name: str, base: str, params: Mapping[str, Any], source: str = "", description: str = "") -> Derived:
    """A derived ruleset, checked: ``base`` exists and has an engine, ``name`` is new (or
    already this same derivation), every parameter exists with a value of its type.

    Raises UnknownRuleset, LookupError, NameTaken or params.BadParameter.
    """
    base_edition = edition_of(base)
    changes = tuple(sorted(params.items()))
    derived = Derived(name=name, base=base, params=changes, source=source, description=description)
    if not name or "/" in name:
        raise ValueError(f"name {name!r}: expected a name without '/' (the discipline comes from the base)")
    taken = RULESETS.get(derived.id)
    if taken is not None and taken.source != _source_of(derived):
        raise NameTaken(derived.id)
    override(base_edition, name, params)  # validates every key and value
    return derived


def _source_of(derived: Derived) -> str:
    changes = ", ".join(f"{k} = {v!r}" for k, v in derived.params) or "no changes"
    return f"{derived.base} with {changes}"


def install(derived: Derived) -> str:
    """Register ``derived`` so that replays find it by its id; returns the id.

    Installing the same derivation again changes nothing.
    """
    base = ruleset(derived.base)
    taken = RULESETS.get(derived.id)
    if taken is not None:
        if taken.source != _source_of(derived):
            raise NameTaken(derived.id)
        return derived.id
    edition = override(edition_of(derived.base), derived.name, dict(derived.params))
    editions_of(base.discipline)[derived.name] = edition
    RULESETS[derived.id] = Ruleset(
        derived.id, base.discipline, derived.name, base.balls, base.spots, _source_of(derived)
    )
    return derived.id


def parameters_of(rules: str) -> list[Parameter]:
    """The parameters of a ruleset id with its values."""
    return parameters(edition_of(rules))


class OtherDiscipline(ValueError):
    """A match was asked to replay under a ruleset of another discipline."""

    def __init__(self, match: str, recorded: str, rules: str) -> None:
        super().__init__(match)
        self.match, self.recorded, self.rules = match, recorded, rules

    def __str__(self) -> str:
        return (
            f"match {self.match!r} is played under {self.recorded!r}: it cannot be replayed under "
            f"{self.rules!r}, a ruleset of another discipline"
        )


def under(match: Match, rules: str | Derived) -> Match:
    """The match record with ``rules`` in place of the recorded ruleset (installed first).

    Raises OtherDiscipline, UnknownRuleset.
    """
    rid = install(rules) if isinstance(rules, Derived) else rules
    if ruleset(rid).discipline != ruleset(match.rules).discipline:
        raise OtherDiscipline(match.match, match.rules, rid)
    return msgspec.structs.replace(match, rules=rid)
