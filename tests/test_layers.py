"""The import contract: the layers of cuelog point one way (docs/architecture.md).

From the bottom: the record types and the ruleset registry (``cuelog.schemas``); the rules
engines (``cuelog.replay``: only the schemas and the standard library); ingest and the
store; the pipeline that replays the database; the simulator and analytics; the commands
on top. Every module under ``cuelog/`` belongs to exactly one named layer, and each layer
lists what of cuelog it may import; a module in no layer fails. Every import in every
module is read from its source (imports inside functions too), so a lazy import cannot
slip past. Only the store (and the cluster's Parquet side) runs SQL.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cuelog"


@dataclass(frozen=True)
class Layer:
    """A named layer: its members and what of cuelog it may import besides itself.

    A name ending in ``.*`` stands for a package and every module under it; any other
    name is that one module (``cuelog`` is the package root, its ``__version__``, only).
    """

    level: int
    members: tuple[str, ...]
    may_import: tuple[str, ...] = ()


LAYERS: dict[str, Layer] = {
    # 0: the record types, the ruleset registry, the DDL; the error types; the version.
    "version": Layer(0, ("cuelog",)),
    "errors": Layer(0, ("cuelog.errors",)),
    "schemas": Layer(0, ("cuelog.schemas.*",)),
    # 1: the engines, pure folds over the records.
    "engines": Layer(1, ("cuelog.replay.*",), ("cuelog.schemas.*",)),
    # 2: the store (replay.model: the result types it writes); 3: ingest, which loads into it.
    "store": Layer(2, ("cuelog.store.*",), ("cuelog.schemas.*", "cuelog.errors", "cuelog.replay.model")),
    "ingest": Layer(3, ("cuelog.ingest.*",), ("cuelog.schemas.*", "cuelog.errors", "cuelog.store.*")),
    # 4: what replays: the database pipeline, the simulator (its oracle is the engines; it
    # reads back what it wrote; its workers start as every pool's), ruleset files (a
    # derivation is checked against the engines' editions), cuelog watch (the engines'
    # fold over a followed file; no store).
    "pipeline": Layer(
        4,
        ("cuelog.pipeline",),
        ("cuelog.schemas.*", "cuelog.errors", "cuelog.replay.*", "cuelog.ingest.*", "cuelog.store.*"),
    ),
    "simulate": Layer(
        4,
        ("cuelog.simulate.*",),
        ("cuelog.schemas.*", "cuelog.errors", "cuelog.replay.*", "cuelog.ingest.reader", "cuelog.ingest.processes"),
    ),
    "rulesfile": Layer(4, ("cuelog.rulesfile",), ("cuelog.schemas.*", "cuelog.errors", "cuelog.replay.*")),
    # The replay of log files (`cuelog replay LOGS`): the engines over what the reader reads; no store.
    "logreplay": Layer(
        4, ("cuelog.logreplay",), ("cuelog.schemas.*", "cuelog.errors", "cuelog.replay.*", "cuelog.ingest.*")
    ),
    "live": Layer(4, ("cuelog.live.*",), ("cuelog.schemas.*", "cuelog.errors", "cuelog.replay.*", "cuelog.ingest.*")),
    # 5: over the store and the pipeline: the reports (replay.model and replay.output: the
    # result types the audit report and the replay's human text render, and their words),
    # the rule makers' diff (the database replayed twice).
    "analytics": Layer(
        5,
        ("cuelog.analytics.*",),
        ("cuelog.schemas.*", "cuelog.errors", "cuelog.store.*", "cuelog.replay.model", "cuelog.replay.output"),
    ),
    "diff": Layer(
        5,
        ("cuelog.diff",),
        (
            "cuelog.schemas.*",
            "cuelog.errors",
            "cuelog.replay.*",
            "cuelog.store.*",
            "cuelog.pipeline",
            "cuelog.ingest.cores",  # how many cores it may use, as the pipeline counts them
            "cuelog.ingest.processes",  # how its workers start, as the pipeline's do
        ),
    ),
    # 6: the replay past one machine: its Parquet dataset is the cluster's store, its tasks
    # reuse the pipeline's rows and the diff's comparison as they are.
    "distributed": Layer(
        6,
        ("cuelog.distributed.*",),
        (
            "cuelog.schemas.*",
            "cuelog.errors",
            "cuelog.replay.*",
            "cuelog.ingest.*",
            "cuelog.store.*",
            "cuelog.pipeline",
            "cuelog.diff",
        ),
    ),
    # 7: the commands, and `python -m cuelog`.
    "commands": Layer(
        7,
        ("cuelog.cli.*", "cuelog.__main__"),
        (
            "cuelog",
            "cuelog.errors",
            "cuelog.schemas.*",
            "cuelog.replay.*",
            "cuelog.store.*",
            "cuelog.ingest.*",
            "cuelog.pipeline",
            "cuelog.logreplay",
            "cuelog.simulate.*",
            "cuelog.rulesfile",
            "cuelog.live.*",
            "cuelog.analytics.*",
            "cuelog.diff",
            "cuelog.distributed.*",
        ),
    ),
}

# Third-party packages the engines and the record types may use besides the standard
# library: msgspec is the record types' own (immutable structs decoded from JSON).
PURE_LAYERS = ("schemas", "engines")
PURE_EXTRA = frozenset({"msgspec"})

# Only these run SQL: every query is a named read or write of the store
# (cuelog/store/reads.py, results.py, loads.py), so analytics and the commands never do.
# The cluster's export and views read the store into Parquet and query that dataset; the
# shot-clock pairing uses DuckDB's window functions over temp tables of its own, a
# computation that neither reads nor writes the store's tables.
SQL_MODULES = ("cuelog.store.*", "cuelog.distributed.*", "cuelog.ingest.clockdb")
SQL_CALLS = frozenset(
    {"execute", "executemany", "sql", "query", "fetchall", "fetchone", "fetchmany", "fetch_arrow_table"}
)


def _covers(entry: str, module: str) -> bool:
    """Whether a layer entry (``pkg.*`` or a module) names ``module``."""
    if entry.endswith(".*"):
        package = entry[:-2]
        return module == package or module.startswith(package + ".")
    return module == entry


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


SOURCES = sorted(PACKAGE.rglob("*.py"))
MODULES = frozenset(_module_name(p) for p in SOURCES)


def _layers_of(module: str) -> list[str]:
    return [name for name, layer in LAYERS.items() if any(_covers(m, module) for m in layer.members)]


def _layer(module: str) -> str:
    """The one layer of a module; an unlisted module (or one listed twice) is an error."""
    found = _layers_of(module)
    if len(found) != 1:
        raise LookupError(f"{module} belongs to {found or 'no layer'}: name its layer in tests/test_layers.py")
    return found[0]


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module an import statement of the file names, with its line."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return _named(path.read_text(encoding="utf-8"), package)


def _named(source: str, package: str) -> list[tuple[int, str]]:
    """The modules the import statements of ``source`` (a module of ``package``) name;
    ``from cuelog import diff`` names the module ``cuelog.diff``."""
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
            submodules = [f"{name}.{a.name}" for a in node.names if f"{name}.{a.name}" in MODULES]
            found.extend((node.lineno, s) for s in submodules)
            if len(submodules) < len(node.names):
                found.append((node.lineno, name))
    return found


def _sql_calls(source: str) -> list[tuple[int, str]]:
    """Calls of a database connection's query methods (``con.execute(...)``, ``.sql(...)``)."""
    return [
        (node.lineno, node.func.attr)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS
    ]


def _ids(p: Path) -> str:
    return str(p.relative_to(PACKAGE.parent))


def test_every_module_belongs_to_one_named_layer() -> None:
    orphans = []
    for module in sorted(MODULES):
        try:
            _layer(module)
        except LookupError as exc:
            orphans.append(str(exc))
    assert orphans == []


def test_a_module_in_no_layer_is_refused() -> None:
    """No catch-all: a new module under cuelog/ must be given its layer."""
    with pytest.raises(LookupError, match=r"cuelog\.newthing belongs to no layer"):
        _layer("cuelog.newthing")
    assert _layer("cuelog") == "version" and _layer("cuelog.replay.pool.nineball") == "engines"


def test_the_layers_point_down() -> None:
    """What each layer may import is in a lower layer: the table itself has no arrow going up."""
    wrong = []
    for name, layer in LAYERS.items():
        for entry in layer.may_import:
            target = _layer(entry.removesuffix(".*"))
            if LAYERS[target].level >= layer.level:
                wrong.append(
                    f"{name} (level {layer.level}) may import {entry} of {target} (level {LAYERS[target].level})"
                )
    assert wrong == []


@pytest.mark.parametrize("path", SOURCES, ids=_ids)
def test_imports_point_down(path: Path) -> None:
    """A module imports only its own layer and what its layer lists."""
    layer = _layer(_module_name(path))
    allowed = (*LAYERS[layer].members, *LAYERS[layer].may_import)
    wrong = [
        f"{_ids(path)}:{line} imports {name}"
        for line, name in _imports(path)
        if name.split(".")[0] == "cuelog" and not any(_covers(entry, name) for entry in allowed)
    ]
    assert wrong == []


