"""cuelog: audit and statistics for cue sports.

Reads cuelog/1 stroke logs, loads them into DuckDB, replays every stroke through the
official rules and reports what the officials got wrong, plus the statistics analysts
want.
"""

__version__ = "0.1.0"
