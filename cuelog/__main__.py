"""``python -m cuelog`` and the ``cuelog`` command (pyproject's entry point).

Light on purpose: every worker of a process pool (``replay --db``'s, ingest's), forked
from a fork server or spawned, runs the command's script again as it starts, so the
script must not import the command line (Typer, Polars, matplotlib: about a second of CPU
per worker); the command line is imported only when the command runs.
"""


def main() -> None:
    """Run the ``cuelog`` command."""
    from cuelog.cli import main as run

    run()


if __name__ == "__main__":
    main()
