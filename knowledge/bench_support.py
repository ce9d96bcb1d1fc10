"""What the benchmarks share: bulk loads into a table with HNSW indexes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def hnsw_indexes_rebuilt(cur, *, table: str) -> Iterator[dict[str, float]]:
    """Drop ``table``'s HNSW indexes for a bulk load inside the block and build them once after it (not row by
    row); the yielded dict gets ``load_seconds`` and ``hnsw_build_seconds``."""
    cur.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s AND indexdef ILIKE %s",
                [table, "%using hnsw%"])
    hnsw = cur.fetchall()
    for name, _ in hnsw:
        cur.execute(f'DROP INDEX "{name}"')
    timing: dict[str, float] = {}
    started = time.perf_counter()
    yield timing
    timing["load_seconds"] = time.perf_counter() - started
    cur.execute("SET maintenance_work_mem = '1GB'")
    started = time.perf_counter()
    for _, definition in hnsw:
        cur.execute(definition)
    timing["hnsw_build_seconds"] = time.perf_counter() - started
    cur.execute(f'ANALYZE "{table}"')
