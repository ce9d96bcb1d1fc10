"""Embedding throughput and single-query latency.

    .venv/bin/python bench/bench_embeddings.py [--provider local|openai] [--limit N] [--json]

Throughput: every chunk of ../shared/data/vbkb_corpus.json embedded in one call (skipped, saying so, when the file
is absent). Latency: 200 short questions embedded one at a time, p50/p95. With the local model it also reports the
load time and the largest difference from ../shared/data/minilm_reference.json.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
CORPUS = SHARED_DATA / "vbkb_corpus.json"
REFERENCE = SHARED_DATA / "minilm_reference.json"

# Targets on the 2-core development machine.
TARGET_TOKENS_PER_SECOND = 2500
TARGET_QUERY_P95_MS = 10.0
# Above this share of time with runnable tasks waiting for a CPU, other work was competing with the benchmark.
CONTENDED_PRESSURE = 10.0

_TEMPLATES = [
    "What is the VA rating for {}?",
    "How do I file a claim for {}?",
    "Can I get service connection for {}?",
    "What evidence do I need for {}?",
    "Is {} a presumptive condition?",
    "How is {} rated by the VA?",
    "Can I appeal my {} decision?",
    "Does {} qualify for TDIU?",
    "What diagnostic code covers {}?",
    "How long does a {} claim take?",
]
_SUBJECTS = [
    "tinnitus",
    "PTSD",
    "sleep apnea",
    "hearing loss",
    "migraines",
    "knee pain",
    "back strain",
    "hypertension",
    "diabetes from Agent Orange",
    "burn pit exposure",
    "flat feet",
    "asthma",
    "depression",
    "a TBI",
    "sinusitis",
    "GERD",
    "radiculopathy",
    "scars",
    "erectile dysfunction",
    "plantar fasciitis",
]
QUESTIONS = [template.format(subject) for subject in _SUBJECTS for template in _TEMPLATES]  # 200


def cpu_pressure() -> float | None:
    """Return the share of the last 10 s in which runnable tasks waited for a CPU (Linux PSI), in percent."""
    try:
        line = Path("/proc/pressure/cpu").read_text().splitlines()[0]
    except (OSError, IndexError):
        return None
    fields = dict(item.split("=") for item in line.split()[1:])
    return float(fields["avg10"])


def provider_load(name: str):
    if name == "local":
        from knowledge.embeddings.local import minilm_embedder_get

        return minilm_embedder_get()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "veterans_ai.settings")
    import django

    django.setup()
    from knowledge.embeddings import embedding_provider_get

    return embedding_provider_get(provider=name)


def corpus_texts(limit: int | None) -> list[str] | None:
    if not CORPUS.exists():
        return None
    records = json.loads(CORPUS.read_text())
    # The first record is a version marker, not content.
    texts = [record["content"] for record in records if record.get("source_id") != "system" and record.get("content")]
    return texts[:limit] if limit else texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--provider", choices=["local", "openai"], default="local")
    parser.add_argument("--limit", type=int, default=None, help="embed only the first N corpus chunks")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))

    started = time.perf_counter()
    provider = provider_load(args.provider)
    results: dict[str, object] = {
        "provider": args.provider,
        "model": provider.model_name,
        "dimensions": provider.dimensions,
        "load_s": round(time.perf_counter() - started, 3),
        "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE"),
        "openblas_num_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),  # ONNX Runtime's threads (local model)
        "cpu_pressure_before": cpu_pressure(),
    }
    provider.embed(["warm up"])

    if args.provider == "local" and REFERENCE.exists():
        reference = json.loads(REFERENCE.read_text())
        vectors = provider.embed(reference["sentences"])
        results["reference_max_abs_diff"] = float(np.abs(vectors - np.asarray(reference["embeddings"])).max())

    texts = corpus_texts(args.limit)
    if texts is None:
        print(f"skipping throughput: {CORPUS} is missing", file=sys.stderr)
    else:
        tokens = provider.count_tokens(texts)
        started, cpu_started = time.perf_counter(), time.process_time()
        provider.embed(texts)
        elapsed = time.perf_counter() - started
        results |= {
            "corpus_cpu_seconds": round(time.process_time() - cpu_started, 2),
            "cpu_pressure_after_corpus": cpu_pressure(),
            "corpus_chunks": len(texts),
            "corpus_tokens": tokens,
            "corpus_seconds": round(elapsed, 2),
            "tokens_per_second": round(tokens / elapsed, 1),
            "sentences_per_second": round(len(texts) / elapsed, 1),
        }

    for question in QUESTIONS[:10]:
        provider.embed([question])
    timings = []
    for question in QUESTIONS:
        started = time.perf_counter()
        provider.embed([question])
        timings.append((time.perf_counter() - started) * 1000)
    p50, p95 = np.percentile(timings, [50, 95])
    results |= {
        "queries": len(QUESTIONS),
        "query_p50_ms": round(float(p50), 2),
        "query_p95_ms": round(float(p95), 2),
        "cpu_pressure_after_queries": cpu_pressure(),
    }

    if args.json:
        print(json.dumps(results))
        return 0
    print(f"{results['model']} ({results['provider']}, {results['dimensions']}-d), loaded in {results['load_s']} s")
    if "reference_max_abs_diff" in results:
        print(f"  reference vectors: max abs diff {results['reference_max_abs_diff']:.2e}")
    if "tokens_per_second" in results:
        mark = "ok" if args.provider != "local" or results["tokens_per_second"] >= TARGET_TOKENS_PER_SECOND else "BELOW"
        print(
            f"  throughput: {results['corpus_chunks']} chunks, {results['corpus_tokens']} tokens in "
            f"{results['corpus_seconds']} s = {results['tokens_per_second']:.0f} tokens/s, "
            f"{results['sentences_per_second']:.1f} sentences/s"
            + (f" (target ≥ {TARGET_TOKENS_PER_SECOND}: {mark})" if args.provider == "local" else "")
        )
    mark = "ok" if args.provider != "local" or results["query_p95_ms"] <= TARGET_QUERY_P95_MS else "ABOVE"
    print(
        f"  single query: {len(QUESTIONS)} questions, p50 {results['query_p50_ms']} ms, p95 {results['query_p95_ms']} ms"
        + (f" (target p95 ≤ {TARGET_QUERY_P95_MS:g}: {mark})" if args.provider == "local" else "")
    )
    pressures = [results.get(key) for key in ("cpu_pressure_before", "cpu_pressure_after_corpus", "cpu_pressure_after_queries")]
    if any(value is not None and value > CONTENDED_PRESSURE for value in pressures):
        # Other processes competing for the 2 cores make the figures meaningless; say so rather than mislead.
        shown = ", ".join("n/a" if value is None else f"{value:.0f}%" for value in pressures)
        print(f"  warning: the CPU was contended (PSI cpu some avg10: {shown}); rerun on an idle machine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
