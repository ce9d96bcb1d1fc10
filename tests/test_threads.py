"""Web and Celery worker processes start with one BLAS/OpenMP thread each; other processes keep the default."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROBE = "import os; {imports}; print(os.environ.get('OMP_NUM_THREADS'), os.environ.get('OPENBLAS_NUM_THREADS'))"


def _limits(imports: str, *argv: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    code = f"import sys; sys.argv[1:] = {list(argv)!r}; " + PROBE.format(imports=imports)
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          check=True).stdout.split("\n")[-2]


def test_the_wsgi_application_limits_math_threads_before_numpy_loads():
    assert _limits("import veterans_ai.wsgi; import numpy") == "1 1"


def test_a_celery_worker_limits_math_threads():
    assert _limits("import veterans_ai.celery", "-A", "veterans_ai", "worker") == "1 1"


def test_a_management_command_keeps_every_core_for_batch_embedding():
    assert _limits("import veterans_ai.celery", "ingest", "--bundled") == "None None"
