"""How many cores a run may use: a module of its own, light to import, for the replay's
worker processes import what chooses their number.

Idle means idle now. Where the kernel counts how each core spends its time (Linux's
``/proc/stat``), the cores are watched for :data:`SAMPLE_S`, and what this process's own
threads and the processes it started used meanwhile is not counted as other work; elsewhere
the one-minute load average stands in. A command may begin the watch (:class:`Watch`)
before it opens its store, so that the watch runs while it works rather than holding it
up. The load average trails the machine by a minute: right after a command that kept one
core busy it still reads about 1 on two idle cores, so a large ingest or replay started
then ran in one process (benchmarks/README.md, "Idle cores: watched, not averaged").
Those counters and the load average are the host's: a CPU quota of the process's control
group (a container's ``--cpus``) bounds what this process may use of them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SAMPLE_S = 0.1
"""How long the cores are watched: ten of the kernel's ticks (10 ms each) a core, enough to
tell a core another process keeps busy from an idle one."""

STAT = "/proc/stat"


@dataclass(frozen=True, slots=True)
class Sample:
    """The counters at one moment: our cores' time in all and idle (the kernel's ticks, summed
    over the cores), this process's CPU time (every thread, and the processes it started:
    :func:`own_cpu_s`) and the clock, in seconds."""

    cores: int
    total: int
    idle: int
    own_s: float
    at_s: float


def idle_cores(cores: int | None = None, load: float | None = None, watch: Watch | None = None) -> tuple[int, int]:
    """The cores this process may use (or ``cores``) and how many of them other work leaves
    idle: by ``load`` when given (cores' worth of other work), else by watching the cores
    (``watch``, begun earlier, else :func:`busy_cores` now), else by the one-minute load
    average. A CPU quota of the process's control group (a container's ``--cpus``) bounds
    both: the kernel's counters and the load average are the host's, and the quota is what
    this process may have of them."""
    # The load is counted over the cores this process may run on; the quota bounds the rest.
    ours, cores = (len(_ours()), usable_cores()) if cores is None else (cores, cores)
    if load is None:
        load = busy_cores() if watch is None else watch.busy()
    if load is None:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float(ours)
    return cores, min(int(ours - load + 0.5), cores)


def idle_workers(cores: int | None = None, load: float | None = None, watch: Watch | None = None) -> int:
    """One worker process per idle core (:func:`idle_cores`, with the same arguments), or
    one process when fewer than two are idle: a worker on a core other work holds only adds
    its start-up and the copying to and from it. The default of ``cuelog ingest``, ``cuelog
    replay --db`` and ``cuelog replay LOGS`` for a run large enough for workers."""
    _, idle = idle_cores(cores, load, watch)
    return idle if idle >= 2 else 1


def usable_cores() -> int:
    """The cores this process may run on, bounded by its control group's CPU quota: the
    default of the commands that use every core (``cuelog diff``, a local Dask cluster)."""
    cores = len(_ours())
    allowed = quota_cores()
    return cores if allowed is None else min(cores, allowed)


def cores_left(workers: int, cores: int | None = None) -> int:
    """The cores (``cores``, else those this process may use) that ``workers`` busy worker
    processes leave to the rest of this process's work, at least one: DuckDB's threads
    beside them (:func:`cuelog.store.settings.threads_held`). One worker is this process
    itself, working beside its DuckDB threads."""
    return max(1, (usable_cores() if cores is None else cores) - max(1, workers))


CGROUP = "/sys/fs/cgroup"
MEMBERSHIP = "/proc/self/cgroup"


def quota_cores(root: str | None = None, membership: str | None = None) -> int | None:
    """The whole cores a CPU quota allows this process (at least one), the smallest quota of
    its control group and the groups above it (cgroup v2 ``cpu.max``; v1
    ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us``, under ``root``, :data:`CGROUP` by
    default); None without a quota, or where there are no control groups. ``membership``
    is the text of :data:`MEMBERSHIP`, the groups this process is in (read when not given)."""
    base = Path(CGROUP if root is None else root)
    if membership is None:
        try:
            membership = Path(MEMBERSHIP).read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError):
            membership = ""
    found: list[float] = []
    for line in membership.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":  # v2: one hierarchy
            found += _quotas(base, path, lambda d: _v2(d / "cpu.max"))
        elif "cpu" in controllers.split(","):
            mount = base / controllers if (base / controllers).is_dir() else base / "cpu"
            found += _quotas(mount, path, _v1)
    if not found:
        return None
    return max(1, int(min(found)))


def _quotas(mount: Path, path: str, read: Callable[[Path], float | None]) -> list[float]:
    """The quotas (in cores) set on the group ``path`` under ``mount`` and on each group above it."""
    out = []
    here = mount / path.strip("/")
    while True:
        quota = read(here)
        if quota is not None:
            out.append(quota)
        if here == mount or mount not in here.parents:
            return out
        here = here.parent


def _v2(path: Path) -> float | None:
    """``cpu.max``: ``max PERIOD`` (no quota) or ``QUOTA PERIOD`` in microseconds."""
    try:
        quota, period = path.read_text(encoding="ascii").split()[:2]
        if quota == "max":
            return None
        cap, every = int(quota), int(period)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return None if cap <= 0 or every <= 0 else cap / every


def _v1(group: Path) -> float | None:
    """``cpu.cfs_quota_us`` (-1: no quota) over ``cpu.cfs_period_us``."""
    try:
        quota = int((group / "cpu.cfs_quota_us").read_text(encoding="ascii"))
        period = int((group / "cpu.cfs_period_us").read_text(encoding="ascii"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return None if quota <= 0 or period <= 0 else quota / period


def busy_cores(seconds: float = SAMPLE_S) -> float | None:
    """How many of our cores other processes keep busy, watched for ``seconds``; None where
    the kernel does not count it (no ``/proc/stat``)."""
    return Watch().busy(seconds)


class Watch:
    """The cores watched from its making on: :meth:`busy` reads what other work kept busy
    since. Begun before a command opens its store and lists its work, the watch has
    mostly run its :data:`SAMPLE_S` by the time the command asks, where watching then held
    the command up for all of it (benchmarks/README.md, "The workers' server started
    while the command opens its store")."""

    __slots__ = ("_start",)

    def __init__(self) -> None:
        self._start = sample()

    def busy(self, seconds: float = SAMPLE_S) -> float | None:
        """How many of our cores other processes kept busy since the watch began, waiting
        first until it has run ``seconds``; None where the kernel does not count it."""
        start = self._start
        if start is None:
            return None
        time.sleep(max(0.0, start.at_s + seconds - time.monotonic()))
        after = sample()
        return None if after is None else others_busy(start, after)


def others_busy(before: Sample, after: Sample) -> float:
    """The cores' worth of work between two samples that was not this process's: the busy
    share of the cores' ticks times the cores, less this process's CPU time over the time
    between (ingest pairs the shot clocks on a thread of its own while it decides; the
    workers' server may be starting)."""
    ticks = after.total - before.total
    elapsed = after.at_s - before.at_s
    if ticks <= 0 or elapsed <= 0:
        return 0.0
    busy = (ticks - (after.idle - before.idle)) / ticks * after.cores
    own = (after.own_s - before.own_s) / elapsed
    return max(0.0, busy - own)


def sample(path: str | None = None) -> Sample | None:
    """Our cores' counters now (the ``cpuN`` lines of ``path``, :data:`STAT` by default, for
    the cores this process may run on), or None when there is no such file or it holds none."""
    ours = {f"cpu{n}" for n in _ours()}
    total = idle = cores = 0
    try:
        with open(STAT if path is None else path, encoding="ascii") as fh:
            for line in fh:
                fields = line.split()
                if not fields or fields[0] not in ours:
                    continue
                # user nice system idle iowait irq softirq steal (guest time is within user)
                ticks = [int(x) for x in fields[1:9]]
                total += sum(ticks)
                idle += ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
                cores += 1
    except (OSError, ValueError):
        return None
    if not cores:
        return None
    return Sample(cores, total, idle, own_cpu_s(), time.monotonic())


_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 0.01


def own_cpu_s() -> float:
    """CPU seconds of this process (every thread) and of the processes it started: those it
    has waited for, and those still running as ``/proc`` counts them (a workers' fork
    server importing its modules while the cores are watched is this command's work, not
    other work that would keep it to one process)."""
    own = time.process_time()
    try:
        import resource  # POSIX only; this runs only where /proc/stat was read

        own += sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2])
    except (ImportError, OSError):
        return own
    return own + sum(_cpu_s(pid) for pid in _children())


def _children() -> list[int]:
    """The processes this one started that are still running (each thread lists its own)."""
    found: list[int] = []
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children", encoding="ascii") as fh:
                found += [int(pid) for pid in fh.read().split()]
    except (OSError, ValueError):
        return found
    return found


def _cpu_s(pid: int) -> float:
    """A process's CPU seconds and those of the processes it waited for (``/proc/PID/stat``:
    utime, stime, cutime, cstime), 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return sum(int(x) for x in fields[11:15]) * _TICK_S
    except (OSError, ValueError, IndexError):
        return 0.0


def _ours() -> set[int]:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return set(os.sched_getaffinity(0))
    return set(range(os.cpu_count() or 1))
