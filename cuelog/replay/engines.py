"""Every engine module checked against the one protocol by the type checker.

mypy reads a module as an implementation of a protocol (PEP 544): each engine assigned to
:class:`~cuelog.replay.engine.Engine` below must have ``editions``, ``new_frame``,
``apply``, ``finish`` and ``replay_frame`` with the protocol's parameters, or ``mypy``
fails (``tests/test_engine_protocol.py`` checks that every registered engine is listed).
At run time nothing is imported: the registry finds engines by module path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cuelog.replay import billiards, snooker
    from cuelog.replay.engine import Engine
    from cuelog.replay.pool import eightball, nineball, straight_pool

    _snooker: Engine = snooker
    _billiards: Engine = billiards
    _eightball: Engine = eightball
    _nineball: Engine = nineball
    _straight_pool: Engine = straight_pool
