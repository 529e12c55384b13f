"""Idle cores, as the worker defaults of ``cuelog ingest`` and ``cuelog replay --db`` count
them (cuelog/ingest/cores.py): the cores watched now, this process's own threads not
counted as other work; the one-minute load average only where the kernel counts nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cuelog import pipeline
from cuelog.ingest import cores, workers

LINUX = Path("/proc/stat").exists()


def _stat(path: Path, busy: dict[int, int], idle: dict[int, int]) -> None:
    """A ``/proc/stat`` as the kernel writes it: the machine's line, one line per core
    (user nice system idle iowait irq softirq steal guest guest_nice), the rest."""
    ours = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    lines = [f"cpu  {sum(busy.values())} 0 0 {sum(idle.values())} 0 0 0 0 0 0"]
    lines += [f"cpu{n} {busy.get(n, 0)} 0 0 {idle.get(n, 0)} 0 0 0 0 0 0" for n in ours]
    lines += [f"cpu{max(ours) + 1} 999999 0 0 0 0 0 0 0 0 0", "intr 12345 0 0", "ctxt 999", "btime 1700000000"]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


@pytest.fixture
def watched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The cores as a ``/proc/stat`` this test writes, with no CPU quota: ``during(busy_per_core)``
    sets how many of the 10 ticks of the watch each core spent on other work."""
    stat = tmp_path / "stat"
    ours = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    monkeypatch.setattr(cores, "STAT", str(stat))
    (tmp_path / "no-groups").write_text("", encoding="ascii")  # no CPU quota, whatever the machine has
    monkeypatch.setattr(cores, "MEMBERSHIP", str(tmp_path / "no-groups"))
    asleep = time.sleep
    # A machine that was busy a minute ago: the load average still says so.
    monkeypatch.setattr(os, "getloadavg", lambda: (float(len(ours)), 1.0, 1.0))

    busy, idle = dict.fromkeys(ours, 1000), dict.fromkeys(ours, 5000)
    _stat(stat, busy, idle)

    def during(per_core: list[int]) -> None:
        def watch(seconds: float) -> None:  # the watch: each core's ticks move on by ten
            asleep(seconds)
            for i, n in enumerate(ours):
                busy[n] += per_core[i]
                idle[n] += 10 - per_core[i]
            _stat(stat, busy, idle)

        monkeypatch.setattr(cores.time, "sleep", watch)

    return during, len(ours)


def test_idle_cores_are_the_cores_idle_now_not_a_minute_ago(watched) -> None:
    during, n = watched
    during([0] * n)  # every core idle now, the load average still high
    assert cores.idle_cores() == (n, n)
    assert pipeline.default_workers(pipeline.PARALLEL_FROM * 4) == (n if n >= 2 else 1)


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2, reason="two cores")
def test_a_core_other_work_keeps_busy_is_not_idle(watched) -> None:
    during, n = watched
    during([10] + [0] * (n - 1))  # one core all the watch long
    assert cores.idle_cores() == (n, n - 1)
    during([10, 10] + [0] * (n - 2))
    assert cores.idle_cores() == (n, n - 2)
    assert pipeline.default_workers(pipeline.PARALLEL_FROM * 4) == (n - 2 if n - 2 >= 2 else 1)


