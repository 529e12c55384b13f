"""A ruleset sent to the workers as data: a built-in id, or a ruleset file's derivation.

A draft ruleset (``cuelog replay --parquet DIR --rules draft.toml``, ``cuelog diff
--dataset DIR --rules draft.toml``) is read and checked on the client; what travels to a
worker is its name, base and parameter values (plain JSON values), never engine state.
The worker derives and installs it again (``cuelog.replay.derived``), as the in-process
worker pool does, so the replay is the same.

A worker process outlives one run: a draft edited between two runs keeps its name with other
values. The derivations installed here are remembered, and one replaced by a newer version
of the same name is uninstalled first; two versions of one name cannot replay in the same
worker at the same moment (one run at a time per cluster, or distinct names).
"""

from __future__ import annotations

import threading
from typing import Any

from cuelog.replay.derived import Derived, NameTaken, derive, editions_of, install
from cuelog.replay.rulesets import RULESETS

RulesSpec = dict[str, Any]
"""``{"id": ID}`` for a built-in ruleset, or ``{"name", "base", "params", "description", "source"}``."""

_LOCK = threading.Lock()
_OURS: dict[str, Derived] = {}
"""Derived rulesets this process installed from a spec, by id."""


def to_spec(rules: str | Derived) -> RulesSpec:
    """The ruleset as plain data for the wire."""
    if isinstance(rules, str):
        return {"id": rules}
    return {
        "name": rules.name,
        "base": rules.base,
        "params": [[k, v] for k, v in rules.params],
        "description": rules.description,
        "source": rules.source,
    }


def from_spec(spec: RulesSpec) -> str | Derived:
    """The ruleset again, on the worker: checked (as on the client) and installed.

    Raises ValueError (a bad spec, another derivation holding the name), UnknownRuleset,
    LookupError or params.BadParameter.
    """
    if "id" in spec:
        return str(spec["id"])
    params = {str(k): v for k, v in spec["params"]}
    name, base = str(spec["name"]), str(spec["base"])
    with _LOCK:
        rid = f"{base.split('/', 1)[0]}/{name}"
        old = _OURS.get(rid)
        fresh = Derived(name, base, tuple(sorted(params.items())), str(spec["source"]), str(spec["description"]))
        if old is not None and (old.params, old.base) != (fresh.params, fresh.base):
            _uninstall(old)
        try:
            derived = derive(name, base, params, source=fresh.source, description=fresh.description)
            install(derived)
        except NameTaken as exc:
            raise ValueError(str(exc)) from None
        _OURS[rid] = derived
    return derived


def _uninstall(derived: Derived) -> None:
    """Forget a derivation this process installed (a newer version of it is coming)."""
    RULESETS.pop(derived.id, None)
    editions_of(derived.discipline).pop(derived.name, None)
    _OURS.pop(derived.id, None)


def label(spec: RulesSpec) -> str:
    """The ruleset id a spec stands for."""
    if "id" in spec:
        return str(spec["id"])
    return f"{str(spec['base']).split('/', 1)[0]}/{spec['name']}"
