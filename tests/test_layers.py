"""The import contract: the layers of cuelog point one way (docs/architecture.md).

From the bottom: the record types and the ruleset registry (``cuelog.schemas``); the rules
engines (``cuelog.replay``: only the schemas and the standard library); ingest and the
store; the pipeline that replays the database; the simulator and analytics; the commands
on top. Every import in every module is read from its source (imports inside functions
too), so a lazy import cannot slip past.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cuelog"

# What each part of cuelog may import of cuelog (itself always). A part is a module or a
# package; the longest matching name applies.
ALLOWED: dict[str, frozenset[str]] = {
    "cuelog.errors": frozenset(),
    "cuelog.schemas": frozenset(),
    "cuelog.replay": frozenset({"cuelog.schemas"}),
    "cuelog.store": frozenset({"cuelog.schemas", "cuelog.errors", "cuelog.replay.model"}),
    "cuelog.ingest": frozenset({"cuelog.schemas", "cuelog.errors", "cuelog.store"}),
    "cuelog.pipeline": frozenset({"cuelog.schemas", "cuelog.errors", "cuelog.replay", "cuelog.ingest", "cuelog.store"}),
    "cuelog.simulate": frozenset({"cuelog.schemas", "cuelog.errors", "cuelog.replay", "cuelog.ingest.reader"}),
    # replay.model: the result types the audit report renders (a replayed match), as the store writes them.
    "cuelog.analytics": frozenset({"cuelog.schemas", "cuelog.errors", "cuelog.store", "cuelog.replay.model"}),
    # The cluster's tasks reuse the pipeline's row building and the diff's comparison as they are.
    "cuelog.distributed": frozenset(
        {
            "cuelog.schemas",
            "cuelog.errors",
            "cuelog.replay",
            "cuelog.ingest",
            "cuelog.store",
            "cuelog.pipeline",
            "cuelog.diff",
        }
    ),
    # cuelog watch: the engines' fold over a followed file, the reader's decoding, the
    # ingest's shot-clock pairing; no store.
    "cuelog.live": frozenset({"cuelog.schemas", "cuelog.errors", "cuelog.replay", "cuelog.ingest"}),
    # Ruleset files check a derivation against the engines' editions; the rule makers' diff
    # replays the database twice through the pipeline.
    "cuelog.rulesfile": frozenset({"cuelog.schemas", "cuelog.errors", "cuelog.replay"}),
    "cuelog.diff": frozenset({"cuelog.schemas", "cuelog.errors", "cuelog.replay", "cuelog.store", "cuelog.pipeline"}),
    "cuelog.cli": frozenset(
        {
            "cuelog",
            "cuelog.schemas",
            "cuelog.errors",
            "cuelog.replay",
            "cuelog.ingest",
            "cuelog.store",
            "cuelog.pipeline",
            "cuelog.simulate",
            "cuelog.analytics",
            "cuelog.distributed",
            "cuelog.live",
        }
    ),
    "cuelog.__main__": frozenset({"cuelog.cli"}),
    "cuelog": frozenset(),
}

# Third-party packages the engines and the record types may use besides the standard
# library: msgspec is the record types' own (immutable structs decoded from JSON).
PURE_PARTS = ("cuelog.schemas", "cuelog.replay")
PURE_EXTRA = frozenset({"msgspec"})


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module an import statement of the file names, with its line."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return _named(path.read_text(encoding="utf-8"), package)


def _named(source: str, package: str) -> list[tuple[int, str]]:
    """The modules the import statements of ``source`` (a module of ``package``) name."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def _part(module: str) -> str:
    """The part of the contract a module belongs to (the longest name in ALLOWED)."""
    best = ""
    for part in ALLOWED:
        if (module == part or module.startswith(part + ".")) and len(part) > len(best):
            best = part
    return best


def _within(name: str, parts: frozenset[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in parts)


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_belongs_to_a_layer() -> None:
    orphans = [_module_name(p) for p in SOURCES if not _part(_module_name(p))]
    assert orphans == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_imports_point_down(path: Path) -> None:
    """A module imports only its own part and the parts below it."""
    module = _module_name(path)
    part = _part(module)
    allowed = ALLOWED[part] | {part}
    wrong = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}"
        for line, name in _imports(path)
        if name.split(".")[0] == "cuelog" and not _within(name, allowed) and name != "cuelog"
    ]
    if part == "cuelog.cli":
        wrong = [w for w in wrong if not w.endswith(" imports cuelog")]
    assert wrong == []


@pytest.mark.parametrize(
    "path",
    [p for p in SOURCES if _part(_module_name(p)) in PURE_PARTS],
    ids=lambda p: str(p.relative_to(PACKAGE.parent)),
)
def test_engines_and_schemas_import_only_the_standard_library(path: Path) -> None:
    """The engines do no I/O and know no database: no duckdb, polars, pyarrow (DESIGN.md)."""
    wrong = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}"
        for line, name in _imports(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and name.split(".")[0] not in PURE_EXTRA
        and name.split(".")[0] != "cuelog"
        and name != "__future__"
    ]
    assert wrong == []


def test_the_contract_catches_an_arrow_going_back() -> None:
    """The checker itself: ingest importing the engines' registry (as it once did), or an
    engine reaching for the store through a relative import, is refused."""
    ingest = ALLOWED["cuelog.ingest"] | {"cuelog.ingest"}
    names = [name for _, name in _named("def f():\n    from cuelog.replay.rulesets import RULESETS\n", "cuelog.ingest")]
    assert names == ["cuelog.replay.rulesets"] and not _within(names[0], ingest)
    names = [name for _, name in _named("from ..store import connect\n", "cuelog.replay")]
    assert names == ["cuelog.store"] and not _within(names[0], ALLOWED["cuelog.replay"] | {"cuelog.replay"})