def test_a_large_ingest_watches_the_cores_and_a_small_one_does_not(
    watched, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    during, n = watched
    log = tmp_path / "a.jsonl"
    log.write_bytes(b"{}\n" * 10)
    during([0] * n)
    assert workers.default_workers([log]) == 1  # 30 bytes: workers cost more than they save
    monkeypatch.setattr(workers, "PARALLEL_BYTES", 30)
    assert workers.default_workers([log]) == (n if n >= 2 else 1)


def test_only_the_cores_this_process_may_run_on_are_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stat = tmp_path / "stat"
    ours = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    _stat(stat, {n: 7 for n in ours}, {n: 3 for n in ours})
    got = cores.sample(str(stat))
    assert got is not None
    # The machine's line and a core beyond ours (999,999 busy ticks) are not counted.
    assert (got.cores, got.total, got.idle) == (len(ours), 10 * len(ours), 3 * len(ours))
    (tmp_path / "none").write_text("intr 1\n", encoding="ascii")
    assert cores.sample(str(tmp_path / "none")) is None
    assert cores.sample(str(tmp_path / "missing")) is None


def _after(total: int, idle: int, own_s: float) -> cores.Sample:
    """Two cores' counters 0.1 s after :data:`_BEFORE`."""
    return cores.Sample(cores=2, total=total, idle=idle, own_s=own_s, at_s=0.1)


_BEFORE = cores.Sample(cores=2, total=0, idle=0, own_s=0.0, at_s=0.0)


def test_this_process_s_own_threads_are_not_other_work() -> None:
    # Two cores, 20 ticks: 10 busy. Over the same 0.1 s this process used 0.1 s of CPU (a
    # thread pairing shot clocks): one core's worth, its own, so no other work.
    assert cores.others_busy(_BEFORE, _after(total=20, idle=10, own_s=0.1)) == pytest.approx(0.0)
    assert cores.others_busy(_BEFORE, _after(total=20, idle=10, own_s=0.0)) == pytest.approx(1.0)
    assert cores.others_busy(_BEFORE, _after(total=20, idle=0, own_s=0.05)) == pytest.approx(1.5)
    assert cores.others_busy(_BEFORE, _after(total=0, idle=0, own_s=0.0)) == 0.0  # no tick yet: nothing seen


def _spinning_elsewhere() -> int:
    """A process spinning that this one did not start (its parent, started here, starts it
    and exits at once): other work. Its pid."""
    spin = (
        "import subprocess, sys; print(subprocess.Popen([sys.executable, '-c', 'while True: pass'],"
        " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).pid)"
    )
    done = subprocess.run([sys.executable, "-c", spin], capture_output=True, text=True, check=True)
    return int(done.stdout)


@pytest.mark.skipif(not LINUX, reason="the kernel's counters (/proc/stat)")
def test_another_process_spinning_is_seen_busy() -> None:
    pid = _spinning_elsewhere()
    try:
        time.sleep(0.3)
        assert (cores.busy_cores(0.3) or 0.0) >= 0.5
    finally:
        os.kill(pid, 9)


@pytest.mark.skipif(
    not Path(f"/proc/self/task/{os.getpid()}/children").exists(), reason="the kernel's list of a thread's children"
)
def test_a_process_this_one_started_is_its_own_work_not_other_work() -> None:
    """The workers' server, started while the cores are watched (replay --db, replay LOGS,
    validate), imports its modules on another core: the command's own work, which must not
    make the cores look busy and keep it to one process."""
    before = cores.own_cpu_s()
    asleep = time.process_time()
    spinning = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.5)
        spun = cores.own_cpu_s() - before - (time.process_time() - asleep)
    finally:
        spinning.kill()
        spinning.wait()
    assert spun >= 0.1  # this process slept: the child's CPU time is counted as its own
    # Once waited for, the child's time stays counted (the kernel adds it to ours).
    assert cores.own_cpu_s() - before >= spun


def test_a_watch_begun_earlier_waits_only_for_what_is_left_of_it(watched, monkeypatch: pytest.MonkeyPatch) -> None:
    during, n = watched
    during([0] * n)
    waited: list[float] = []
    fake = cores.time.sleep
    monkeypatch.setattr(cores.time, "sleep", lambda s: (waited.append(s), fake(s)))
    watch = cores.Watch()  # begun as a command starts opening its store
    threading.Event().wait(0.06)  # the store opening (time.sleep is the watch's, faked)
    assert cores.idle_cores(watch=watch) == (n, n)
    assert len(waited) == 1 and waited[0] <= cores.SAMPLE_S - 0.05
    # Begun just now, the watch still runs for all of it.
    waited.clear()
    assert cores.idle_cores(watch=cores.Watch()) == (n, n)
    assert waited and waited[0] > cores.SAMPLE_S - 0.05


