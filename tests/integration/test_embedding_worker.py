import json

import pytest

from knowledge.models import Chunk, ChunkEmbedding, ChunkSentence
from tests.knowledge.conftest import SMALL_CORPUS

from .conftest import manage, wait_for

pytestmark = pytest.mark.integration


def test_embedding_runs_in_a_real_worker_through_redis(tmp_path, celery_worker_process, redis_broker):
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL_CORPUS))
    sent = manage("ingest", str(path))  # another process: its tasks can only reach the worker through Redis
    assert sent.returncode == 0, sent.stderr
    assert "5 added" in sent.stdout
    done = wait_for(lambda: celery_worker_process.poll() is not None
                    or (ChunkEmbedding.objects.count() == Chunk.objects.count() == 5
                        and ChunkSentence.objects.values("chunk").distinct().count() == 5))
    assert done, "the worker did not embed the chunks and their sentences"
    assert celery_worker_process.poll() is None
    assert set(ChunkEmbedding.objects.values_list("model", flat=True)) == {"all-MiniLM-L6-v2"}
    assert ChunkSentence.objects.filter(chunk__entry_id="t-tinnitus").count() == 2

    again = manage("ingest", str(path))
    assert "0 added, 0 updated, 5 unchanged" in again.stdout and "0 embedded" in again.stdout
    assert redis_broker.llen("celery") == 0
