"""``python -m cuelog`` and the ``cuelog`` command (pyproject's entry point).

Light on purpose: every worker of a process pool (``replay --db``'s, ingest's), forked
from a fork server or spawned, runs the command's script again as it starts, so the
script must not import the command line (Typer, Polars, matplotlib: about a second of CPU
per worker); the command line is imported only when the command runs.
"""

import os


def main() -> None:
    """Run the ``cuelog`` command."""
    # numpy, which pyarrow imports, starts OpenBLAS's pool of a thread a further core, and
    # its threads spin a while with nothing to do: about 0.12 CPU s in each process that
    # imports it (the command's, its fork server's), taken on two cores from DuckDB's second
    # thread or a worker. cuelog does no linear algebra. A setting of the user's stands; the
    # fork server and the workers inherit this one.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from cuelog.cli import main as run

    run()


if __name__ == "__main__":
    main()