def _group(root: Path, path: str, **files: str) -> None:
    folder = root / path.strip("/")
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name.replace("_", ".", 1)).write_text(text + "\n", encoding="ascii")


def test_a_cpu_quota_bounds_the_cores_cgroup_v2(tmp_path: Path) -> None:
    # A container given one and a half cores (docker --cpus 1.5): one whole core.
    _group(tmp_path, "/", cpu_max="max 100000")
    _group(tmp_path, "/docker/abc", cpu_max="150000 100000")
    assert cores.quota_cores(str(tmp_path), "0::/docker/abc") == 1
    # The quota of a group above counts as well: the smallest one holds.
    _group(tmp_path, "/docker", cpu_max="200000 100000")
    _group(tmp_path, "/docker/abc", cpu_max="max 100000")
    assert cores.quota_cores(str(tmp_path), "0::/docker/abc") == 2
    _group(tmp_path, "/docker", cpu_max="max 100000")
    assert cores.quota_cores(str(tmp_path), "0::/docker/abc") is None
    _group(tmp_path, "/docker", cpu_max="100000 0")  # not a quota the kernel would write
    assert cores.quota_cores(str(tmp_path), "0::/docker/abc") is None
    assert cores.quota_cores(str(tmp_path), "") is None  # no control groups


def test_a_cpu_quota_bounds_the_cores_cgroup_v1(tmp_path: Path) -> None:
    _group(tmp_path, "/cpu", cpu_cfs_quota_us="300000", cpu_cfs_period_us="100000")
    membership = "12:pids:/\n4:cpu,cpuacct:/\n0::/\n"
    assert cores.quota_cores(str(tmp_path), membership) == 3
    _group(tmp_path, "/cpu", cpu_cfs_quota_us="-1", cpu_cfs_period_us="100000")
    assert cores.quota_cores(str(tmp_path), membership) is None


def test_a_container_of_one_core_on_an_idle_host_runs_one_process(
    watched, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    during, n = watched
    during([0] * n)  # the host's cores idle
    groups = tmp_path / "groups"
    _group(groups, "/", cpu_max="100000 100000")
    (tmp_path / "membership").write_text("0::/\n", encoding="ascii")
    monkeypatch.setattr(cores, "CGROUP", str(groups))
    monkeypatch.setattr(cores, "MEMBERSHIP", str(tmp_path / "membership"))
    assert cores.idle_cores() == (1, 1)
    assert pipeline.default_workers(pipeline.PARALLEL_FROM * 4) == 1
    _group(groups, "/", cpu_max="max 100000")
    assert cores.idle_cores() == (n, n)


def test_the_commands_using_every_core_use_the_cores_a_quota_allows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cores usable under a quota: the default number of workers of ``cuelog diff``,
    ``replay_all`` and a local Dask cluster."""
    ours = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    (tmp_path / "membership").write_text("0::/\n", encoding="ascii")
    monkeypatch.setattr(cores, "CGROUP", str(tmp_path))
    monkeypatch.setattr(cores, "MEMBERSHIP", str(tmp_path / "membership"))
    _group(tmp_path, "/", cpu_max="max 100000")
    assert cores.usable_cores() == ours
    _group(tmp_path, "/", cpu_max="100000 100000")
    assert cores.usable_cores() == 1


@pytest.mark.parametrize(
    ("workers", "usable", "left"),
    [(2, 2, 1), (2, 8, 6), (1, 4, 3), (1, 1, 1), (8, 2, 1), (0, 4, 3)],
)
def test_the_cores_workers_leave_are_at_least_one_and_one_worker_is_this_process(
    workers: int, usable: int, left: int
) -> None:
    assert cores.cores_left(workers, usable) == left
