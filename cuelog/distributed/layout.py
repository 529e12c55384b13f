"""The shape of a cuelog Parquet dataset, and the storage it lives on.

A dataset is a directory (a local path or an fsspec URL such as ``s3://bucket/archive``)::

    _cuelog.json                          what the dataset is: format, kind, partitions
                                          ("complete": false while a write is under way)
    <table>/part=<hex>/<name>.parquet     hive layout, one directory per partition
    clock_shots/<digest>.parquet          a loaded dataset's kept shot-clock logs (``clocks``)

A match belongs to partition ``sha1(match id) mod P`` (the first eight bytes of the digest,
big-endian): the same on every machine and every Python, unlike ``hash()``, so the loaded
records and the replay results of a match always land in the same partition.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby, pairwise
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from cuelog.errors import CuelogError

FORMAT = "cuelog-parquet/1"
MANIFEST = "_cuelog.json"
LOADED = "loaded"
RESULTS = "results"
LOADED_TABLES = ("matches", "records", "strokes", "shot_clock")
"""The tables of a loaded dataset (``cuelog export``, ``cuelog ingest --parquet``)."""
DEFAULT_PARTITIONS = 32
MAX_PARTITIONS = 1 << 16
"""Partition names are four hex digits."""


class DatasetError(CuelogError):
    """A path is not a usable cuelog Parquet dataset (missing, wrong kind, unreadable). Exit code 2."""


class MissingExtra(CuelogError):
    """An optional dependency is not installed."""


def partition_of(match_id: str, partitions: int) -> int:
    """The partition of a match: a stable hash of its id, the same on every machine."""
    digest = hashlib.sha1(match_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % partitions


def by_partition(batches: Iterable[pa.RecordBatch]) -> Iterator[tuple[int, pa.Table]]:
    """Rows in partition order (a ``part`` column, as a query ordered by it streams them),
    one table per partition without that column, a partition at a time."""
    pieces = (piece for batch in batches for piece in _cut_by_part(batch))
    for part, group in groupby(pieces, key=lambda b: int(b.column("part")[0].as_py())):
        yield part, pa.Table.from_batches(list(group)).drop_columns(["part"])


def _cut_by_part(batch: pa.RecordBatch) -> list[pa.RecordBatch]:
    """A batch in partition order cut where the partition changes."""
    parts = batch.column("part")
    if not len(parts):
        return []
    changes = pc.indices_nonzero(pc.not_equal(parts.slice(1), parts.slice(0, len(parts) - 1))).to_pylist()
    cuts = [0, *(i + 1 for i in changes), len(parts)]
    return [batch.slice(lo, hi - lo) for lo, hi in pairwise(cuts)]


def part_name(part: int) -> str:
    """The hive directory name of a partition: ``part=001f``."""
    return f"part={part:04x}"


def parse_part(name: str) -> int | None:
    """The partition number of a directory name, None when it is not a partition directory."""
    if not name.startswith("part=") or len(name) != 9:
        return None
    try:
        return int(name[5:], 16)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Storage:
    """A dataset root on a pyarrow filesystem: local, or any fsspec filesystem the workers share."""

    fs: pafs.FileSystem
    root: str
    url: str

    @classmethod
    def open(cls, url: str) -> Storage:
        """The storage behind a local path or an fsspec URL (``s3://``, ``gcs://``, ``file://``...)."""
        if "://" not in url:
            return cls(pafs.LocalFileSystem(), os.path.abspath(url), url)
        try:
            import fsspec
        except ImportError:
            raise MissingExtra(
                f"{url}: URLs need fsspec; install it with `pip install 'cuelog[distributed]'`"
            ) from None
        try:
            fs, root = fsspec.core.url_to_fs(url)
        except (ImportError, ValueError) as exc:
            raise DatasetError(f"{url}: cannot open this storage: {exc}") from None
        return cls(pafs.PyFileSystem(pafs.FSSpecHandler(fs)), root.rstrip("/"), url)

    def path(self, *parts: str) -> str:
        return "/".join([self.root, *parts])

    def exists(self, *parts: str) -> bool:
        return bool(self.fs.get_file_info(self.path(*parts)).type != pafs.FileType.NotFound)

    def listdir(self, *parts: str) -> list[str]:
        """Names in a directory, sorted; empty when it does not exist."""
        info = self.fs.get_file_info(pafs.FileSelector(self.path(*parts), allow_not_found=True))
        return sorted(i.base_name for i in info)

    def read_json(self, *parts: str) -> Any:
        with self.fs.open_input_stream(self.path(*parts)) as f:
            return json.loads(f.read().decode("utf-8"))

    def write_bytes(self, data: bytes, *parts: str) -> None:
        """Write a file whole: to a temporary name first, then renamed, so a reader never sees half."""
        *dirs, name = parts
        self.fs.create_dir(self.path(*dirs), recursive=True)
        tmp = self.path(*dirs, f".{name}.{os.getpid()}.tmp")
        with self.fs.open_output_stream(tmp) as f:
            f.write(data)
        self.fs.move(tmp, self.path(*parts))

    def clear_temporary(self, *parts: str) -> None:
        """Remove the temporary files a writer that died left in a directory (``write_bytes``)."""
        for name in self.listdir(*parts):
            if name.startswith(".") and name.endswith(".tmp"):
                self.delete_file(*parts, name)

    def write_table(self, table: pa.Table, *parts: str) -> None:
        """Write a Parquet file; the same table gives the same bytes."""
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd", row_group_size=1 << 20)
        self.write_bytes(sink.getvalue().to_pybytes(), *parts)

    def read_table(self, *parts: str) -> pa.Table:
        return pq.read_table(self.path(*parts), filesystem=self.fs)

    def read_schema(self, *parts: str) -> pa.Schema:
        """A Parquet file's schema with its metadata, from its footer alone."""
        return pq.read_schema(self.path(*parts), filesystem=self.fs)

    def delete_file(self, *parts: str) -> None:
        if self.exists(*parts):
            self.fs.delete_file(self.path(*parts))

    def delete_dir(self, *parts: str) -> None:
        if self.exists(*parts):
            self.fs.delete_dir(self.path(*parts))


def write_manifest(storage: Storage, kind: str, partitions: int, extra: dict[str, Any] | None = None) -> None:
    """Say what the dataset is; ``extra`` adds fields (the ruleset a results dataset was replayed under)."""
    doc = {"format": FORMAT, "kind": kind, "partitions": partitions, "hash": "sha1(match_id)[0:8] big-endian mod P"}
    doc.update(extra or {})
    storage.write_bytes((json.dumps(doc, indent=1, default=str) + "\n").encode("utf-8"), MANIFEST)


def read_manifest(storage: Storage, kind: str, *, unfinished_ok: bool = False) -> int:
    """The partition count of a dataset of ``kind``; DatasetError when the path is not one, or
    (unless ``unfinished_ok``: a write going on again) when a write into it did not finish."""
    if not storage.exists(MANIFEST):
        raise DatasetError(
            f"{storage.url}: not a cuelog Parquet dataset (no {MANIFEST}); write one with `cuelog export`"
        )
    try:
        doc = storage.read_json(MANIFEST)
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{storage.path(MANIFEST)}: unreadable: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise DatasetError(f"{storage.path(MANIFEST)}: field 'format': expected {FORMAT!r}")
    if doc.get("kind") != kind:
        raise DatasetError(f"{storage.path(MANIFEST)}: field 'kind': found {doc.get('kind')!r}, expected {kind!r}")
    parts = doc.get("partitions")
    if not isinstance(parts, int) or not 1 <= parts <= MAX_PARTITIONS:
        raise DatasetError(f"{storage.path(MANIFEST)}: field 'partitions': expected 1..{MAX_PARTITIONS}")
    if doc.get("complete") is False and not unfinished_ok:
        raise DatasetError(
            f"{storage.url}: an export or ingest into this dataset did not finish, so it may hold part of it; "
            "run that command again (it completes the dataset), or export with --overwrite"
        )
    return parts


def finished(storage: Storage) -> bool:
    """Whether every write into the dataset finished (a new dataset: nothing written yet)."""
    if not storage.exists(MANIFEST):
        return True
    try:
        doc = storage.read_json(MANIFEST)
    except (OSError, ValueError):
        return False
    return not (isinstance(doc, dict) and doc.get("complete") is False)


@contextlib.contextmanager
def writing(storage: Storage, kind: str, partitions: int) -> Iterator[None]:
    """Mark the dataset unfinished while it is written, complete once every file is in place:
    a reader never takes a half-written dataset for a whole one (a write that stops midway
    leaves the mark, and running it again finishes the dataset)."""
    write_manifest(storage, kind, partitions, {"complete": False})
    yield
    write_manifest(storage, kind, partitions)


def partitions_present(storage: Storage, table: str = "matches") -> list[int]:
    """The partitions holding data of ``table``, in order."""
    found = (parse_part(name) for name in storage.listdir(table))
    return sorted(p for p in found if p is not None)


REQUIRED = {
    "matches": ("match_id", "rules", "path"),
    "records": ("match_id", "seq", "line", "body"),
    "shot_clock": ("match_id", "frame", "n", "shot_s", "paused_s", "limit_s", "source"),
}
"""The columns the replay reads from each loaded table."""


def read_partition(storage: Storage, table: str, part: int, names: Sequence[str] | None = None) -> pa.Table | None:
    """Every file of one table's partition (or the files ``names``), concatenated in file-name
    order (None: no file). Raises DatasetError naming the file that cannot be read or lacks a column."""
    if names is None:
        names = [n for n in storage.listdir(table, part_name(part)) if n.endswith(".parquet")]
    tables = []
    for name in names:
        where = storage.path(table, part_name(part), name)
        try:
            tables.append(storage.read_table(table, part_name(part), name))
        except (OSError, pa.ArrowException) as exc:
            raise DatasetError(f"{where}: not a readable Parquet file: {exc}") from None
        missing = [c for c in REQUIRED.get(table, ()) if c not in tables[-1].column_names]
        if missing:
            raise DatasetError(f"{where}: column {missing[0]!r} missing; expected columns {', '.join(REQUIRED[table])}")
    if not tables:
        return None
    try:
        return pa.concat_tables(tables, promote_options="default")
    except pa.ArrowException as exc:
        raise DatasetError(f"{storage.path(table, part_name(part))}: files of different columns: {exc}") from None


CLOCKS_FILE = "clocks.parquet"
"""In ``shot_clock/part=.../``: the shot clocks the dataset keeps (``clock_shots/``, written by
``cuelog ingest --parquet``), aligned over every stroke of the dataset."""


def read_clock(storage: Storage, part: int) -> pa.Table | None:
    """The shot clock of a partition's strokes: the exports' rows (times in the logs, clocks
    aligned in a database), where the kept clocks aligned over the whole dataset place no
    reading of their own; a stroke's latest reading wins, as in a database."""
    names = [n for n in storage.listdir("shot_clock", part_name(part)) if n.endswith(".parquet")]
    exported = read_partition(storage, "shot_clock", part, [n for n in names if n != CLOCKS_FILE])
    if CLOCKS_FILE not in names:
        return exported
    aligned = read_partition(storage, "shot_clock", part, [CLOCKS_FILE])
    assert aligned is not None
    if exported is None:
        return aligned
    cols = ("match_id", "frame", "n")
    taken = set(zip(*(aligned.column(c).to_pylist() for c in cols), strict=True))
    keep = [k not in taken for k in zip(*(exported.column(c).to_pylist() for c in cols), strict=True)]
    rest = exported.filter(pa.array(keep, type=pa.bool_())).select(aligned.column_names)
    return pa.concat_tables([rest.cast(aligned.schema), aligned])
