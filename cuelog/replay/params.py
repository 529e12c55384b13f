"""Edition parameters as data: each carries the rule it comes from and what it means.

An engine's ``Edition`` is a frozen dataclass whose fields are declared with
:func:`param`, so the rule and the meaning survive at runtime (an attribute docstring
does not). :func:`parameters` lists them for ``cuelog rules show`` and the rule makers'
diff; :func:`override` makes a derived edition from a base one, checking every name and
value against the declared types.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

__all__ = ["BadParameter", "Parameter", "check_value", "override", "param", "parameters", "required"]

T = TypeVar("T")

_RULE: Final = "cuelog.rule"
_MEANING: Final = "cuelog.meaning"


def param(default: T, *, rule: str, meaning: str) -> T:
    """An edition field with its ``default``, the ``rule`` it comes from and its ``meaning``."""
    field: T = dataclasses.field(default=default, metadata={_RULE: rule, _MEANING: meaning})
    return field


def required(*, rule: str, meaning: str) -> Any:
    """An edition field without a default (each edition gives it), with its rule and meaning."""
    return dataclasses.field(metadata={_RULE: rule, _MEANING: meaning})


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of an edition: ``value`` is the edition's, ``default`` the field's."""

    name: str
    type: str
    """The declared type as written (``int``, ``bool``, ``int | None``, ...)."""
    default: object
    value: object
    meaning: str
    rule: str
    settable: bool
    """A ruleset file may override it (scalars only: bool, int, float, str, or None)."""


class BadParameter(ValueError):
    """A parameter override names no parameter of the edition or has the wrong type."""

    def __init__(self, key: str, problem: str, expected: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem
        self.expected = expected


_SCALARS: Final[dict[str, type]] = {"bool": bool, "int": int, "float": float, "str": str, "None": type(None)}


def _type_name(annotation: object) -> str:
    if annotation is type(None):
        return "None"
    if isinstance(annotation, types.UnionType):
        return " | ".join(_type_name(a) for a in typing.get_args(annotation))
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("collections.abc.", "").replace("typing.", "")


def _accepted(type_name: str) -> tuple[type, ...] | None:
    """The Python types a value of the declared type may have, or None when not a scalar."""
    parts = [p.strip() for p in type_name.split("|")]
    if not all(p in _SCALARS for p in parts):
        return None
    return tuple(_SCALARS[p] for p in parts)


def _edition_class(edition: object) -> type:
    cls = edition if isinstance(edition, type) else type(edition)
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not an edition dataclass")
    return cls


def parameters(edition: object) -> list[Parameter]:
    """The parameters of an edition class or object, in declaration order.

    Fields without a rule (the edition's ``name``, required fields) are not parameters.
    """
    cls = _edition_class(edition)
    hints = typing.get_type_hints(cls)
    out: list[Parameter] = []
    for f in dataclasses.fields(cls):
        if _RULE not in f.metadata:
            continue
        type_name = _type_name(hints[f.name])
        default = None if f.default is dataclasses.MISSING else f.default
        value = getattr(edition, f.name) if not isinstance(edition, type) else default
        settable = _accepted(type_name) is not None
        out.append(Parameter(f.name, type_name, default, value, f.metadata[_MEANING], f.metadata[_RULE], settable))
    return out


def check_value(p: Parameter, value: object) -> object:
    """``value`` if it fits the parameter's declared type (an int is accepted for a float)."""
    accepted = _accepted(p.type)
    if accepted is None:
        raise BadParameter(p.name, "cannot be set from a ruleset file", "one of the scalar parameters")
    # bool is an int in Python: an int parameter must not take true/false, nor a bool take 1.
    if isinstance(value, bool):
        ok = bool in accepted
    elif isinstance(value, int):
        ok = int in accepted or float in accepted
        if ok and int not in accepted:
            value = float(value)
    else:
        ok = isinstance(value, accepted) and not isinstance(value, bool)
    if not ok:
        found = type(value).__name__
        raise BadParameter(p.name, f"{value!r} is a {found}", p.type)
    return value


def override(edition: T, name: str, values: Mapping[str, Any]) -> T:
    """A copy of ``edition`` named ``name`` with ``values`` in place of its parameters.

    Raises :class:`BadParameter` for an unknown key (its ``expected`` lists the valid
    ones) or a value of the wrong type.
    """
    known = {p.name: p for p in parameters(edition)}
    changes: dict[str, object] = {}
    for key in values:
        if key not in known:
            raise BadParameter(key, "is not a parameter of this edition", ", ".join(sorted(known)))
        changes[key] = check_value(known[key], values[key])
    derived: T = dataclasses.replace(edition, name=name, **changes)  # type: ignore[type-var]
    return derived
