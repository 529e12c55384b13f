"""How many cores a run may use: a module of its own, light to import, for the replay's
worker processes import what chooses their number."""

from __future__ import annotations

import os


def idle_cores(cores: int | None = None, load: float | None = None) -> tuple[int, int]:
    """This machine's cores (or ``cores``) and how many of them other work leaves idle (by
    the one-minute load average, or ``load``)."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if load is None:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float(cores)
    return cores, int(cores - load + 0.5)
