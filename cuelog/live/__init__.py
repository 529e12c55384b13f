"""Live replay: follow a stroke log as it is written and say each finding at once.

``follow`` reads new complete lines (``tail -f``), ``fold`` keeps each frame's engine
state and applies each record through the engine's pure fold, ``session`` turns records
into messages (findings with what is due and whether they can still be put right,
corrections, due calls, frame results), ``remedy`` holds the rule windows, ``clock``
aligns a shot-clock device log, ``render`` prints, ``run`` is the loop.
"""

from __future__ import annotations

from cuelog.live.run import Summary, watch
from cuelog.live.session import Session

__all__ = ["Session", "Summary", "watch"]
