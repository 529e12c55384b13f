"""Shared test fixtures: paths to the bundled examples and a stroke builder."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EXAMPLE_LOGS = sorted(p for p in EXAMPLES.glob("*.jsonl") if not p.name.endswith(".corrections.jsonl"))
"""The bundled stroke logs (examples/ also holds a shot-clock CSV and officials' corrections)."""


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES
