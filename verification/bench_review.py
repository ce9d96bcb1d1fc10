"""Benchmarks of the answer cache and the reviewers' workbench, run by ``manage.py bench_retrieval`` in its own
database on the bundled corpus: cache hits served in-app (exact, semantic/graph), the semantic lookup among
100,000 stored answers (HNSW on stored question vectors, per embedding model), and the admin change page."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from django.conf import settings
from django.db import connection
from django.utils import timezone

from knowledge.bench_support import hnsw_indexes_rebuilt
from knowledge.models import AnsweredQuestion, Chunk
from knowledge.selectors import answer_cached_similar
from verification.pipeline.retrieval import thresholds
from verification.services import answer_question

PAIRS_FILE = Path(settings.BASE_DIR) / "tests" / "review" / "crosstalk_pairs.json"
GOLDEN_FILE = Path(settings.BASE_DIR) / "tests" / "golden" / "golden.jsonl"
# Stored answers fall into gate groups as real ones do: a few large groups (questions naming no entity or
# number, keyed by topic alone) and many small ones (one code, form or benefit each).
LARGE_GROUPS, SMALL_GROUPS, LARGE_SHARE = 12, 4000, 0.6


def _pct(values: list[float], q: float) -> float:
    return round(float(np.percentile(np.asarray(values), q)), 2) if values else float("nan")


def _summary(values: list[float]) -> dict:
    return {"n": len(values), "p50": _pct(values, 50), "p95": _pct(values, 95)}


def answer_cache_bench(*, stored_answers: int = 100_000, queries: int = 200) -> dict:
    """Return the cache and workbench figures (milliseconds unless named otherwise)."""
    questions = [json.loads(line)["question"] for line in GOLDEN_FILE.read_text().splitlines() if line.strip()][:150]
    pairs = json.loads(PAIRS_FILE.read_text())["paraphrase"]
    for question in questions:
        answer_question(question=question)
    exact = [r.latency_ms for r in (answer_question(question=q) for q in questions) if r.cache == "exact"]
    similar = []
    for first, _ in pairs:
        answer_question(question=first)
    for _, second in pairs:
        result = answer_question(question=second)
        if result.cache in ("semantic", "graph"):
            similar.append(result.latency_ms)
    for question in questions:
        result = answer_question(question=f"please, {question}")
        if result.cache in ("semantic", "graph"):
            similar.append(result.latency_ms)
    figures = {
        "exact_hit_served_ms": _summary(exact),
        "semantic_or_graph_hit_served_ms": _summary(similar),
        "admin_change_page_7_citations": _admin_change_page(),
    }
    if stored_answers:
        figures["semantic_lookup"] = _semantic_lookup(stored_answers, queries)
    return figures


def _admin_change_page() -> dict:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    chunks = list(Chunk.objects.select_related("source").order_by("entry_id")[:7])
    row = AnsweredQuestion.objects.create(
        question="Seven sources?", question_hash="bench-seven-citations", confidence=0.7,
        answer=" ".join(f"{c.content.split('.')[0]} [{n}]." for n, c in enumerate(chunks, start=1)),
        citations=[{"number": n, "chunk_id": c.entry_id, "url": c.source.url, "title": c.title, "quote": ""}
                   for n, c in enumerate(chunks, start=1)],
        trace=[{"stage": "retrieve", "ms": 1.0}], verification={"citation_score": 1.0, "is_clean": True})
    user = get_user_model().objects.create_superuser("bench-reviewer", "bench@example.org", "bench-pw-123456")
    client = Client()
    client.force_login(user)
    url = f"/admin/knowledge/answeredquestion/{row.id}/change/"
    client.get(url, secure=True)
    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        status = client.get(url, secure=True).status_code
        elapsed = (time.perf_counter() - started) * 1000
    return {"status": status, "queries": len(captured), "ms": round(elapsed, 1)}


def _semantic_lookup(n: int, n_queries: int) -> dict:
    """Store ``n`` synthetic answers (MiniLM-sized unit vectors in gate groups) and time the semantic lookup."""
    from pgvector.psycopg import register_vector

    rng = np.random.default_rng(11)
    dims, model_name = 384, "all-MiniLM-L6-v2"
    large = [f"t:bench-{g}|e:|n:|m:" for g in range(LARGE_GROUPS)]
    small = [f"t:bench|e:dc_code:{g}|n:|m:" for g in range(SMALL_GROUPS)]
    keys = [large[i % LARGE_GROUPS] if rng.random() < LARGE_SHARE else small[int(rng.integers(SMALL_GROUPS))]
            for i in range(n)]
    centers = rng.normal(size=(300, dims)).astype(np.float32)
    data = centers[rng.integers(0, 300, n)] + 0.7 * rng.normal(size=(n, dims)).astype(np.float32)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    table = AnsweredQuestion._meta.db_table
    raw = connection.cursor().connection
    register_vector(raw)
    with raw.cursor() as cur, hnsw_indexes_rebuilt(cur, table=table) as timing:
        now = timezone.now()
        with cur.copy(f"COPY {table} (question, question_hash, gate_key, intent_words, answer, citations, "
                      "question_embedding, embedding_model, confidence, retrieval_score, retrieved, weak_retrieval, "
                      "refused, refusal_reason, warning, suggestions, model, routing_reason, verification, trace, "
                      "verified, flagged, review_note, review_version, needs_review, stale, current, off_record, "
                      "hit_count, verified_hit_count, created_at, updated_at) FROM STDIN") as copy:
            for i in range(n):
                copy.write_row([f"bench question {i}", f"bench-{i}", keys[i], "", "bench answer [1]", "[]",
                                data[i], model_name, 0.7, 0.6, "[]", False, False, "", "", "[]", "extractive",
                                "bench", "{}", "[]", i % 10 == 0, False, "", 0, False, False, True, False, 0, 0,
                                now, now])
    raw.commit()
    limits = thresholds()
    lookups = {"large_group": [], "small_group": []}
    for i in range(n_queries):
        group = "large_group" if i % 2 == 0 else "small_group"
        key = large[i % LARGE_GROUPS] if group == "large_group" else small[int(rng.integers(SMALL_GROUPS))]
        query = data[int(rng.integers(n))] + 0.1 * rng.normal(size=dims).astype(np.float32)
        query /= np.linalg.norm(query)
        started = time.perf_counter()
        answer_cached_similar(vector=query, model_name=model_name, gate_key=key,
                              semantic_threshold=limits["semantic_cache"], graph_threshold=limits["graph_cache"],
                              graph_allowed=True)
        lookups[group].append((time.perf_counter() - started) * 1000)
    plans = {name: _plan(key, data[0], model_name) for name, key in (("large_group", large[0]),
                                                                       ("small_group", small[0]))}
    # The database's own execution time (EXPLAIN ANALYZE): the index's cost without the client's round trip.
    server = {group: _summary([_execution_ms(key, data[int(rng.integers(n))], model_name) for key in keys_])
              for group, keys_ in (("large_group", large * 4), ("small_group", small[:48]))}
    with connection.cursor() as cur:
        cur.execute(f"DELETE FROM {table} WHERE question_hash LIKE 'bench-%%'")
    return {"stored_answers": n, "load_seconds": round(timing["load_seconds"], 1),
            "hnsw_build_seconds": round(timing["hnsw_build_seconds"], 1),
            "lookup_ms": {group: _summary(values) for group, values in lookups.items()},
            "lookup_ms_all": _summary(lookups["large_group"] + lookups["small_group"]),
            "lookup_server_execution_ms": server, "index_used": plans}


def _lookup_query(gate_key: str, vector: np.ndarray, model_name: str):
    from django.db.models.functions import Cast
    from pgvector.django import CosineDistance, VectorField

    rows = AnsweredQuestion.objects.filter(current=True, refused=False, gate_key=gate_key, embedding_model=model_name)
    return (rows.annotate(distance=CosineDistance(Cast("question_embedding", VectorField(dimensions=384)), vector))
            .order_by("distance").values_list("id", "distance", "verified", "flagged", "needs_review",
                                              "intent_words")[:5])


def _execution_ms(gate_key: str, vector: np.ndarray, model_name: str) -> float:
    report = json.loads(_lookup_query(gate_key, vector, model_name).explain(format="json", analyze=True))
    return float(report[0]["Execution Time"])


def _plan(gate_key: str, vector: np.ndarray, model_name: str) -> str:
    """Name the index the planner reads for a lookup in this gate group."""
    plan = _lookup_query(gate_key, vector, model_name).explain()
    for name in ("answered_question_hnsw_384", "answered_gate_current", "knowledge_answeredquestion_gate_key"):
        if name in plan:
            return name
    return plan.splitlines()[0]
