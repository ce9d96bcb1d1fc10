"""One BLAS/OpenMP thread per process, set before numpy loads; ONNX Runtime's pool for the local embedding model
takes its size from OMP_NUM_THREADS too (knowledge.embeddings.local).

Web and Celery workers each run one request or task at a time and there are as many workers as cores:
numpy's BLAS starting threads of its own in every worker makes them fight over the cores (measured on 2
cores with 2 gunicorn workers: misses 22 req/s, p95 445 ms at concurrency 4; one thread each tripled it).
An explicit value in the environment wins.
"""

import os

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS",
                    "NUMEXPR_NUM_THREADS", "RAYON_NUM_THREADS")


def single_threaded_math() -> None:
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
