"""What a worker process imports as it starts, and how it starts: forked from a server that
imported the module of the function it runs (spawned where the platform has no fork
server), each worker still runs the ``cuelog`` command's script again, and a spawned one
imports that module too, so both must stay light (issue 16: 2 workers against 1 is
start-up bound at 100k strokes)."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("typer", "rich", "polars", "matplotlib", "duckdb")


def imported_by(code: str) -> set[str]:
    """The heavy modules a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_the_command_script_imports_nothing_heavy_until_it_runs() -> None:
    entry = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["cuelog"]
    module, _, function = entry.partition(":")
    # What the installed script does at import (a spawned worker runs it as __mp_main__).
    assert imported_by(f"from {module} import {function}") == set()


def test_a_replay_worker_imports_no_database_and_no_command_line() -> None:
    assert imported_by("from cuelog.pipeline import _replay_chunk") == set()


def test_an_ingest_worker_checks_logs_without_the_database() -> None:
    """``cuelog ingest``'s workers decode, check and build Arrow rows; the loading process
    alone talks to DuckDB, so a worker must not pay for importing it as it starts."""
    assert imported_by("from cuelog.ingest.parallel import check_batch, check_large") == set()


def test_a_log_replay_worker_makes_the_output_without_the_command_line() -> None:
    """``cuelog replay LOGS`` makes each match's output (JSON or the human text) in the
    worker that replayed it: the renderer it is sent must not bring in Typer or rich."""
    code = (
        "import pickle\n"
        "from cuelog import logreplay\n"
        "from cuelog.analytics import replay_text\n"
        "assert pickle.loads(pickle.dumps(replay_text.human_text)) is replay_text.human_text"
    )
    assert imported_by(code) == set()


