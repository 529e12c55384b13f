"""The replay past one machine: loaded matches as a Parquet dataset, replayed partition by
partition by Dask tasks, the results written as Parquet in the same layout.

``layout``: the dataset's shape (hive partitions by a stable hash of the match id) and the
storage it lives on (local paths or fsspec URLs). ``export``: a cuelog database, or logs
loaded on the fly, written as that dataset. ``task``: one partition's replay, a plain
function a worker runs; ``diffs``: one partition's rule makers' diff; ``rules``: a ruleset
sent to the workers as data; ``clocks``: shot clocks kept in the dataset and aligned over
all of it. ``driver``: the Dask side, imported only when a cluster is used
(``pip install 'cuelog[distributed]'``).
"""
