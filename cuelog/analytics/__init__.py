"""Analytics over the replay results: what analysts and officials read.

- ``results``: replay the matches loaded in a database (in worker processes) and store
  per-stroke outcomes, frame results, breaks and findings in the ``replay_*`` tables;
- ``reports``: player, match and event statistics with Polars over those tables, read
  from DuckDB as Arrow (breaks, billiards averages, misses, shot times);
- ``plots``: matplotlib pictures of the same data; ``export``: Parquet and CSV;
- ``audit``: one match's frames and findings for an official;
- ``audit_report``: the audit report an official reads, prints and files (one HTML page,
  its PDF), drawn by ``report_html`` and quoting the rule book through ``rulebook``.

Nothing here changes what the rules engines decide; every figure comes from their due
calls, not from the recorded ones.
"""