def test_the_command_still_runs_from_its_entry_point(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from cuelog.__main__ import main; main()", "rules", "list", "--json"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)


def _parent(_: int) -> int:
    return os.getppid()


def test_workers_fork_from_a_server_holding_their_module_where_the_platform_has_one() -> None:
    """A spawned worker imports its function's module before its first task (a third of a
    CPU second each); forked from a server that imported it once, it starts with it."""
    from cuelog.ingest.parallel import check_batch
    from cuelog.ingest.processes import worker_context, worker_pool

    if "forkserver" in multiprocessing.get_all_start_methods():
        assert worker_context(check_batch).get_start_method() == "forkserver"
        with worker_pool(_parent, 2) as pool:
            parents = set(pool.map(_parent, range(4)))
        assert os.getpid() not in parents  # forked by the server, not by this process
    else:
        assert worker_context(check_batch).get_start_method() == "spawn"


def test_a_forked_worker_finds_the_callers_modules_and_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server starts with its own path; each worker is given the caller's ``sys.path``
    and working directory, as a spawned one is, so a module only the caller can find runs."""
    from cuelog.ingest.processes import worker_pool

    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "cuelog_probe_module.py").write_text(
        "import os\ndef where(_):\n    return os.getcwd()\n", encoding="utf-8"
    )
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    monkeypatch.chdir(tmp_path / "elsewhere")
    import cuelog_probe_module

    with worker_pool(cuelog_probe_module.where, 2) as pool:
        seen = set(pool.map(cuelog_probe_module.where, range(4)))
    assert seen == {str(tmp_path / "elsewhere")}


def test_the_workers_run_the_commands_cuelog_not_one_in_the_working_directory(tmp_path: Path) -> None:
    """Run from a directory holding another ``cuelog`` package (a checkout beside an
    installed cuelog), the workers replay with the command's code: the fork server imports
    their module by the command's path, not the directory's (CPython gh-117378)."""
    marker = tmp_path / "imported-from-the-working-directory"
    here = tmp_path / "checkout"
    (here / "cuelog").mkdir(parents=True)
    (here / "cuelog" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    (tmp_path / "bin").mkdir()
    script = tmp_path / "bin" / "cuelog_command.py"  # as the installed script: its own folder first
    script.write_text(
        "import sys\nfrom cuelog.__main__ import main\nif __name__ == '__main__':\n    sys.exit(main())\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    db = tmp_path / "store.duckdb"

    def cuelog(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, str(script), *args], capture_output=True, text=True, check=False, cwd=here, env=env
        )
        assert done.returncode in (0, 1), done.stderr
        return done.stdout

    cuelog("ingest", str(ROOT / "examples"), "--db", str(db), "--workers", "1")
    assert not marker.exists()
    # The examples' matches in two workers, each forked from the server.
    two = cuelog("replay", "--db", str(db), "--json", "--workers", "2")
    assert not marker.exists()
    assert two == cuelog("replay", "--db", str(db), "--json", "--workers", "1")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods(), reason="a fork server")
def test_a_server_started_before_the_pool_serves_it_and_ends_with_its_block() -> None:
    """``replay --db`` starts the workers' server before it opens its store: the pool made
    later forks its workers from that server, which lasts as long as the block holding it."""
    from multiprocessing import forkserver

    from cuelog.ingest.processes import server_started, worker_pool

    with server_started("cuelog.ingest.cores"):
        server = forkserver._forkserver._forkserver_pid
        assert isinstance(server, int) and _alive(server)
        with worker_pool(_parent, 2) as pool:
            parents = set(pool.map(_parent, range(4)))
        assert parents == {server}
        assert _alive(server)  # the pool is done; the block still holds the server
    assert not _alive(server)


@pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods(), reason="a fork server")
def test_a_server_no_pool_used_is_ended_without_waiting_for_its_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command that started the server and then ran in one process (the cores were busy)
    ends without waiting for the server to finish importing the workers' modules."""
    from cuelog.ingest.processes import server_started

    started, done = tmp_path / "started", tmp_path / "done"
    (tmp_path / "cuelog_slow_probe.py").write_text(
        f"import pathlib, time\npathlib.Path({str(started)!r}).touch()\ntime.sleep(60)\n"
        f"pathlib.Path({str(done)!r}).touch()\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with server_started("cuelog_slow_probe"):
        for _ in range(600):  # the server is importing the module
            if started.exists():
                break
            time.sleep(0.05)
        assert started.exists()
    assert not done.exists()


def test_replay_db_starts_the_server_of_its_workers_module_for_a_store_that_may_want_them(tmp_path: Path) -> None:
    """The server started before the store opens imports the module ``replay --db``'s
    workers run; it is started for a store large enough for workers, or when two or more
    are asked for, and not for a small store, named matches or one worker."""
    from cuelog import pipeline
    from cuelog.cli import replay as command

    assert pipeline._replay_packed.__module__ == command._REPLAY_WORKERS
    small, large = tmp_path / "small.duckdb", tmp_path / "large.duckdb"
    small.write_bytes(b"\0" * 4096)
    with large.open("wb") as fh:
        fh.truncate(command.PARALLEL_STORE_BYTES)  # sparse: its size is what is read
    assert not command._replay_db_may_use_workers(small, [], None)
    assert command._replay_db_may_use_workers(large, [], None)
    assert not command._replay_db_may_use_workers(large, ["m1"], None)
    assert command._replay_db_may_use_workers(small, ["m1"], 2)
    assert not command._replay_db_may_use_workers(large, [], 1)
    assert not command._replay_db_may_use_workers(tmp_path / "missing.duckdb", [], None)


def test_diff_starts_the_server_of_its_workers_module_unless_one_process_will_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``cuelog diff`` takes every usable core: its workers' server is started before the
    store opens, unless one worker is asked for, the machine has one core, or one match
    is named."""
    from cuelog import diff
    from cuelog.cli import diff as command

    assert diff._Chunk.__module__ == command._DIFF_WORKERS
    monkeypatch.setattr(command, "usable_cores", lambda: 2)
    assert command._diff_may_use_workers([], None)
    assert command._diff_may_use_workers(["m1", "m2"], None)
    assert not command._diff_may_use_workers(["m1"], None)
    assert not command._diff_may_use_workers([], 1)
    monkeypatch.setattr(command, "usable_cores", lambda: 1)
    assert not command._diff_may_use_workers([], None)
    assert command._diff_may_use_workers([], 2)