@pytest.mark.parametrize("path", [p for p in SOURCES if _layer(_module_name(p)) in PURE_LAYERS], ids=_ids)
def test_engines_and_schemas_import_only_the_standard_library(path: Path) -> None:
    """The engines do no I/O and know no database: no duckdb, polars, pyarrow (DESIGN.md)."""
    wrong = [
        f"{_ids(path)}:{line} imports {name}"
        for line, name in _imports(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and name.split(".")[0] not in PURE_EXTRA
        and name.split(".")[0] != "cuelog"
        and name != "__future__"
    ]
    assert wrong == []


@pytest.mark.parametrize(
    "path", [p for p in SOURCES if not any(_covers(m, _module_name(p)) for m in SQL_MODULES)], ids=_ids
)
def test_only_the_store_runs_sql(path: Path) -> None:
    """Analytics, the commands, the pipeline, the simulator: every query is a named read or
    write of cuelog/store, never SQL of their own."""
    calls = [f"{_ids(path)}:{line} calls .{name}()" for line, name in _sql_calls(path.read_text(encoding="utf-8"))]
    assert calls == []


def test_the_contract_catches_an_arrow_going_back() -> None:
    """The checker itself: ingest importing the engines' registry (as it once did), an
    engine reaching for the store through a relative import, a command importing a
    module of the root package that its layer does not list, or analytics running its own
    query, is refused."""
    ingest = (*LAYERS["ingest"].members, *LAYERS["ingest"].may_import)
    names = [name for _, name in _named("def f():\n    from cuelog.replay.rulesets import RULESETS\n", "cuelog.ingest")]
    assert names == ["cuelog.replay.rulesets"] and not any(_covers(e, names[0]) for e in ingest)
    engines = (*LAYERS["engines"].members, *LAYERS["engines"].may_import)
    names = [name for _, name in _named("from ..store import connect\n", "cuelog.replay")]
    assert names == ["cuelog.store"] and not any(_covers(e, names[0]) for e in engines)
    # `from cuelog import diff` names the module, not the root: the root entry allows only the version.
    names = [name for _, name in _named("from cuelog import __version__, diff\n", "cuelog.analytics")]
    assert names == ["cuelog.diff", "cuelog"]
    analytics = (*LAYERS["analytics"].members, *LAYERS["analytics"].may_import)
    assert not any(_covers(e, "cuelog.diff") for e in analytics)
    assert _sql_calls("def f(con):\n    return con.sql('SELECT 1').to_arrow_table()\n") == [(2, "sql")]
