"""Benchmark ingestion and retrieval on the bundled corpus, the real vbkb corpus and 100,000 synthetic vectors,
and the answer pipeline and answer cache above them (so it lives here, not in ``knowledge``).

Runs in a database of its own (``<name>_bench``) so the served knowledge base is never touched.
"""

import json
import time
from pathlib import Path

import numpy as np
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import override_settings
from django.utils import timezone

from knowledge.bench_support import hnsw_indexes_rebuilt
from knowledge.embeddings import embedding_provider_get
from knowledge.models import Chunk, ChunkEmbedding, ChunkEntity
from knowledge.selectors import chunks_search
from knowledge.services import bundled_corpus_paths, corpus_ingest
from verification.bench_review import answer_cache_bench
from verification.services import answer_question
from verification.warmup import answer_caches_clear, answer_caches_warm

SHARED = Path(settings.BASE_DIR).parent / "shared" / "data"


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if values else float("nan")


class Command(BaseCommand):
    help = "Print ingestion, embedding and retrieval figures (see README, Benchmarks)."

    def add_arguments(self, parser):
        parser.add_argument("--synthetic", type=int, default=100_000, help="synthetic vectors (0 to skip)")
        parser.add_argument("--queries", type=int, default=200)

    def handle(self, *args, **options):
        self._use_bench_database()
        provider = embedding_provider_get()
        provider.embed(["warm up"])
        results = {"embedding_model": provider.model_name}
        results["bundled"] = self._corpus(bundled_corpus_paths(), "vbkb", options["queries"])
        results["answer_pipeline"] = self._pipeline()
        results["answer_cache"] = answer_cache_bench(stored_answers=options["synthetic"], queries=options["queries"])
        if options["synthetic"]:
            results["hybrid_at_scale"] = self._hybrid_at_scale(options["synthetic"], options["queries"])
        vbkb = SHARED / "vbkb_corpus.json"
        if vbkb.exists():
            # A third-party knowledge base's pages, measured, never served: its domain is allowed for this run.
            with override_settings(URL_WHITELIST_EXTRA=[*settings.URL_WHITELIST_EXTRA, "veteransbenefitskb.com"]):
                results["vbkb_corpus"] = self._corpus([vbkb], "vbkb", options["queries"])
        else:
            self.stderr.write(f"skipped vbkb_corpus: {vbkb} is missing")
        if options["synthetic"]:
            results["synthetic"] = self._synthetic(options["synthetic"], options["queries"])
        self.stdout.write(json.dumps(results, indent=2))

    def _use_bench_database(self) -> None:
        served = settings.DATABASES["default"]["NAME"]
        name = f"{served}_bench"
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            cursor.execute(f'CREATE DATABASE "{name}"')
        connection.close()
        connection.settings_dict["NAME"] = name
        self.stderr.write(f"benchmark database {name} (the served database {served} is untouched)")
        call_command("migrate", verbosity=0)

    def _reset(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE knowledge_chunk, knowledge_source CASCADE")

    def _corpus(self, paths: list[Path], fmt: str, n_queries: int) -> dict:
        self._reset()
        provider = embedding_provider_get()
        sentence_seconds = self._timing_sentence_tasks()
        started = time.perf_counter()
        summary = corpus_ingest(paths=paths, fmt=fmt)
        ingest_s = time.perf_counter() - started
        sentences_s = sentence_seconds[0]
        texts = [f"{t}: {c}" if t else c for t, c in Chunk.objects.values_list("title", "content")]
        tokens = provider.count_tokens(texts)
        embed_started = time.perf_counter()
        provider.embed(texts[:200])
        embed_s = time.perf_counter() - embed_started
        started = time.perf_counter()
        again = corpus_ingest(paths=paths, fmt=fmt)
        reingest_s = time.perf_counter() - started

        questions = list(Chunk.objects.order_by("?").values_list("title", flat=True)[:n_queries])
        questions = [q for q in questions if q] or ["what is the rating for tinnitus"]
        q_embed, q_retrieve, vectors = [], [], []
        for q in questions:
            t0 = time.perf_counter()
            v = provider.embed([f"what about {q.lower()}?"])[0]
            q_embed.append((time.perf_counter() - t0) * 1000)
            vectors.append(v)
            t0 = time.perf_counter()
            chunks_search(query=q, query_vector=v)
            q_retrieve.append((time.perf_counter() - t0) * 1000)
        recall = self._recall_chunks(vectors, provider)
        n = Chunk.objects.count()
        return {
            "chunks": n,
            "ingest": summary.line(),
            "ingest_seconds": round(ingest_s, 2),
            "searchable_after_seconds": round(ingest_s - sentences_s, 2),
            "sentence_vectors_seconds": round(sentences_s, 2),
            "chunks_per_second": round(n / (ingest_s - sentences_s), 1),
            "embedding_tokens_per_second": round(provider.count_tokens(texts[:200]) / embed_s, 1),
            "corpus_tokens": tokens,
            "reingest_unchanged_seconds": round(reingest_s, 2),
            "reingest": again.line(),
            "query_embedding_ms": {"p50": round(pct(q_embed, 50), 2), "p95": round(pct(q_embed, 95), 2)},
            "retrieval_ms_without_embedding": {"p50": round(pct(q_retrieve, 50), 2),
                                               "p95": round(pct(q_retrieve, 95), 2)},
            "hnsw_recall_at_7": round(recall, 4),
        }

    def _pipeline(self) -> dict:
        """Answer the golden questions (no answer cache) on the bundled corpus: time outside any LLM, per stage.

        The first pass meets most chunks for the first time, so their sentence vectors, facts and words are
        read and derived then; the second pass is a running server's steady state, with those kept in memory.
        """
        golden = Path(settings.BASE_DIR) / "tests" / "golden" / "golden.jsonl"
        questions = [json.loads(line)["question"] for line in golden.read_text().splitlines() if line.strip()]
        answer_question(question="warm up the caches", use_cache=False)
        passes = []
        for _ in range(2):
            totals, stages = [], {}
            for question in questions:
                result = answer_question(question=question, use_cache=False)
                totals.append(result.latency_ms)
                for stage in result.trace:
                    stages.setdefault(stage["stage"], []).append(stage["ms"])
            passes.append((totals, stages))
        (first, first_stages), (steady, steady_stages) = passes
        # A served worker warms its caches before its first request (gunicorn's post_worker_init): the first
        # pass again, from empty caches warmed the same way.
        answer_caches_clear()
        started = time.perf_counter()
        warmed_chunks = answer_caches_warm()
        warmup_s = time.perf_counter() - started
        warmed = [answer_question(question=question, use_cache=False).latency_ms for question in questions]
        return {
            "questions": len(questions),
            "total_ms": {"p50": round(pct(first, 50), 2), "p95": round(pct(first, 95), 2)},
            "first_pass_after_worker_warmup_total_ms": {"p50": round(pct(warmed, 50), 2),
                                                        "p95": round(pct(warmed, 95), 2),
                                                        "chunks_warmed": warmed_chunks,
                                                        "warmup_seconds": round(warmup_s, 2)},
            "stage_ms_p95": {name: round(pct(v, 95), 2) for name, v in sorted(first_stages.items())},
            "steady_state_total_ms": {"p50": round(pct(steady, 50), 2), "p95": round(pct(steady, 95), 2)},
            "steady_state_stage_ms_p95": {name: round(pct(v, 95), 2) for name, v in sorted(steady_stages.items())},
        }

    def _timing_sentence_tasks(self) -> list[float]:
        """Time the sentence-vector tasks apart: chunks are searchable before they run (Celery is eager here)."""
        import knowledge.tasks as tasks

        spent = [0.0]
        original = getattr(tasks.chunk_sentences_embed, "__wrapped__", tasks.chunk_sentences_embed)

        def timed(**kwargs):
            started = time.perf_counter()
            try:
                return original(**kwargs)
            finally:
                spent[0] += time.perf_counter() - started

        timed.__wrapped__ = original
        tasks.chunk_sentences_embed = timed
        return spent

    def _recall_chunks(self, vectors: list[np.ndarray], provider) -> float:
        ids, matrix = [], []
        for pk, emb in ChunkEmbedding.objects.filter(model=provider.model_name).values_list("chunk_id", "embedding"):
            ids.append(pk)
            matrix.append(np.asarray(emb, dtype=np.float32))
        ids_arr, m = np.asarray(ids), np.vstack(matrix)
        hits = 0
        for v in vectors:
            exact = set(ids_arr[np.argsort(-(m @ v))[:7]].tolist())
            # The served path with the full-text part off: its dense top-7 through the HNSW index.
            approx = {h.chunk_id for h in chunks_search(query="", query_vector=v, top_k=7, lexical_weight=0)}
            hits += len(exact & approx)
        return hits / (7 * len(vectors))

    def _hybrid_at_scale(self, n: int, n_queries: int) -> dict:
        """The served retrieval (HNSW vector + full text + the graph's entities, fused) over ``n`` chunks: the
        bundled corpus plus variants of its chunks (sentences reordered, a variant tag; vectors its own plus
        noise, entity links its own), queried with the golden questions as the pipeline queries."""
        from pgvector.psycopg import register_vector

        from knowledge.extraction import entities_extract
        from knowledge.selectors import entity_ids_get

        provider = embedding_provider_get()
        real = list(Chunk.objects.order_by("id").values_list("id", "title", "content", "topic_id", "source_id"))
        vectors = dict(ChunkEmbedding.objects.filter(model=provider.model_name).values_list("chunk_id", "embedding"))
        links: dict[int, list[int]] = {}
        for chunk_id, entity_id in ChunkEntity.objects.values_list("chunk_id", "entity_id"):
            links.setdefault(chunk_id, []).append(entity_id)
        rng = np.random.default_rng(11)
        raw = connection.cursor().connection
        register_vector(raw)
        with raw.cursor() as cur, hnsw_indexes_rebuilt(cur, table=ChunkEmbedding._meta.db_table) as timing:
            cur.execute("SELECT COALESCE(MAX(id), 0) FROM knowledge_chunk")
            next_id = cur.fetchone()[0] + 1
            made = []
            with cur.copy("COPY knowledge_chunk (id, entry_id, source_id, topic_id, subtopic, type, title, content, "
                          "diagnostic_code, content_hash, created_at, updated_at) FROM STDIN") as copy:
                for k in range(n - len(real)):
                    pk, title, content, topic_id, source_id = real[k % len(real)]
                    sentences = content.split(". ")
                    rng.shuffle(sentences)
                    text = f"{'. '.join(sentences)} (variant {k})"
                    made.append((next_id + k, pk))
                    copy.write_row([next_id + k, f"bench-scale-{k}", source_id, topic_id, "", "narrative", title,
                                    text, "", f"bench-{k}", "now", "now"])
            with cur.copy("COPY knowledge_chunkembedding (chunk_id, model, dimensions, text_hash, embedding, "
                          "created_at, updated_at) FROM STDIN WITH (FORMAT BINARY)") as copy:
                copy.set_types(["int8", "varchar", "int2", "varchar", "vector", "timestamptz", "timestamptz"])
                now = timezone.now()
                for new_id, pk in made:
                    noise = rng.normal(size=provider.dimensions).astype(np.float32) / np.sqrt(provider.dimensions)
                    v = np.asarray(vectors[pk], dtype=np.float32) + 0.25 * noise  # cosine ≈ 0.97 to its original
                    copy.write_row([new_id, provider.model_name, provider.dimensions, "bench", v / np.linalg.norm(v),
                                    now, now])
            with cur.copy("COPY knowledge_chunkentity (chunk_id, entity_id) FROM STDIN") as copy:
                for new_id, pk in made:
                    for entity_id in links.get(pk, ()):
                        copy.write_row([new_id, entity_id])
            cur.execute("SELECT setval(pg_get_serial_sequence('knowledge_chunk', 'id'), MAX(id)) FROM knowledge_chunk")
            cur.execute("ANALYZE knowledge_chunk")
        raw.commit()
        golden = Path(settings.BASE_DIR) / "tests" / "golden" / "golden.jsonl"
        questions = [json.loads(line)["question"] for line in golden.read_text().splitlines() if line.strip()]
        latencies = []
        for question in questions[:n_queries]:
            vector = provider.embed([question])[0]
            pairs = [(e.type, e.value) for e in entities_extract(text=question)]
            entity_ids = [pk for (kind, _), pk in entity_ids_get(pairs=pairs).items() if kind in ("dc_code", "va_form")]
            t0 = time.perf_counter()
            chunks_search(query=question, query_vector=vector, entity_ids=entity_ids)
            latencies.append((time.perf_counter() - t0) * 1000)
        return {
            "chunks": Chunk.objects.count(),
            "load_seconds": round(timing["load_seconds"], 1),
            "hnsw_build_seconds": round(timing["hnsw_build_seconds"], 1),
            "queries": len(latencies),
            "hybrid_query_ms_without_embedding": {"p50": round(pct(latencies, 50), 2),
                                                  "p95": round(pct(latencies, 95), 2)},
        }

    def _synthetic(self, n: int, n_queries: int) -> dict:
        from pgvector.psycopg import register_vector

        rng = np.random.default_rng(7)
        centers = rng.normal(size=(200, 384)).astype(np.float32)
        data = centers[rng.integers(0, 200, n)] + 0.6 * rng.normal(size=(n, 384)).astype(np.float32)
        data /= np.linalg.norm(data, axis=1, keepdims=True)
        queries = centers[rng.integers(0, 200, n_queries)] + 0.6 * rng.normal(size=(n_queries, 384)).astype(np.float32)
        queries /= np.linalg.norm(queries, axis=1, keepdims=True)
        raw = connection.cursor().connection
        register_vector(raw)
        with raw.cursor() as cur:
            cur.execute("DROP TABLE IF EXISTS bench_vectors")
            cur.execute("CREATE TABLE bench_vectors (id int PRIMARY KEY, embedding vector(384))")
            t0 = time.perf_counter()
            with cur.copy("COPY bench_vectors (id, embedding) FROM STDIN WITH (FORMAT BINARY)") as copy:
                copy.set_types(["int4", "vector"])
                for i, row in enumerate(data):
                    copy.write_row([i, row])
            load_s = time.perf_counter() - t0
            cur.execute("SET maintenance_work_mem = '1GB'")
            t0 = time.perf_counter()
            cur.execute("CREATE INDEX ON bench_vectors USING hnsw (embedding vector_cosine_ops) "
                        "WITH (m = 16, ef_construction = 64)")
            build_s = time.perf_counter() - t0
            raw.commit()
            latencies, hits = [], 0
            for q in queries:
                t0 = time.perf_counter()
                cur.execute("SELECT id FROM bench_vectors ORDER BY embedding <=> %s LIMIT 7", (q,))
                got = {row[0] for row in cur.fetchall()}
                latencies.append((time.perf_counter() - t0) * 1000)
                exact = set(np.argsort(-(data @ q))[:7].tolist())
                hits += len(got & exact)
            cur.execute("SHOW hnsw.ef_search")
            ef = cur.fetchone()[0]
            cur.execute("DROP TABLE bench_vectors")
            raw.commit()
        return {
            "vectors": n,
            "load_seconds": round(load_s, 1),
            "hnsw_build_seconds": round(build_s, 1),
            "ef_search": ef,
            "query_ms": {"p50": round(pct(latencies, 50), 2), "p95": round(pct(latencies, 95), 2)},
            "recall_at_7": round(hits / (7 * len(queries)), 4),
        }
