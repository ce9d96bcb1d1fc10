"""Hot statements run as server-side prepared statements that reuse one generic plan.

Django binds parameters on the client (its psycopg cursors never prepare), so PostgreSQL parses and plans every
statement afresh. For a statement whose planning costs more than running it, that is most of its time: the
hybrid retrieval (knowledge.selectors) was planned in 2.6 ms and ran in 1.3 ms on the bundled corpus.
``fetchall_prepared`` sends such a statement through a psycopg server-binding cursor, prepared once per
connection; settings.py sets ``plan_cache_mode=force_generic_plan`` on every connection, which only prepared
statements obey (Django's own statements are unaffected), so the plan is made once too. With
``DATABASE_PREPARED_STATEMENTS=false`` (a transaction-mode pooler that cannot keep them) the statement is sent
unprepared, with the same result.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np
import psycopg
from django.db import connection
from pgvector import Vector


def fetchall_prepared(sql: str, params: Mapping[str, object] | Sequence[object], *, binary: bool = False) -> list[tuple]:
    """Run ``sql`` (psycopg placeholders: %s or %(name)s) as a prepared statement; return its rows.

    It goes through Django's cursor wrapper, so database errors come out as Django's, execute wrappers see it,
    and it is logged like any query. ``binary`` asks for the results in PostgreSQL's binary format: a type psycopg
    has no loader for (pgvector's ``vector``) then comes back as its bytes (``vector_from_binary`` reads them).
    """
    connection.validate_thread_sharing()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        # A server-binding cursor: with the connection's prepare_threshold of 0 it prepares on first use.
        raw = psycopg.Cursor(connection.connection)
    wrapped = connection.make_debug_cursor(raw) if connection.queries_logged else connection.make_cursor(raw)
    with wrapped as cursor:
        if binary:
            raw.format = psycopg.pq.Format.BINARY
        cursor.execute(sql, params)
        return cursor.fetchall()


def vector_text(vector: np.ndarray, *, digits: int = 7) -> str:
    """A vector as pgvector's text input, each value to ``digits`` significant digits (9 keep a float32 exactly).

    One %-format over all values: three times faster than formatting them one by one, and pgvector's own
    ``to_text`` took 0.7 ms for a 384-d question vector, a seventh of storing an answer.
    """
    values = np.asarray(vector, dtype=np.float32).tolist()
    return "[" + _values_format(len(values), digits) % tuple(values) + "]"


@functools.lru_cache(maxsize=8)
def _values_format(count: int, digits: int) -> str:
    return ",".join([f"%.{digits}g"] * count)


def vector_from_binary(data: bytes) -> np.ndarray:
    """A pgvector ``vector`` in PostgreSQL's binary format as float32: 20x faster than parsing its text, which is
    what Django's VectorField does (measured: a question's cold sentence vectors, 3.3 → 0.3 ms)."""
    return Vector.from_binary(data).to_numpy()
